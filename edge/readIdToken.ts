import { decodeCookiePart, parseCookies, readAmplifyCookies, userTokenCookie } from '../lib/auth/amplifyCookies'
import type { AccessUser } from '../lib/access/types'
import type { VerifyIdToken } from './tokenVerifier'

/**
 * Finds the Amplify ID token in the Cookie headers. The username in a cookie name only locates
 * the token; who the reader is comes from the verified token's `cognito:username` claim.
 */
export const MAX_COOKIE_HEADER_BYTES = 16 * 1024
export const MAX_TOKEN_BYTES = 8 * 1024

export const cookieHeaderBytes = (cookieHeaders: readonly string[]) => cookieHeaders.reduce((sum, header) => sum + header.length, 0)

export function readIdToken(cookieHeaders: readonly string[], clientId: string): string | null {
  const total = cookieHeaderBytes(cookieHeaders)
  if (total === 0 || total > MAX_COOKIE_HEADER_BYTES) return null
  const token = readAmplifyCookies(parseCookies(cookieHeaders), clientId)?.idToken
  if (!token || token.length > MAX_TOKEN_BYTES) return null
  return token
}

/** The verified reader of the sign-in cookies, or null when there is none (or none valid). */
export async function readerOfCookies(cookieHeaders: readonly string[], clientId: string, verifyIdToken: VerifyIdToken): Promise<AccessUser> {
  const token = readIdToken(cookieHeaders, clientId)
  return token === null ? null : verifyIdToken(token)
}

/**
 * The refresh token Amplify keeps for `username` in the Cookie headers, or null. The AI tools'
 * sign-in keeps it with a grant (the reader's user-pool session), so it reads the cookie of the
 * verified reader only; whether it is really theirs the user pool says when it is used.
 */
export function readRefreshToken(cookieHeaders: readonly string[], clientId: string, username: string): string | null {
  const total = cookieHeaderBytes(cookieHeaders)
  if (total === 0 || total > MAX_COOKIE_HEADER_BYTES) return null
  const raw = parseCookies(cookieHeaders).get(userTokenCookie(clientId, username, 'refreshToken'))
  const token = raw === undefined ? null : decodeCookiePart(raw)
  return token && token.length <= MAX_TOKEN_BYTES ? token : null
}
