import crypto from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import type { Jwks } from 'aws-jwt-verify/jwk'
import { issuerFor, type AuthSettings } from '../../lib/auth/authSettings'

/** cognito-local signs with a key pair that ships in its npm package: public to anyone. */
export function localCognitoJwks(): Jwks {
  const file = path.join(path.dirname(require.resolve('cognito-local/package.json')), 'lib/keys/cognitoLocal.public.json')
  const { jwk } = JSON.parse(fs.readFileSync(file, 'utf8'))
  return { keys: [jwk] }
}

/**
 * The keys the edge trusts. Local mode: cognito-local's. Production: the pool's published JWKS,
 * from DOCS_COGNITO_JWKS_FILE when set (offline builds), else fetched from Cognito. Production
 * never accepts cognito-local's key, under any key id: it is found by its modulus, since a file
 * could carry it under another `kid`, and a token naming that `kid` would then verify.
 */
export async function jwksFor(settings: AuthSettings, env: { DOCS_COGNITO_JWKS_FILE?: string } = process.env as { DOCS_COGNITO_JWKS_FILE?: string }): Promise<Jwks> {
  if (settings.mode === 'local') return localCognitoJwks()
  const jwks = env.DOCS_COGNITO_JWKS_FILE ? readJwksFile(env.DOCS_COGNITO_JWKS_FILE) : await fetchJwks(`${issuerFor(settings)}/.well-known/jwks.json`)
  if (!jwks || typeof jwks !== 'object' || !Array.isArray(jwks.keys) || jwks.keys.length === 0) throw new Error('the production JWKS has no keys')
  const local = publicKeyBytes(localCognitoJwks().keys[0])
  jwks.keys.forEach((key, i) => {
    const problem = keyProblem(key)
    if (problem) throw new Error(`the production JWKS's key ${i + 1} ${problem}: Cognito signs ID tokens with RS256 keys, each with "kid", "n" and "e"`)
    // Compared as keys, not as text: the same numbers spelt otherwise (a leading zero) verify alike.
    if (publicKeyBytes(key).equals(local)) throw new Error(`the production JWKS contains cognito-local's public key (kid "${key.kid}"); refusing to trust it`)
  })
  return jwks
}

const BASE64URL = /^[A-Za-z0-9_-]+$/

/** A public key as its DER bytes (SubjectPublicKeyInfo): one key, however its JWK spells its numbers. */
const publicKeyBytes = (key: object): Buffer => crypto.createPublicKey({ key: { kty: 'RSA', n: (key as { n: string }).n, e: (key as { e: string }).e }, format: 'jwk' }).export({ type: 'spki', format: 'der' })

/** What is wrong with one key of a JWKS for verifying Cognito's ID tokens; null when nothing. */
function keyProblem(key: unknown): string | null {
  if (!key || typeof key !== 'object') return 'is not an object'
  const { kty, kid, n, e, alg, use } = key as Record<string, unknown>
  if (kty !== 'RSA') return `has kty ${JSON.stringify(kty)}, not "RSA"`
  for (const [name, value] of Object.entries({ kid, n, e })) if (typeof value !== 'string' || value === '') return `has no "${name}"`
  for (const [name, value] of Object.entries({ n, e })) if (!BASE64URL.test(value as string)) return `has "${name}" that is not base64url`
  try {
    publicKeyBytes({ n, e })
  } catch {
    return 'is not an RSA public key'
  }
  if (alg !== undefined && alg !== 'RS256') return `has alg ${JSON.stringify(alg)}, not "RS256"`
  if (use !== undefined && use !== 'sig') return `has use ${JSON.stringify(use)}, not "sig"`
  return null
}

/** DOCS_COGNITO_JWKS_FILE's keys; a file that cannot be read or is not JSON is named with the variable. */
function readJwksFile(file: string): Jwks {
  const expected = "the pool's published keys, saved from https://cognito-idp.<region>.amazonaws.com/<pool id>/.well-known/jwks.json (docs/deploy.md)"
  let text: string
  try {
    text = fs.readFileSync(file, 'utf8')
  } catch (error) {
    throw new Error(`DOCS_COGNITO_JWKS_FILE names ${file}, which cannot be read (${(error as NodeJS.ErrnoException).code ?? String(error)}); it should hold ${expected}`)
  }
  try {
    return JSON.parse(text) as Jwks
  } catch {
    throw new Error(`DOCS_COGNITO_JWKS_FILE names ${file}, which is not JSON; it should hold ${expected}`)
  }
}

/** The pool's published keys, fetched; a failure names the address, and the way to build without the network. */
async function fetchJwks(url: string): Promise<Jwks> {
  const fix = 'check DOCS_COGNITO_REGION and DOCS_COGNITO_USER_POOL_ID, or build offline with DOCS_COGNITO_JWKS_FILE (docs/deploy.md)'
  let response: Response
  try {
    response = await fetch(url)
  } catch (error) {
    throw new Error(`fetching the pool's keys from ${url} failed (${error instanceof Error ? ((error.cause as Error | undefined)?.message ?? error.message) : String(error)}): ${fix}`)
  }
  if (!response.ok) throw new Error(`fetching the pool's keys from ${url} failed: HTTP ${response.status}; ${fix}`)
  try {
    return (await response.json()) as Jwks
  } catch {
    throw new Error(`fetching the pool's keys from ${url} gave no JSON; ${fix}`)
  }
}
