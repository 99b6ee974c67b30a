/**
 * Finds the Amplify ID token in a Cookie header. Amplify's CookieStorage writes
 * `CognitoIdentityServiceProvider.<clientId>.LastAuthUser` and
 * `CognitoIdentityServiceProvider.<clientId>.<username>.idToken` (names URL-encoded).
 * The username in a cookie name only locates the token; who the reader is comes from the
 * verified token's `cognito:username` claim.
 */
export const MAX_COOKIE_HEADER_BYTES = 16 * 1024
export const MAX_TOKEN_BYTES = 8 * 1024

function safeDecode(text: string): string | null {
  try {
    return decodeURIComponent(text)
  } catch {
    return null
  }
}

/**
 * Raw cookie values by decoded name; a name sent twice with different values is ambiguous and
 * dropped. Values stay encoded (decoding every token on every request is the costly part).
 */
function parseCookies(headers: readonly string[]): Map<string, string> {
  const cookies = new Map<string, string>()
  const ambiguous = new Set<string>()
  for (const header of headers) {
    for (const pair of header.split(';')) {
      const at = pair.indexOf('=')
      if (at < 0) continue
      const name = safeDecode(pair.slice(0, at).trim())
      if (name === null) continue
      const value = pair.slice(at + 1).trim()
      const seen = cookies.get(name)
      if (seen !== undefined && seen !== value) ambiguous.add(name)
      cookies.set(name, value)
    }
  }
  for (const name of ambiguous) cookies.delete(name)
  return cookies
}

export function readIdToken(cookieHeaders: readonly string[], clientId: string): string | null {
  const total = cookieHeaders.reduce((sum, header) => sum + header.length, 0)
  if (total === 0 || total > MAX_COOKIE_HEADER_BYTES) return null
  const cookies = parseCookies(cookieHeaders)
  const prefix = `CognitoIdentityServiceProvider.${clientId}`
  const lastUserRaw = cookies.get(`${prefix}.LastAuthUser`)
  const lastUser = lastUserRaw === undefined ? null : safeDecode(lastUserRaw)
  if (!lastUser) return null
  const tokenRaw = cookies.get(`${prefix}.${lastUser}.idToken`)
  const token = tokenRaw === undefined ? null : safeDecode(tokenRaw)
  if (!token || token.length > MAX_TOKEN_BYTES) return null
  return token
}
