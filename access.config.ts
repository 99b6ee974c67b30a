import type { AccessConfig } from './lib/access/types'

/**
 * Who sees what. The one source of truth: the client guard, navigation, search,
 * the edge authorizer and the local server all read this file.
 *
 * Each list is comma-separated; entries are trimmed and matched exactly against the
 * Cognito username. Full-access users are merged into every other list.
 * Ops can override a list at build time with the environment variable named beside it
 * (next.config.mjs passes these variables into the client bundle, so every consumer sees the same lists).
 */
const config: AccessConfig = {
  protectDocs: process.env.DOCS_PROTECT !== 'false',
  lists: {
    fullAccessUsers: process.env.DOCS_FULL_ACCESS_USERS ?? 'admin',
    leadsUsers: process.env.DOCS_LEADS_USERS ?? 'leads1, leads2, leads3, leads4, leads5',
    internalUsers: process.env.DOCS_INTERNAL_USERS ?? 'internal1',
    twilioSupportUsers: process.env.DOCS_TWILIO_SUPPORT_USERS ?? 'support1',
  },
  rules: [
    { path: '/', match: 'exact', require: 'signedIn' },
    { path: '/docs/leads', match: 'prefix', require: 'leadsUsers' },
    { path: '/docs/internal', match: 'prefix', require: 'internalUsers' },
    { path: '/docs/support-twilio', match: 'prefix', require: 'twilioSupportUsers' },
  ],
  fallback: 'fullAccessUsers',
  publicPaths: ['/login', '/unauthorized', '/404', '/session-too-large'],
}

export default config
