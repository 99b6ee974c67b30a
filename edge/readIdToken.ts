import { decodeCookiePart, lastAuthUserCookie, parseCookies, readAllAmplifyCookies, userTokenCookie } from '../lib/auth/amplifyCookies'
import type { AccessUser } from '../lib/access/types'
import type { VerifyIdToken } from './tokenVerifier'

/**
 * Finds the Amplify ID token in the Cookie headers. The username in a cookie name only locates
 * the token; who the reader is comes from the verified token's `cognito:username` claim.
 *
 * `clientIds` are the app clients whose sessions the site accepts (lib/auth/authSettings.ts
 * sessionClientIds): the web client, and with a federated provider the federated client, whose
 * cookies carry its own id. The verifier accepts ID tokens of the same clients.
 */
export const MAX_COOKIE_HEADER_BYTES = 16 * 1024
export const MAX_TOKEN_BYTES = 8 * 1024

export const cookieHeaderBytes = (cookieHeaders: readonly string[]) => cookieHeaders.reduce((sum, header) => sum + header.length, 0)

const asList = (clientIds: string | readonly string[]): readonly string[] => (typeof clientIds === 'string' ? [clientIds] : clientIds)

/** The ID tokens the cookies hold, one per client with a signed-in user, in the order of `clientIds`. */
export function readIdTokens(cookieHeaders: readonly string[], clientIds: string | readonly string[]): string[] {
  const total = cookieHeaderBytes(cookieHeaders)
  if (total === 0 || total > MAX_COOKIE_HEADER_BYTES) return []
  return readAllAmplifyCookies(parseCookies(cookieHeaders), asList(clientIds))
    .map((session) => session.idToken)
    .filter((token): token is string => !!token && token.length <= MAX_TOKEN_BYTES)
}

/** The first ID token the cookies hold, or null. */
export function readIdToken(cookieHeaders: readonly string[], clientIds: string | readonly string[]): string | null {
  return readIdTokens(cookieHeaders, clientIds)[0] ?? null
}

/**
 * The verified reader of the sign-in cookies, or null when there is none (or none valid). A browser
 * holds one client's session at a time (the sign-in page clears the other's); should both be there,
 * the first that verifies is the reader.
 */
export async function readerOfCookies(cookieHeaders: readonly string[], clientIds: string | readonly string[], verifyIdToken: VerifyIdToken): Promise<AccessUser> {
  for (const token of readIdTokens(cookieHeaders, clientIds)) {
    const reader = await verifyIdToken(token)
    if (reader) return reader
  }
  return null
}

/** A reader's user-pool session: a refresh token, and the app client it was issued to (which alone can renew it). */
export interface PoolSession {
  clientId: string
  refreshToken: string
}

/**
 * The refresh token Amplify keeps for `username` in the Cookie headers, with its client, or null.
 * The AI tools' sign-in keeps it with a grant (the reader's user-pool session), so it reads the
 * cookie of the verified reader only, preferring the client whose signed-in user they are; whether
 * it is really theirs the user pool says when it is used (with that client).
 */
export function readRefreshToken(cookieHeaders: readonly string[], clientIds: string | readonly string[], username: string): PoolSession | null {
  const total = cookieHeaderBytes(cookieHeaders)
  if (total === 0 || total > MAX_COOKIE_HEADER_BYTES) return null
  const cookies = parseCookies(cookieHeaders)
  const isLastUser = (clientId: string) => {
    const raw = cookies.get(lastAuthUserCookie(clientId))
    return raw !== undefined && decodeCookiePart(raw) === username
  }
  const list = asList(clientIds)
  for (const clientId of [...list.filter(isLastUser), ...list.filter((clientId) => !isLastUser(clientId))]) {
    const raw = cookies.get(userTokenCookie(clientId, username, 'refreshToken'))
    const token = raw === undefined ? null : decodeCookiePart(raw)
    if (token && token.length <= MAX_TOKEN_BYTES) return { clientId, refreshToken: token }
  }
  return null
}
