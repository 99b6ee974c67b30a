/**
 * How often one source may register an AI tool (Dynamic Client Registration, POST /oauth/reg).
 * One figure for both places that enforce it: the local server's limiter and the WAF rate rule in
 * front of /oauth/reg on AWS (whose windows are 1, 2, 5 or 10 minutes, and whose limit is at least 10).
 * A real tool registers once per install; a source that registers more is filling the table.
 */
export const REGISTRATION_RATE = { limit: 20, windowSeconds: 300 } as const

/**
 * What one registration may hold (Dynamic Client Registration and Client ID Metadata Documents
 * alike), so that a registration is a small record: a registration past one of these is refused
 * with `invalid_client_metadata` naming the field and the limit (mcp/oauth/registrationPolicy.ts).
 * docs/ai-tools.md states them.
 */
export const CLIENT_METADATA_LIMITS = {
  /** Characters of `client_name`: the consent page shows it. */
  clientNameChars: 100,
  /** Entries of `redirect_uris` (a tool has one or two). */
  redirectUris: 10,
  /** Characters of each URI: the redirect URIs and the other URI fields (client_uri, logo_uri, …). */
  uriChars: 2000,
  /** Entries of `contacts`, and characters of each. */
  contacts: 5,
  contactChars: 254,
  /** Characters of every other text field (software_id, software_version, scope, …). */
  textChars: 200,
} as const

/**
 * How long a registration lives until its reader allows it: a client that has not led to a grant
 * within a day is removed (DynamoDB's TTL on AWS, the store's sweep locally), and so is its
 * registration access token. A grant keeps its client for the grant's own lifetime.
 */
export const UNGRANTED_CLIENT_SECONDS = 24 * 3600
