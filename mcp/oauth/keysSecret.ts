/**
 * The authorization server's keys on AWS, from one Secrets Manager secret that Secrets Manager
 * itself generated (infra/lib/mcp-origin.ts): no key is ever in the repository, the bundle or the
 * template, and every instance of the function derives the same keys.
 *
 * The secret is JSON: `{"current": "<random>", "previous"?: "<random>"}`. From each random string
 * (HKDF-SHA256, a label per use) come
 * - a cookie-signing key: the current one signs the interaction and session cookies, both verify
 *   them, so a rotation does not break a sign-in begun just before it;
 * - a P-256 signing key (ES256; the private scalar by FIPS 186-4 B.4.1, from 40 derived bytes): the
 *   current one signs, both are published. The server issues opaque access tokens and no ID
 *   tokens, so it signs nothing today; the key is there because the library needs one.
 *
 * The function reads the secret through the AWS Parameters and Secrets Lambda Extension (a layer
 * the stack adds), an HTTP call on localhost, so the bundle needs no Secrets Manager client.
 * docs/deploy.md says how to rotate.
 */
import crypto from 'node:crypto'

export interface AuthorizationKeys {
  jwks: { keys: object[] }
  cookies: string[]
}

/** What the secret holds. */
export interface KeysSecret {
  current: string
  previous?: string
}

export class OAuthKeysSecretError extends Error {
  constructor(problem: string) {
    super(`the AI tools' sign-in keys secret: ${problem}`)
    this.name = 'OAuthKeysSecretError'
  }
}

/** Shorter than this, a random string is not a key (the stack generates 64 characters). */
export const MIN_SECRET_CHARACTERS = 32

/** The secret's text, checked: a malformed secret stops the sign-in service with this message, never weaker keys. */
export function parseKeysSecret(text: string): KeysSecret {
  let parsed: unknown
  try {
    parsed = JSON.parse(text)
  } catch {
    throw new OAuthKeysSecretError('it is not JSON like {"current": "<random>"}')
  }
  const { current, previous } = (parsed ?? {}) as Record<string, unknown>
  for (const [name, value] of [['current', current], ['previous', previous]] as const) {
    if (value === undefined && name === 'previous') continue
    if (typeof value !== 'string' || value.length < MIN_SECRET_CHARACTERS) throw new OAuthKeysSecretError(`"${name}" must be a random string of at least ${MIN_SECRET_CHARACTERS} characters`)
  }
  if (previous === current) throw new OAuthKeysSecretError('"previous" is the same as "current"')
  return { current: current as string, ...(previous === undefined ? {} : { previous: previous as string }) }
}

const derive = (material: string, label: string, bytes: number) => Buffer.from(crypto.hkdfSync('sha256', Buffer.from(material, 'utf8'), Buffer.alloc(0), `docs-oauth/${label}`, bytes))

/** The order of P-256's base point. */
const P256_ORDER = BigInt('0xffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632551')

/** A P-256 private JWK from a random string: d = (c mod (n − 1)) + 1 over 320 derived bits (FIPS 186-4 B.4.1). */
export function signingKeyFrom(material: string): crypto.JsonWebKey & { kid: string; alg: string; use: string } {
  const c = BigInt(`0x${derive(material, 'signing-key/P-256', 40).toString('hex')}`)
  const d = Buffer.from(((c % (P256_ORDER - 1n)) + 1n).toString(16).padStart(64, '0'), 'hex')
  const ecdh = crypto.createECDH('prime256v1')
  ecdh.setPrivateKey(d)
  const point = ecdh.getPublicKey()
  const jwk = { kty: 'EC', crv: 'P-256', d: d.toString('base64url'), x: point.subarray(1, 33).toString('base64url'), y: point.subarray(33, 65).toString('base64url') }
  // The RFC 7638 thumbprint names the key, so the same secret gives the same kid everywhere.
  const kid = crypto.createHash('sha256').update(JSON.stringify({ crv: jwk.crv, kty: jwk.kty, x: jwk.x, y: jwk.y })).digest('base64url')
  return { ...jwk, kid, alg: 'ES256', use: 'sig' }
}

export const cookieKeyFrom = (material: string) => derive(material, 'cookie-key', 32).toString('base64url')

/** The server's keys: the current ones first (they sign), the previous ones after (they still verify). */
export function authorizationKeysFrom(secret: KeysSecret): AuthorizationKeys {
  const materials = [secret.current, ...(secret.previous ? [secret.previous] : [])]
  return { jwks: { keys: materials.map(signingKeyFrom) }, cookies: materials.map(cookieKeyFrom) }
}

/** Where the Parameters and Secrets extension listens unless its port is configured. */
export const EXTENSION_DEFAULT_PORT = 2773
export const EXTENSION_PORT_ENV = 'PARAMETERS_SECRETS_EXTENSION_HTTP_PORT'

export interface ExtensionOptions {
  port?: number
  /** The function's session token, which the extension requires of every call. */
  sessionToken: string
  fetch?: typeof fetch
}

/** The secret's current value, through the Parameters and Secrets Lambda Extension. */
export async function readSecretThroughExtension(secretId: string, options: ExtensionOptions): Promise<string> {
  const url = `http://localhost:${options.port ?? EXTENSION_DEFAULT_PORT}/secretsmanager/get?secretId=${encodeURIComponent(secretId)}`
  const response = await (options.fetch ?? fetch)(url, { headers: { 'X-Aws-Parameters-Secrets-Token': options.sessionToken } })
  if (!response.ok) throw new OAuthKeysSecretError(`the Parameters and Secrets extension answered ${response.status} for ${secretId}`)
  const { SecretString } = (await response.json()) as { SecretString?: unknown }
  if (typeof SecretString !== 'string') throw new OAuthKeysSecretError(`${secretId} has no secret string`)
  return SecretString
}

/** The keys from the secret named `secretId`, on the function (its session token and the extension's port from the environment). */
export async function keysFromSecret(secretId: string, env: Readonly<Record<string, string | undefined>> = process.env): Promise<AuthorizationKeys> {
  const sessionToken = env.AWS_SESSION_TOKEN
  if (!sessionToken) throw new OAuthKeysSecretError('AWS_SESSION_TOKEN is not set: the secret is read on Lambda, through the Parameters and Secrets extension')
  const port = env[EXTENSION_PORT_ENV] ? Number(env[EXTENSION_PORT_ENV]) : undefined
  return authorizationKeysFrom(parseKeysSecret(await readSecretThroughExtension(secretId, { sessionToken, port })))
}
