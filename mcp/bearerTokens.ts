/**
 * The two bearer tokens /mcp takes, told apart by their shape: a reader's Cognito ID token that they
 * pasted (a JWT, verified as the edge verifies the sign-in cookie), or an access token the site's
 * own sign-in gave their tool (opaque, looked up by the authorization server).
 */
import type { VerifyIdTokenClaims } from '../edge/tokenVerifier'

export const isJwt = (token: string) => token.split('.').length === 3

export function bearerReader(idTokens: VerifyIdTokenClaims, siteIssued: VerifyIdTokenClaims | null): VerifyIdTokenClaims {
  return async (token) => (isJwt(token) ? idTokens(token) : siteIssued ? siteIssued(token) : null)
}
