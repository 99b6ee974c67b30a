/**
 * Who is signed in, read straight from Amplify's cookies, so docs pages need no Amplify code to
 * know the reader. The token is not verified here: the edge verified it before serving the page,
 * and the client guard is user interface only.
 */
import { parseCookies, readAmplifyCookies } from './amplifyCookies'

export interface CookieSession {
  username: string
  /** The ID token's `exp`, in milliseconds of this computer's clock (Amplify's clock drift applied). */
  expiresAtMs: number
  /** Whether a refresh token is stored, so an expired session can be renewed. */
  canRefresh: boolean
}

/**
 * The claims of a JWT, not verified: for a token the edge verified before serving the page, or one
 * the user pool has just sent over TLS (mcp/oauth/readerCheck.ts). Null when it is not a JWT with
 * an object payload. atob, so that it runs in the browser and in Node alike.
 */
export function decodeTokenPayload(token: string): Record<string, unknown> | null {
  const part = token.split('.')[1]
  if (!part || token.split('.').length !== 3) return null
  try {
    const base64 = part.replace(/-/g, '+').replace(/_/g, '/')
    const json = decodeURIComponent(
      Array.from(atob(base64), (char) => '%' + char.charCodeAt(0).toString(16).padStart(2, '0')).join('')
    )
    const payload = JSON.parse(json)
    return typeof payload === 'object' && payload !== null && !Array.isArray(payload) ? payload : null
  } catch {
    return null
  }
}

/**
 * The session in the cookies of the first of `clientIds` that holds one: the site's app clients
 * (lib/auth/authSettings.ts sessionClientIds), the order the edge and Amplify's configuration use.
 */
export function readSessionCookies(cookieHeader: string, clientIds: string | readonly string[]): CookieSession | null {
  const stored = readAmplifyCookies(parseCookies([cookieHeader]), clientIds)
  const payload = stored?.idToken ? decodeTokenPayload(stored.idToken) : null
  const username = payload?.['cognito:username']
  if (!stored || typeof username !== 'string' || typeof payload?.exp !== 'number') return null
  // A computer whose clock runs ahead would otherwise take every fresh token for expired and
  // renew it again and again; Amplify measures the drift at each sign-in and refresh.
  return { username, expiresAtMs: payload.exp * 1000 - stored.clockDriftMs, canRefresh: stored.hasRefreshToken }
}
