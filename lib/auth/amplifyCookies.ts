/**
 * Amplify's token cookies, as its CookieStorage writes them (names URL-encoded):
 * `CognitoIdentityServiceProvider.<clientId>.LastAuthUser` names the user, and
 * `CognitoIdentityServiceProvider.<clientId>.<username>.idToken` (and `.refreshToken`) hold the
 * tokens. The edge, the client's session reader, sign-out and the test tools all read or write
 * these names through this module.
 */
export const AMPLIFY_COOKIE_PREFIX = 'CognitoIdentityServiceProvider.'

export const lastAuthUserCookie = (clientId: string) => `${AMPLIFY_COOKIE_PREFIX}${clientId}.LastAuthUser`
export const userTokenCookie = (clientId: string, username: string, token: 'idToken' | 'refreshToken' | 'clockDrift') =>
  `${AMPLIFY_COOKIE_PREFIX}${clientId}.${username}.${token}`

export function decodeCookiePart(text: string): string | null {
  try {
    return decodeURIComponent(text)
  } catch {
    return null
  }
}

/**
 * Raw cookie values by decoded name; a name sent twice with different values is ambiguous and
 * dropped. Values stay encoded: a caller decodes only the few it reads (tokens are long).
 */
export function parseCookies(headers: readonly string[]): Map<string, string> {
  const cookies = new Map<string, string>()
  const ambiguous = new Set<string>()
  for (const header of headers) {
    for (const pair of header.split(';')) {
      const at = pair.indexOf('=')
      if (at < 0) continue
      const name = decodeCookiePart(pair.slice(0, at).trim())
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

/** The signed-in user's name and ID token as the cookies hold them, or null. Nothing is verified here. */
export function readAmplifyCookies(
  cookies: Map<string, string>,
  clientId: string
): { lastUser: string; idToken: string | null; hasRefreshToken: boolean; clockDriftMs: number } | null {
  const rawUser = cookies.get(lastAuthUserCookie(clientId))
  const lastUser = rawUser === undefined ? null : decodeCookiePart(rawUser)
  if (!lastUser) return null
  const rawToken = cookies.get(userTokenCookie(clientId, lastUser, 'idToken'))
  return {
    lastUser,
    idToken: rawToken === undefined ? null : decodeCookiePart(rawToken),
    hasRefreshToken: cookies.has(userTokenCookie(clientId, lastUser, 'refreshToken')),
    // Amplify's measure of (server time - this computer's time) when the tokens were issued.
    clockDriftMs: Number.parseInt(cookies.get(userTokenCookie(clientId, lastUser, 'clockDrift')) ?? '0', 10) || 0,
  }
}

/**
 * The Cookie header for a signed-in user, holding only what the edge reads (tools and tests); with
 * `refreshToken`, also the session the AI tools' consent keeps with a grant.
 */
export function amplifyCookieHeader(clientId: string, username: string, idToken: string, refreshToken?: string): string {
  const header = `${lastAuthUserCookie(clientId)}=${encodeURIComponent(username)}; ${encodeURIComponent(userTokenCookie(clientId, username, 'idToken'))}=${idToken}`
  return refreshToken === undefined ? header : `${header}; ${encodeURIComponent(userTokenCookie(clientId, username, 'refreshToken'))}=${refreshToken}`
}
