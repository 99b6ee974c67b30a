/**
 * The reader as the user pool knows them now. The authorization server asks at consent and at
 * every refresh of an AI tool's token, so what an admin does in the pool reaches the tool at its
 * next refresh (within one access-token lifetime):
 *
 * - a deleted or disabled reader gets no new token, and one whose groups changed gets the new ones
 *   (as the ID token the pool issues now carries them);
 * - a reader whose password an admin reset (AdminResetUserPassword: RESET_REQUIRED) or who has
 *   not yet set one (FORCE_CHANGE_PASSWORD) gets none;
 * - a reader whose site sign-in an admin ended (AdminUserGlobalSignOut) gets none: the grant keeps
 *   the reader's user-pool session (the refresh token of the browser sign-in they consented from),
 *   and the pool is asked to renew it, with the app client it was issued to (the web client, or with
 *   a provider the federated client). The pool refuses a session that a global sign-out revoked,
 *   or that has run its 30 days; the tokens it renews are thrown away, and nothing the browser
 *   holds changes (neither client rotates refresh tokens).
 *
 * (A reader who signs out everywhere on the site revokes their tools' grants outright.)
 */
import { AdminGetUserCommand, CognitoIdentityProviderClient, InitiateAuthCommand } from '@aws-sdk/client-cognito-identity-provider'
import type { AccessUser } from '../../lib/access/types'
import { sessionClientIds, type AuthSettings } from '../../lib/auth/authSettings'
import type { PoolSession } from '../../edge/readIdToken'
import { groupsOf } from '../../edge/tokenVerifier'
import { decodeTokenPayload } from '../../lib/auth/readSessionCookies'

export type { PoolSession }

/** The reader now; or why their tools get no new token (a sentence for the access log). */
export type ReaderNow = { reader: NonNullable<AccessUser> } | { ended: string }

/**
 * Asks the pool about `username`, whose user-pool session (a refresh token and the app client it
 * belongs to) is `poolSession`. Throws when the pool cannot be asked (the tool keeps a token to
 * retry with); answers `ended` only for what the pool said.
 */
export type CheckReader = (username: string, poolSession: PoolSession) => Promise<ReaderNow>

/** A kept session names an app client that is not one of the site's (a bug or a tampered record, never a reader's doing). */
export class UnknownSessionClientError extends Error {
  constructor(clientId: string) {
    super(`the kept user-pool session names app client ${clientId}, which is not one of the site's`)
    this.name = 'UnknownSessionClientError'
  }
}

/** User statuses that mean the reader must set a new password before they may sign in. */
const PASSWORD_PENDING = new Set(['RESET_REQUIRED', 'FORCE_CHANGE_PASSWORD'])

/** What the pool answers a refresh token that can no longer be used: revoked, expired, or its user gone. */
const SESSION_ENDED = new Set(['NotAuthorizedException', 'UserNotFoundException', 'PasswordResetRequiredException', 'UserNotConfirmedException'])

const nameOf = (error: unknown) => (error as { name?: unknown } | null)?.name

export function cognitoReaderCheck(auth: Pick<AuthSettings, 'region' | 'userPoolId' | 'userPoolClientId' | 'federation' | 'endpoint' | 'mode'>, groupsClaim: string | null): CheckReader {
  const clientIds = new Set(sessionClientIds(auth))
  const client = new CognitoIdentityProviderClient({
    region: auth.region,
    // The local Cognito takes any credentials; on AWS the function's role signs the calls.
    ...(auth.mode === 'local' ? { endpoint: auth.endpoint, credentials: { accessKeyId: 'local', secretAccessKey: 'local' } } : {}),
  })

  /** The user, or null when the pool has none of that name. */
  const userOf = async (username: string) => {
    try {
      return await client.send(new AdminGetUserCommand({ UserPoolId: auth.userPoolId, Username: username }))
    } catch (error) {
      if (nameOf(error) === 'UserNotFoundException') return null
      throw error
    }
  }

  /**
   * The claims of an ID token the pool issues now for the session, renewed on the app client it was
   * issued to (public: no IAM; a refresh token works with its own client only), or null when the
   * pool refuses the session.
   */
  const renewed = async (poolSession: PoolSession): Promise<Record<string, unknown> | null> => {
    const { clientId } = poolSession
    if (!clientIds.has(clientId)) throw new UnknownSessionClientError(clientId)
    let answer
    try {
      answer = await client.send(new InitiateAuthCommand({ AuthFlow: 'REFRESH_TOKEN_AUTH', ClientId: clientId, AuthParameters: { REFRESH_TOKEN: poolSession.refreshToken } }))
    } catch (error) {
      if (SESSION_ENDED.has(String(nameOf(error)))) return null
      throw error
    }
    // Sent by the pool over TLS just now, so not verified again.
    const idToken = answer.AuthenticationResult?.IdToken
    const claims = idToken ? decodeTokenPayload(idToken) : null
    if (claims === null) throw new Error('the user pool renewed a session but sent no readable ID token')
    return claims
  }

  return async (username, poolSession) => {
    const [user, claims] = await Promise.all([userOf(username), renewed(poolSession)])
    if (user === null) return { ended: 'the reader is deleted' }
    if (user.Enabled === false) return { ended: 'the reader is disabled' }
    if (PASSWORD_PENDING.has(user.UserStatus ?? '')) return { ended: `the reader must set a new password (${user.UserStatus})` }
    if (claims === null) return { ended: "the reader's site sign-in was ended (an admin's global sign-out) or has expired" }
    if (claims['cognito:username'] !== username) return { ended: "the kept sign-in is not the reader's" }
    // The groups as the ID token the pool issues now carries them, as the browser's next token will:
    // the same claims the edge reads, after the same pre token generation trigger (the groups-claim
    // guard, docs/security.md), never the stored attributes.
    return { reader: { username, groups: groupsOf(claims, groupsClaim) } }
  }
}
