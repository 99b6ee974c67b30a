import type { AccessConfig } from './lib/access/types'

/**
 * Who sees what. The one source of truth: the build reads its rules (page maps, route manifests,
 * search indexes, link checks), and the edge authorizer and the local server read all of it. A
 * browser learns only its own reader's part, from the authorizer.
 *
 * Each list is comma-separated; entries are trimmed and matched exactly: a Cognito username, or
 * `group:<name>` for every reader whose verified ID token carries that group (a user-pool group in
 * `cognito:groups`, or a federated provider's group in `groupsClaim`). Full-access entries are
 * merged into every other list. Only the authorizer holds these lists; no browser receives them.
 * Ops can override a list with the environment variable named beside it, then redeploy the
 * authorizer alone (npm run deploy:access).
 */
const config: AccessConfig = {
  protectDocs: process.env.DOCS_PROTECT !== 'false',
  lists: {
    fullAccessUsers: process.env.DOCS_FULL_ACCESS_USERS ?? 'admin',
    leadsUsers: process.env.DOCS_LEADS_USERS ?? 'leads1, leads2, leads3, leads4, leads5',
    internalUsers: process.env.DOCS_INTERNAL_USERS ?? 'internal1',
    twilioSupportUsers: process.env.DOCS_TWILIO_SUPPORT_USERS ?? 'support1, group:support-team',
  },
  // Groups from a federated identity provider arrive in this claim (mapped in infra/); user-pool
  // groups always arrive in cognito:groups.
  groupsClaim: 'custom:groups',
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
