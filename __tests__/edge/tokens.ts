import crypto from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'

/** Test helpers: mint Cognito-shaped JWTs with keys we control, and with cognito-local's public-to-all key. */
export const POOL = 'eu-west-2_ProdPool1'
export const CLIENT = 'prodclient0000000000000000'
export const ISSUER = `https://cognito-idp.eu-west-2.amazonaws.com/${POOL}`

const b64url = (input: Buffer | string) => Buffer.from(input).toString('base64url')

export interface KeyPair {
  kid: string
  privateKey: crypto.KeyObject
  jwk: Record<string, string>
}

export function newKeyPair(kid: string): KeyPair {
  const { privateKey, publicKey } = crypto.generateKeyPairSync('rsa', { modulusLength: 2048 })
  const jwk = publicKey.export({ format: 'jwk' }) as Record<string, string>
  return { kid, privateKey, jwk: { ...jwk, kid, alg: 'RS256', use: 'sig' } }
}

export function cognitoLocalKeyPair(): KeyPair {
  const dir = path.join(path.dirname(require.resolve('cognito-local/package.json')), 'lib/keys')
  const { jwk } = JSON.parse(fs.readFileSync(path.join(dir, 'cognitoLocal.public.json'), 'utf8'))
  const privateJwk = JSON.parse(fs.readFileSync(path.join(dir, 'cognitoLocal.private.json'), 'utf8'))
  return { kid: jwk.kid, privateKey: crypto.createPrivateKey({ key: privateJwk.jwk ?? privateJwk, format: 'jwk' }), jwk }
}

export function idClaims(username: string, overrides: Record<string, unknown> = {}) {
  const now = Math.floor(Date.now() / 1000)
  return {
    sub: crypto.randomUUID(),
    'cognito:username': username,
    iss: ISSUER,
    aud: CLIENT,
    token_use: 'id',
    auth_time: now,
    iat: now,
    exp: now + 3600,
    ...overrides,
  }
}

export function signJwt(claims: object, key: KeyPair, header: Record<string, unknown> = {}): string {
  const head = b64url(JSON.stringify({ alg: 'RS256', kid: key.kid, typ: 'JWT', ...header }))
  const body = b64url(JSON.stringify(claims))
  const signature = crypto.sign('RSA-SHA256', Buffer.from(`${head}.${body}`), key.privateKey)
  return `${head}.${body}.${b64url(signature)}`
}

export function unsignedJwt(claims: object, kid: string): string {
  return `${b64url(JSON.stringify({ alg: 'none', kid, typ: 'JWT' }))}.${b64url(JSON.stringify(claims))}.`
}

export function cookiesFor(username: string, idToken: string, clientId = CLIENT): string {
  const prefix = `CognitoIdentityServiceProvider.${clientId}`
  return `${prefix}.LastAuthUser=${encodeURIComponent(username)}; ${prefix}.${encodeURIComponent(username)}.idToken=${idToken}`
}
