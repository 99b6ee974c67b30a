/**
 * Who is signed in, read straight from Amplify's cookies, so docs pages need no Amplify code to
 * know the reader. The token is not verified here: the edge verified it before serving the page,
 * and the client guard is user interface only.
 */
export interface CookieSession {
  username: string
  /** The ID token's `exp`, in milliseconds. */
  expiresAtMs: number
  /** Whether a refresh token is stored, so an expired session can be renewed. */
  canRefresh: boolean
}

function cookieMap(cookieHeader: string): Map<string, string> {
  const cookies = new Map<string, string>()
  for (const pair of cookieHeader.split(';')) {
    const at = pair.indexOf('=')
    if (at < 0) continue
    try {
      cookies.set(decodeURIComponent(pair.slice(0, at).trim()), decodeURIComponent(pair.slice(at + 1).trim()))
    } catch {
      // A cookie that is not valid percent-encoding is not one of Amplify's.
    }
  }
  return cookies
}

function decodePayload(token: string): Record<string, unknown> | null {
  const part = token.split('.')[1]
  if (!part || token.split('.').length !== 3) return null
  try {
    const base64 = part.replace(/-/g, '+').replace(/_/g, '/')
    const json = decodeURIComponent(
      Array.from(atob(base64), (char) => '%' + char.charCodeAt(0).toString(16).padStart(2, '0')).join('')
    )
    const payload = JSON.parse(json)
    return typeof payload === 'object' && payload !== null ? payload : null
  } catch {
    return null
  }
}

export function readSessionCookies(cookieHeader: string, clientId: string): CookieSession | null {
  const cookies = cookieMap(cookieHeader)
  const prefix = `CognitoIdentityServiceProvider.${clientId}`
  const lastUser = cookies.get(`${prefix}.LastAuthUser`)
  if (!lastUser) return null
  const token = cookies.get(`${prefix}.${lastUser}.idToken`)
  const payload = token ? decodePayload(token) : null
  const username = payload?.['cognito:username']
  if (typeof username !== 'string' || typeof payload?.exp !== 'number') return null
  return { username, expiresAtMs: payload.exp * 1000, canRefresh: cookies.has(`${prefix}.${lastUser}.refreshToken`) }
}
