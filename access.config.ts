import type { AccessConfig } from './lib/access/types'

/**
 * Who sees what. The one source of truth: the build reads its rules and sections (page maps, route
 * manifests, search indexes, link checks), and the edge authorizer and the local server read all
 * of it. A browser learns only its own reader's part, from the authorizer.
 *
 * Each list is comma-separated; entries are trimmed and matched exactly: a Cognito username, or
 * `group:<name>` for every reader whose verified ID token carries that group (a user-pool group in
 * `cognito:groups`, or a federated provider's group in `groupsClaim`). Full-access entries are
 * merged into every other list. Ops can override a list without an edit with `DOCS_<LIST_NAME>`
 * (`DOCS_LEADS_USERS`, …), then redeploy the authorizer alone (npm run deploy:access).
 *
 * A new section is one entry in `sections` (and a list for it, if it needs its own) plus its
 * content folder, content/docs/<id>/.
 */
const config: AccessConfig = {
  protectDocs: true,
  lists: {
    fullAccessUsers: 'admin',
    leadsUsers: 'leads1, leads2, leads3, leads4, leads5',
    internalUsers: 'internal1',
    twilioSupportUsers: 'support1, group:support-team',
  },
  sections: [
    { id: 'leads', title: 'Leads API', description: 'Quote creation and fees for lead-source partners.', entry: '/docs/leads/intro', readers: 'leadsUsers' },
    { id: 'internal', title: 'Internal', description: 'Data lake, master API, deployments and guidelines.', entry: '/docs/internal/intro', readers: 'internalUsers' },
    { id: 'support-twilio', title: 'Twilio support', description: 'Call flows and SQL queries for telephony support.', entry: '/docs/support-twilio/intro', readers: 'twilioSupportUsers' },
  ],
  rules: [{ path: '/', match: 'exact', require: 'signedIn' }],
  fallback: 'fullAccessUsers',
  // The AI tools' consent and connections pages hold no docs; what they show comes from the
  // authorization server, which asks for the reader's sign-in itself.
  publicPaths: ['/login', '/unauthorized', '/404', '/session-too-large', '/authorize', '/connected-tools'],
  // Groups from a federated identity provider arrive in this claim (mapped in infra/); user-pool
  // groups always arrive in cognito:groups.
  groupsClaim: 'custom:groups',
  // Readers' AI tools sign in through the site's own sign-in (mcp/oauth/). Tools on the reader's
  // computer (Claude Code, VS Code, Cursor) redirect to a loopback port; hosted apps must be listed.
  aiTools: {
    hostedRedirectUris: ['https://claude.ai/api/mcp/auth_callback', 'https://chatgpt.com/connector_platform_oauth_redirect'],
    accessTokenMinutes: 15,
    refreshTokenDays: 30,
  },
}

export default config
