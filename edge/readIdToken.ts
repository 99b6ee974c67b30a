import { clientIdList, decodeCookiePart, lastAuthUserCookie, parseCookies, readAllAmplifyCookies, userTokenCookie } from '../lib/auth/amplifyCookies'
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

/** The cookies of the Cookie headers, or null when there are none or more than a sign-in ever sets. */
function boundedCookies(cookieHeaders: readonly string[]): Map<string, string> | null {
  const total = cookieHeaderBytes(cookieHeaders)
  return total === 0 || total > MAX_COOKIE_HEADER_BYTES ? null : parseCookies(cookieHeaders)
}

/** A token cookie's value, when it is one a sign-in could have set (not over MAX_TOKEN_BYTES). */
const tokenOf = (raw: string | null | undefined): string | null => (raw && raw.length <= MAX_TOKEN_BYTES ? raw : null)

/** The ID tokens the cookies hold, one per client with a signed-in user, in the order of `clientIds`. */
export function readIdTokens(cookieHeaders: readonly string[], clientIds: string | readonly string[]): string[] {
  const cookies = boundedCookies(cookieHeaders)
  if (cookies === null) return []
  return readAllAmplifyCookies(cookies, clientIds)
    .map((session) => tokenOf(session.idToken))
    .filter((token): token is string => token !== null)
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
  const cookies = boundedCookies(cookieHeaders)
  if (cookies === null) return null
  const isLastUser = (clientId: string) => {
    const raw = cookies.get(lastAuthUserCookie(clientId))
    return raw !== undefined && decodeCookiePart(raw) === username
  }
  const list = clientIdList(clientIds)
  for (const clientId of [...list.filter(isLastUser), ...list.filter((clientId) => !isLastUser(clientId))]) {
    const raw = cookies.get(userTokenCookie(clientId, username, 'refreshToken'))
    const token = tokenOf(raw === undefined ? null : decodeCookiePart(raw))
    if (token !== null) return { clientId, refreshToken: token }
  }
  return null
}
