/** @jest-environment node */
/**
 * The authorization server's keys from the Secrets Manager secret (mcp/oauth/keysSecret.ts): the
 * same secret gives the same keys on every instance, the current ones sign and the previous ones
 * still verify, a malformed secret is refused by name, and the secret is read through the
 * Parameters and Secrets extension with the function's session token.
 */
import crypto from 'node:crypto'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { authorizationKeysFrom, keysFromSecret, OAuthKeysSecretError, parseKeysSecret, readSecretThroughExtension, signingKeyFrom } from '../../../mcp/oauth/keysSecret'

const CURRENT = 'Q7vXc2m9L0aZ4kPq8sT1wE6rY3uI5oPzA9bC7dF2gH4jK6lM8nB0vV1xZ3qW5eR7'
const PREVIOUS = 'p0O9i8U7y6T5r4E3w2Q1a2S3d4F5g6H7j8K9l0Z1x2C3v4B5n6M7q8W9e0R1t2Y3'

test('one secret, one set of keys: the same on every instance, and a different secret gives different ones', () => {
  expect(authorizationKeysFrom({ current: CURRENT })).toEqual(authorizationKeysFrom({ current: CURRENT }))
  const [mine, other] = [authorizationKeysFrom({ current: CURRENT }), authorizationKeysFrom({ current: PREVIOUS })]
  expect(mine.cookies[0]).not.toBe(other.cookies[0])
  expect((mine.jwks.keys[0] as { d: string }).d).not.toBe((other.jwks.keys[0] as { d: string }).d)
})

test('the signing key is a working P-256 key whose public half matches, named by its thumbprint', () => {
  const jwk = signingKeyFrom(CURRENT)
  expect(jwk).toMatchObject({ kty: 'EC', crv: 'P-256', alg: 'ES256', use: 'sig' })
  const privateKey = crypto.createPrivateKey({ key: jwk as crypto.JsonWebKey, format: 'jwk' })
  const publicKey = crypto.createPublicKey({ key: { kty: 'EC', crv: 'P-256', x: jwk.x, y: jwk.y }, format: 'jwk' })
  const signature = crypto.sign('sha256', Buffer.from('grant'), privateKey)
  expect(crypto.verify('sha256', Buffer.from('grant'), publicKey, signature)).toBe(true)
  expect(jwk.kid).toMatch(/^[A-Za-z0-9_-]{43}$/)
})

test('after a rotation the current keys come first (they sign) and the previous ones follow (they still verify)', () => {
  const rotated = authorizationKeysFrom({ current: PREVIOUS, previous: CURRENT })
  const before = authorizationKeysFrom({ current: CURRENT })
  expect(rotated.cookies).toEqual([authorizationKeysFrom({ current: PREVIOUS }).cookies[0], before.cookies[0]])
  expect(rotated.jwks.keys[1]).toEqual(before.jwks.keys[0])
  expect(new Set(rotated.jwks.keys.map((key) => (key as { kid: string }).kid)).size).toBe(2)
})

test.each([
  ['not JSON', 'current=abc', /not JSON/],
  ['no current', JSON.stringify({ previous: CURRENT }), /"current" must be a random string/],
  ['a short current', JSON.stringify({ current: 'short' }), /"current" must be a random string of at least 32/],
  ['a previous that is no string', JSON.stringify({ current: CURRENT, previous: 7 }), /"previous" must be/],
  ['previous equal to current', JSON.stringify({ current: CURRENT, previous: CURRENT }), /same as "current"/],
])('a secret with %s is refused by name', (_label, text, message) => {
  expect(() => parseKeysSecret(text)).toThrow(OAuthKeysSecretError)
  expect(() => parseKeysSecret(text)).toThrow(message)
})

test('the generated secret (only "current") and a rotated one (with "previous") both parse', () => {
  expect(parseKeysSecret(JSON.stringify({ current: CURRENT }))).toEqual({ current: CURRENT })
  expect(parseKeysSecret(JSON.stringify({ current: PREVIOUS, previous: CURRENT }))).toEqual({ current: PREVIOUS, previous: CURRENT })
})

describe('through the Parameters and Secrets extension', () => {
  let server: http.Server
  let port = 0
  const calls: Array<{ url?: string; token?: string | string[] }> = []
  beforeAll(async () => {
    server = http.createServer((request, response) => {
      calls.push({ url: request.url, token: request.headers['x-aws-parameters-secrets-token'] })
      if (request.headers['x-aws-parameters-secrets-token'] !== 'session-token') return void response.writeHead(401).end()
      response.writeHead(200, { 'content-type': 'application/json' })
      response.end(JSON.stringify({ ARN: 'arn:aws:secretsmanager:us-east-1:111111111111:secret:keys-AbCdEf', SecretString: JSON.stringify({ current: CURRENT }) }))
    })
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    port = (server.address() as AddressInfo).port
  })
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())))

  test('reads the secret by its ARN with the session token, and derives the keys', async () => {
    const arn = 'arn:aws:secretsmanager:us-east-1:111111111111:secret:keys-AbCdEf'
    const keys = await keysFromSecret(arn, { AWS_SESSION_TOKEN: 'session-token', PARAMETERS_SECRETS_EXTENSION_HTTP_PORT: String(port) })
    expect(keys).toEqual(authorizationKeysFrom({ current: CURRENT }))
    expect(calls.at(-1)).toEqual({ url: `/secretsmanager/get?secretId=${encodeURIComponent(arn)}`, token: 'session-token' })
  })

  test('a refusal by the extension, or no session token, is an error that says so', async () => {
    await expect(readSecretThroughExtension('keys', { port, sessionToken: 'wrong' })).rejects.toThrow(/answered 401 for keys/)
    await expect(keysFromSecret('keys', {})).rejects.toThrow(/AWS_SESSION_TOKEN is not set/)
  })
})
