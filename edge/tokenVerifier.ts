import { CognitoJwtVerifier } from 'aws-jwt-verify'
import { SimpleJwksCache } from 'aws-jwt-verify/jwk'
import type { Jwks } from 'aws-jwt-verify/jwk'
import { fetch as fetchOnce, type Fetcher } from 'aws-jwt-verify/https'
import type { AccessUser } from '../lib/access/types'

export interface VerifierSettings {
  userPoolId: string
  /**
   * The app clients whose ID tokens are accepted (their `aud`): the web client, and with a federated
   * provider the federated client too (lib/auth/authSettings.ts sessionClientIds).
   */
  clientId: string | readonly string[]
  /** The pool's keys, baked in at build time (Lambda@Edge has no environment) or read at start-up. */
  jwks: Jwks
  /**
   * Whether an unknown key id may be fetched from the pool's public JWKS URL (key rotation in
   * production). Off in local mode, whose keys never change.
   */
  fetchUnknownKeys: boolean
  /** A claim besides `cognito:groups` that carries a federated provider's groups (access.config.ts). */
  groupsClaim?: string | null
}

/**
 * The groups a verified ID token carries: `cognito:groups` (a list), and the federated claim, which
 * Cognito maps from the provider's attribute as a list or as text: a JSON list (`["a","b"]`, read
 * exactly), or `[a, b]` and `a,b`, where a comma can only separate (so map groups by id, which has
 * none, not by a name a directory lets its users write: docs/deploy.md).
 */
export function groupsOf(payload: Record<string, unknown>, groupsClaim?: string | null): string[] {
  const read = (value: unknown): string[] => {
    if (Array.isArray(value)) return value.filter((item): item is string => typeof item === 'string')
    if (typeof value !== 'string') return []
    if (/^\s*\[\s*"/.test(value)) {
      try {
        return read(JSON.parse(value))
      } catch {
        // Not JSON after all: read as text.
      }
    }
    return value.replace(/^\s*\[|\]\s*$/g, '').split(',').map((item) => item.trim()).filter(Boolean)
  }
  const groups = [...read(payload['cognito:groups']), ...(groupsClaim ? read(payload[groupsClaim]) : [])]
  return [...new Set(groups)]
}

/** Turns an ID token into a reader, or null: bad signature, wrong pool, client or token use, expired. */
export type VerifyIdToken = (token: string) => Promise<AccessUser>

const refuseFetch: Fetcher = {
  fetch: async (uri: string) => {
    throw new Error(`JWKS fetch refused: ${uri}`)
  },
}

/** How long one fetch of the pool's JWKS may take: twice that (two app clients' tokens) stays well inside Lambda@Edge's 5 s. */
export const JWKS_FETCH_MS = 1500
/** After a fetch of the JWKS failed, no other is tried for this long; an unknown key id is refused at once. */
export const JWKS_PAUSE_AFTER_FAILURE_MS = 30_000

/**
 * The pool's JWKS fetched once (no retry) within JWKS_FETCH_MS, and not again for a while after a
 * failure. Anyone can write a token with a key id the baked keys lack; aws-jwt-verify's own fetcher
 * waits 3 s and tries twice, and its penalty box counts only a key missing from a fetched set, so a
 * hanging endpoint held every such request past the viewer-request limit.
 */
export function boundedJwksFetcher(now: () => number = Date.now): Fetcher {
  let failedAt = Number.NEGATIVE_INFINITY
  return {
    fetch: async (uri, requestOptions, data) => {
      if (now() - failedAt < JWKS_PAUSE_AFTER_FAILURE_MS) throw new Error(`JWKS fetch paused after a failure: ${uri}`)
      try {
        return await fetchOnce(uri, { timeout: JWKS_FETCH_MS, responseTimeout: JWKS_FETCH_MS, ...requestOptions }, data)
      } catch (error) {
        failedAt = now()
        throw error
      }
    },
  }
}

/** Verified tokens remembered per warm Lambda instance; a page load sends the same token for every file. */
export const VERIFIED_CACHE_SIZE = 1000

/** A verified reader and when their token expires (the AI tools' server reports it to the MCP SDK). */
export interface VerifiedReader {
  user: NonNullable<AccessUser>
  expiresAtMs: number
}

/** Turns an ID token into a reader with its expiry, or null, exactly as VerifyIdToken decides. */
export type VerifyIdTokenClaims = (token: string) => Promise<VerifiedReader | null>

export function createIdTokenVerifier(settings: VerifierSettings): VerifyIdToken {
  return readerOnly(createIdTokenClaimsVerifier(settings))
}

/** The reader alone of a claims verifier, sharing its caches (a server that checks cookies and bearer tokens keeps one). */
export const readerOnly = (verify: VerifyIdTokenClaims): VerifyIdToken => async (token) => (await verify(token))?.user ?? null

export function createIdTokenClaimsVerifier(settings: VerifierSettings): VerifyIdTokenClaims {
  const jwksCache = new SimpleJwksCache({ fetcher: settings.fetchUnknownKeys ? boundedJwksFetcher() : refuseFetch })
  const verifier = CognitoJwtVerifier.create(
    { userPoolId: settings.userPoolId, clientId: typeof settings.clientId === 'string' ? settings.clientId : [...settings.clientId], tokenUse: 'id' },
    { jwksCache }
  )
  verifier.cacheJwks(settings.jwks)
  // Keyed by the whole token, signature included, so only the exact bytes verified before hit;
  // an entry is used only until the token's own expiry.
  const verified = new Map<string, VerifiedReader>()
  return async (token) => {
    const hit = verified.get(token)
    if (hit && hit.expiresAtMs > Date.now()) return hit
    if (hit) verified.delete(token)
    try {
      const payload = await verifier.verify(token)
      const username = payload['cognito:username']
      if (typeof username !== 'string' || username.length === 0) return null
      // aws-jwt-verify checks exp only when the token has one; a session without an end is none.
      if (typeof payload.exp !== 'number' || !Number.isFinite(payload.exp)) return null
      const reader = { user: { username, groups: groupsOf(payload, settings.groupsClaim) }, expiresAtMs: payload.exp * 1000 }
      if (verified.size >= VERIFIED_CACHE_SIZE) verified.delete(verified.keys().next().value as string)
      verified.set(token, reader)
      return reader
    } catch {
      return null
    }
  }
}
