/**
 * Keys made at start for a server that keeps nothing between runs (the local one, like the local
 * Cognito): a signing key for the authorization server and keys for its cookies. On AWS they come
 * from the deployment instead (docs/deploy.md).
 */
import crypto from 'node:crypto'

export function freshAuthorizationKeys(): { jwks: { keys: object[] }; cookies: string[] } {
  const { privateKey } = crypto.generateKeyPairSync('rsa', { modulusLength: 2048 })
  const jwk = privateKey.export({ format: 'jwk' })
  return { jwks: { keys: [{ ...jwk, kid: crypto.randomUUID(), alg: 'RS256', use: 'sig' }] }, cookies: [crypto.randomBytes(32).toString('base64url')] }
}
