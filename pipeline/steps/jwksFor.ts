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
 * never accepts cognito-local's key.
 */
export async function jwksFor(settings: AuthSettings, env: { DOCS_COGNITO_JWKS_FILE?: string } = process.env as { DOCS_COGNITO_JWKS_FILE?: string }): Promise<Jwks> {
  if (settings.mode === 'local') return localCognitoJwks()
  const jwks: Jwks = env.DOCS_COGNITO_JWKS_FILE
    ? JSON.parse(fs.readFileSync(env.DOCS_COGNITO_JWKS_FILE, 'utf8'))
    : await fetchJwks(`${issuerFor(settings)}/.well-known/jwks.json`)
  const localKid = localCognitoJwks().keys[0].kid
  if (!Array.isArray(jwks.keys) || jwks.keys.length === 0) throw new Error('the production JWKS has no keys')
  if (jwks.keys.some((key) => key.kid === localKid)) {
    throw new Error(`the production JWKS contains cognito-local's public key (kid "${localKid}"); refusing to trust it`)
  }
  return jwks
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
  return (await response.json()) as Jwks
}
