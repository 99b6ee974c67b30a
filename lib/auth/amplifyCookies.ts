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

/** What Amplify's cookies of one app client hold. */
export interface StoredSession {
  /** The app client the session belongs to (its cookies' names carry it). */
  clientId: string
  lastUser: string
  idToken: string | null
  hasRefreshToken: boolean
  clockDriftMs: number
}

/**
 * The signed-in user's name and ID token as the cookies of the first of `clientIds` that has a
 * signed-in user hold them, or null. Nothing is verified here. With a federated provider the site
 * has two app clients (the username form's and the provider's, lib/auth/authSettings.ts
 * sessionClientIds), and a reader's session is in the cookies of the one they signed in through.
 */
export function readAmplifyCookies(cookies: Map<string, string>, clientIds: string | readonly string[]): StoredSession | null {
  return readAllAmplifyCookies(cookies, clientIds)[0] ?? null
}

/** Every client's stored session, in the order of `clientIds` (the edge tries each). */
export function readAllAmplifyCookies(cookies: Map<string, string>, clientIds: string | readonly string[]): StoredSession[] {
  return clientIdList(clientIds)
    .map((clientId) => readClientCookies(cookies, clientId))
    .filter((session): session is StoredSession => session !== null)
}

/** One app client's id, or the site's clients in order, as a list. */
export const clientIdList = (clientIds: string | readonly string[]): readonly string[] => (typeof clientIds === 'string' ? [clientIds] : clientIds)

function readClientCookies(cookies: Map<string, string>, clientId: string): StoredSession | null {
  const rawUser = cookies.get(lastAuthUserCookie(clientId))
  const lastUser = rawUser === undefined ? null : decodeCookiePart(rawUser)
  if (!lastUser) return null
  const rawToken = cookies.get(userTokenCookie(clientId, lastUser, 'idToken'))
  return {
    clientId,
    lastUser,
    idToken: rawToken === undefined ? null : decodeCookiePart(rawToken),
    hasRefreshToken: cookies.has(userTokenCookie(clientId, lastUser, 'refreshToken')),
    // Amplify's measure of (server time - this computer's time) when the tokens were issued.
    clockDriftMs: Number.parseInt(cookies.get(userTokenCookie(clientId, lastUser, 'clockDrift')) ?? '0', 10) || 0,
  }
}

/**
 * Removes every Amplify token cookie on path `/`; with `keepClientId`, every one but that app
 * client's: a new sign-in drops the session another client may still hold, so the browser, the
 * edge and the AI tools' sign-in all see the one session (lib/auth/sessionClient.ts).
 */
export function clearAmplifyCookies(doc: Document, keepClientId?: string): void {
  const kept = keepClientId === undefined ? null : `${AMPLIFY_COOKIE_PREFIX}${keepClientId}.`
  for (const pair of doc.cookie.split(';')) {
    const name = pair.split('=')[0].trim()
    if (name.startsWith(AMPLIFY_COOKIE_PREFIX) && (kept === null || !decodeCookiePart(name)?.startsWith(kept))) {
      doc.cookie = `${name}=; Path=/; Expires=Thu, 01 Jan 1970 00:00:00 GMT`
    }
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
