import { CognitoJwtVerifier } from 'aws-jwt-verify'
import { SimpleJwksCache } from 'aws-jwt-verify/jwk'
import type { Jwks } from 'aws-jwt-verify/jwk'
import type { Fetcher } from 'aws-jwt-verify/https'
import type { AccessUser } from '../lib/access/types'

export interface VerifierSettings {
  userPoolId: string
  clientId: string
  /** The pool's keys, baked in at build time (Lambda@Edge has no environment) or read at start-up. */
  jwks: Jwks
  /**
   * Whether an unknown key id may be fetched from the pool's public JWKS URL (key rotation in
   * production). Off in local mode, whose keys never change.
   */
  fetchUnknownKeys: boolean
}

/** Turns an ID token into a reader, or null: bad signature, wrong pool, client or token use, expired. */
export type VerifyIdToken = (token: string) => Promise<AccessUser>

const refuseFetch: Fetcher = {
  fetch: async (uri: string) => {
    throw new Error(`JWKS fetch refused: ${uri}`)
  },
}

/** Verified tokens remembered per warm Lambda instance; a page load sends the same token for every file. */
export const VERIFIED_CACHE_SIZE = 1000

export function createIdTokenVerifier(settings: VerifierSettings): VerifyIdToken {
  const jwksCache = settings.fetchUnknownKeys ? undefined : new SimpleJwksCache({ fetcher: refuseFetch })
  const verifier = CognitoJwtVerifier.create(
    { userPoolId: settings.userPoolId, clientId: settings.clientId, tokenUse: 'id' },
    jwksCache ? { jwksCache } : undefined
  )
  verifier.cacheJwks(settings.jwks)
  // Keyed by the whole token, signature included, so only the exact bytes verified before hit;
  // an entry is used only until the token's own expiry.
  const verified = new Map<string, { username: string; expiresAtMs: number }>()
  return async (token) => {
    const hit = verified.get(token)
    if (hit && hit.expiresAtMs > Date.now()) return { username: hit.username }
    if (hit) verified.delete(token)
    try {
      const payload = await verifier.verify(token)
      const username = payload['cognito:username']
      if (typeof username !== 'string' || username.length === 0) return null
      if (verified.size >= VERIFIED_CACHE_SIZE) verified.delete(verified.keys().next().value as string)
      verified.set(token, { username, expiresAtMs: payload.exp * 1000 })
      return { username }
    } catch {
      return null
    }
  }
}
