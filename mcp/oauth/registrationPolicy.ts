/**
 * What a registration may hold, beyond what oidc-provider checks itself (types, the grant and
 * response types and auth methods the configuration allows, redirect URI syntax): sizes, so that
 * a registration is a small record, and the form of the URI fields a consent page or a person may
 * follow. The limits are in lib/aiTools/registrationLimits.ts, the one place docs/ai-tools.md cites.
 *
 * Called by the authorization server's extraClientMetadata validator, which oidc-provider runs for
 * every client it builds: a Dynamic Client Registration, a Client ID Metadata Document, and a
 * stored client when it is read back.
 */
import { CLIENT_METADATA_LIMITS as LIMITS } from '../../lib/aiTools/registrationLimits'
import { isLoopbackRedirect } from './aiToolsSettings'

/** URI fields other than redirect_uris that oidc-provider recognises with this configuration. */
const URI_FIELDS = ['client_uri', 'logo_uri', 'policy_uri', 'tos_uri', 'jwks_uri', 'initiate_login_uri'] as const
const URI_LIST_FIELDS = ['post_logout_redirect_uris'] as const
/** Fields checked on their own terms here; every other string field is held to LIMITS.textChars. */
const OWN_RULES = new Set<string>(['client_id', 'client_name', 'redirect_uris', 'contacts', 'jwks', ...URI_FIELDS, ...URI_LIST_FIELDS])

/** Whether `uri` is https, or http on a loopback address (a tool's own page on the reader's computer). */
function isHttpsOrLoopback(uri: string): boolean {
  let url: URL
  try {
    url = new URL(uri)
  } catch {
    return false
  }
  return url.protocol === 'https:' || isLoopbackRedirect(uri)
}

const tooLong = (field: string, limit: number) => `${field} must be at most ${limit} characters`
const entryTooLong = (field: string, limit: number) => `${field} entries must each be at most ${limit} characters`

/** The first problem of the registration's metadata, as the error description names it; null when none. */
export function registrationProblem(metadata: Record<string, unknown>): string | null {
  // oidc-provider does not use pairwise subject identifiers here, yet it would fetch this URI at registration.
  if (metadata.sector_identifier_uri !== undefined) return 'sector_identifier_uri is not accepted: this server issues no pairwise identifiers'
  // Said here, before the library's own checks, which would first ask a private_key_jwt client for its keys.
  const authMethod = metadata.token_endpoint_auth_method
  if (authMethod !== undefined && authMethod !== 'none') return `token_endpoint_auth_method must be 'none': this server registers public clients only (PKCE, no client secret or key)`
  // A Client ID Metadata Document's client_id is its URL.
  if (typeof metadata.client_id === 'string' && metadata.client_id.length > LIMITS.uriChars) return tooLong('client_id', LIMITS.uriChars)
  const name = metadata.client_name
  if (typeof name === 'string' && name.length > LIMITS.clientNameChars) return tooLong('client_name', LIMITS.clientNameChars)

  for (const field of ['redirect_uris', ...URI_LIST_FIELDS]) {
    const uris = metadata[field]
    if (uris === undefined || uris === null) continue
    // Checked here, before the redirect policy reads the list (a string would fail it as a server error).
    if (!Array.isArray(uris) || uris.some((uri) => typeof uri !== 'string')) return `${field} must be an array of URI strings`
    if (uris.length > LIMITS.redirectUris) return `${field} must have at most ${LIMITS.redirectUris} entries (it has ${uris.length})`
    for (const uri of uris) if (uri.length > LIMITS.uriChars) return entryTooLong(field, LIMITS.uriChars)
  }
  for (const field of URI_FIELDS) {
    const uri = metadata[field]
    if (typeof uri !== 'string') continue
    if (uri.length > LIMITS.uriChars) return tooLong(field, LIMITS.uriChars)
    if (!isHttpsOrLoopback(uri)) return `${field} must be an https URI, or http on a loopback address`
  }

  const contacts = metadata.contacts
  if (Array.isArray(contacts)) {
    if (contacts.length > LIMITS.contacts) return `contacts must have at most ${LIMITS.contacts} entries (it has ${contacts.length})`
    for (const contact of contacts) if (typeof contact === 'string' && contact.length > LIMITS.contactChars) return entryTooLong('contacts', LIMITS.contactChars)
  }
  // An inline key set is a public key or two; the same bound as a URI keeps the record small.
  if (metadata.jwks !== undefined && JSON.stringify(metadata.jwks).length > LIMITS.uriChars * 4) return tooLong('jwks (as JSON)', LIMITS.uriChars * 4)

  for (const [field, value] of Object.entries(metadata)) {
    if (OWN_RULES.has(field)) continue
    if (typeof value === 'string' && value.length > LIMITS.textChars) return tooLong(field, LIMITS.textChars)
    if (Array.isArray(value) && value.some((entry) => typeof entry === 'string' && entry.length > LIMITS.textChars)) return entryTooLong(field, LIMITS.textChars)
  }
  return null
}
