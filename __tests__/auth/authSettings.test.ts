/** @jest-environment node */
import { LOCAL_COGNITO, isLoopbackUrl, issuerFor, readAuthSettings, sessionClientIds } from '../../lib/auth/authSettings'
import { jwksFor, localCognitoJwks } from '../../pipeline/steps/jwksFor'
import fs from 'node:fs'
import path from 'node:path'
import { tempSite } from '../fixtures/tempSite'

const prod = { DOCS_AUTH_MODE: 'production', DOCS_COGNITO_USER_POOL_ID: 'eu-west-2_AbC123xyz', DOCS_COGNITO_CLIENT_ID: '1h57kf5cpq17m0eml12example' }

test('local mode is the default and points at the embedded Cognito', () => {
  expect(readAuthSettings({})).toEqual({
    mode: 'local',
    region: 'eu-west-2',
    userPoolId: LOCAL_COGNITO.userPoolId,
    userPoolClientId: LOCAL_COGNITO.userPoolClientId,
    endpoint: 'http://127.0.0.1:9229',
  })
  expect(issuerFor(readAuthSettings({}))).toBe('https://cognito-idp.eu-west-2.amazonaws.com/eu-west-2_LocalDocs')
})

test('a production build with real ids has no custom endpoint', () => {
  expect(readAuthSettings(prod)).toEqual({ mode: 'production', region: 'eu-west-2', userPoolId: prod.DOCS_COGNITO_USER_POOL_ID, userPoolClientId: prod.DOCS_COGNITO_CLIENT_ID })
})

test.each([
  [{ DOCS_COGNITO_ENDPOINT: 'http://127.0.0.1:9229' }, /must use the AWS Cognito endpoint, but DOCS_COGNITO_ENDPOINT is "http:\/\/127.0.0.1:9229" \(the local emulator\)/],
  [{ DOCS_COGNITO_ENDPOINT: 'http://localhost:9229' }, /\(the local emulator\)/],
  [{ DOCS_COGNITO_USER_POOL_ID: 'eu-west-2_LocalDocs', DOCS_COGNITO_CLIENT_ID: 'localdocsweb000000000000000' }, /points at the local emulator's user pool/],
  [{ DOCS_COGNITO_USER_POOL_ID: '' }, /DOCS_COGNITO_USER_POOL_ID "" is not a user pool id in eu-west-2/],
  [{ DOCS_COGNITO_USER_POOL_ID: 'us-east-1_AbC123' }, /is not a user pool id in eu-west-2/],
  [{ DOCS_COGNITO_CLIENT_ID: 'short' }, /DOCS_COGNITO_CLIENT_ID "short" is not a Cognito app client id/],
  [{ DOCS_COGNITO_REGION: 'eu-west-2(' }, /DOCS_COGNITO_REGION "eu-west-2\(" is not an AWS region \(like eu-west-2\)/],
  [{ DOCS_COGNITO_REGION: 'eu.west.2', DOCS_COGNITO_USER_POOL_ID: 'eu-west-2_Abc' }, /DOCS_COGNITO_REGION "eu.west.2" is not an AWS region/],
])('a production build that is misconfigured fails with a clear message (%o)', (override, message) => {
  expect(() => readAuthSettings({ ...prod, ...override })).toThrow(message)
})

test('an unknown mode is refused', () => {
  expect(() => readAuthSettings({ DOCS_AUTH_MODE: 'staging' })).toThrow(/DOCS_AUTH_MODE is "staging"; use "local" or "production"/)
})

describe('the keys a production edge bundle trusts', () => {
  const write = (jwks: unknown) => {
    const file = path.join(tempSite('jwks-'), 'jwks.json')
    fs.writeFileSync(file, JSON.stringify(jwks))
    return file
  }
  const settings = readAuthSettings(prod)
  const realKey = { kty: 'RSA', kid: 'real-key', alg: 'RS256', use: 'sig', e: 'AQAB', n: 'abc' }

  test('are the pool\'s published keys', async () => {
    await expect(jwksFor(settings, { DOCS_COGNITO_JWKS_FILE: write({ keys: [realKey] }) })).resolves.toEqual({ keys: [realKey] })
  })
  test('never include cognito-local\'s public key', async () => {
    const file = write({ keys: [realKey, ...localCognitoJwks().keys] })
    await expect(jwksFor(settings, { DOCS_COGNITO_JWKS_FILE: file })).rejects.toThrow(/contains cognito-local's public key/)
  })
  test("never include cognito-local's public key under another key id, which a forged token could name", async () => {
    const [local] = localCognitoJwks().keys
    const file = write({ keys: [realKey, { ...local, kid: 'prodkey1' }] })
    await expect(jwksFor(settings, { DOCS_COGNITO_JWKS_FILE: file })).rejects.toThrow(`the production JWKS contains cognito-local's public key (kid "prodkey1"); refusing to trust it`)
    // The same modulus spelt with a leading zero byte: another text, the same key to a verifier.
    const padded = Buffer.concat([Buffer.from([0]), Buffer.from(local.n as string, 'base64url')]).toString('base64url')
    const respelt = write({ keys: [realKey, { ...local, kid: 'prodkey2', n: padded }] })
    await expect(jwksFor(settings, { DOCS_COGNITO_JWKS_FILE: respelt })).rejects.toThrow(`the production JWKS contains cognito-local's public key (kid "prodkey2")`)
    // Or in plain base64: not a JWK's spelling at all.
    const plain = write({ keys: [realKey, { ...local, n: Buffer.from(local.n as string, 'base64url').toString('base64') }] })
    await expect(jwksFor(settings, { DOCS_COGNITO_JWKS_FILE: plain })).rejects.toThrow(`the production JWKS's key 2 has "n" that is not base64url`)
  })
  test.each([
    [{ kid: 'x' }, 'has kty undefined, not "RSA"'],
    [{ ...realKey, n: undefined }, 'has no "n"'],
    [{ ...realKey, kid: '' }, 'has no "kid"'],
    [{ ...realKey, alg: 'HS256' }, 'has alg "HS256", not "RS256"'],
    [{ ...realKey, use: 'enc' }, 'has use "enc", not "sig"'],
    ['a key', 'is not an object'],
  ])('each key must be an RS256 signing key with its id and numbers: %j', async (key, problem) => {
    await expect(jwksFor(settings, { DOCS_COGNITO_JWKS_FILE: write({ keys: [realKey, key] }) })).rejects.toThrow(`the production JWKS's key 2 ${problem}`)
  })
  test('a file that is missing or not JSON is named with its variable', async () => {
    const missing = path.join(tempSite('jwks-'), 'nope.json')
    await expect(jwksFor(settings, { DOCS_COGNITO_JWKS_FILE: missing })).rejects.toThrow(`DOCS_COGNITO_JWKS_FILE names ${missing}, which cannot be read (ENOENT)`)
    const html = path.join(tempSite('jwks-'), 'jwks.json')
    fs.writeFileSync(html, '<html>not json')
    await expect(jwksFor(settings, { DOCS_COGNITO_JWKS_FILE: html })).rejects.toThrow(`DOCS_COGNITO_JWKS_FILE names ${html}, which is not JSON`)
    await expect(jwksFor(settings, { DOCS_COGNITO_JWKS_FILE: write({ nokeys: true }) })).rejects.toThrow('the production JWKS has no keys')
  })
  test('must not be empty', async () => {
    await expect(jwksFor(settings, { DOCS_COGNITO_JWKS_FILE: write({ keys: [] }) })).rejects.toThrow(/has no keys/)
  })
  test('fetched from the pool, a failure names the address and the way to build offline', async () => {
    // A pool the network cannot reach, as fetch fails on one.
    const unreachable = settings
    const fetchMock = jest.spyOn(global, 'fetch').mockRejectedValueOnce(Object.assign(new TypeError('fetch failed'), { cause: new Error('getaddrinfo ENOTFOUND cognito-idp.eu-west-2.amazonaws.com') }))
    try {
      await expect(jwksFor(unreachable, {})).rejects.toThrow(
        `fetching the pool's keys from https://cognito-idp.eu-west-2.amazonaws.com/${settings.userPoolId}/.well-known/jwks.json failed (getaddrinfo ENOTFOUND cognito-idp.eu-west-2.amazonaws.com): check DOCS_COGNITO_REGION and DOCS_COGNITO_USER_POOL_ID, or build offline with DOCS_COGNITO_JWKS_FILE (docs/deploy.md)`
      )
    } finally {
      fetchMock.mockRestore()
    }
  })
  test('local mode trusts cognito-local\'s key only', async () => {
    await expect(jwksFor(readAuthSettings({}))).resolves.toEqual(localCognitoJwks())
  })
})

test('a federated provider needs its name, the hosted domain and the federated client together, and the domain must be a host name', () => {
  const federated = {
    DOCS_FEDERATED_PROVIDER: 'CompanySSO',
    DOCS_COGNITO_DOMAIN: 'company-docs.auth.eu-west-2.amazoncognito.com',
    DOCS_FEDERATED_CLIENT_ID: 'federatedclient00000000000',
  }
  expect(readAuthSettings(federated).federation).toEqual({ provider: 'CompanySSO', domain: 'company-docs.auth.eu-west-2.amazoncognito.com', clientId: 'federatedclient00000000000' })
  expect(readAuthSettings({}).federation).toBeUndefined()
  expect(() => readAuthSettings({ DOCS_FEDERATED_PROVIDER: 'CompanySSO' })).toThrow('must be set together')
  expect(() => readAuthSettings({ ...federated, DOCS_FEDERATED_CLIENT_ID: '' })).toThrow('must be set together')
  expect(() => readAuthSettings({ ...federated, DOCS_FEDERATED_CLIENT_ID: 'not a client' })).toThrow('DOCS_FEDERATED_CLIENT_ID "not a client" is not a Cognito app client id')
  expect(() => readAuthSettings({ ...federated, DOCS_COGNITO_DOMAIN: 'https://x/y' })).toThrow('is not a host name')
})

test('the sessions the site accepts: the web client\'s, and with a provider the federated client\'s; a production build refuses one client for both', () => {
  const production = { DOCS_AUTH_MODE: 'production', DOCS_COGNITO_USER_POOL_ID: 'eu-west-2_AbC123xyz', DOCS_COGNITO_CLIENT_ID: 'webclient0000000000000000' }
  const federation = { DOCS_FEDERATED_PROVIDER: 'CompanySSO', DOCS_COGNITO_DOMAIN: 'company-docs.auth.eu-west-2.amazoncognito.com', DOCS_FEDERATED_CLIENT_ID: 'federatedclient00000000000' }
  expect(sessionClientIds(readAuthSettings(production))).toEqual(['webclient0000000000000000'])
  expect(sessionClientIds(readAuthSettings({ ...production, ...federation }))).toEqual(['webclient0000000000000000', 'federatedclient00000000000'])
  expect(() => readAuthSettings({ ...production, ...federation, DOCS_FEDERATED_CLIENT_ID: 'webclient0000000000000000' })).toThrow('not the web client')
})

test("a loopback address is this machine's by its host as a URL reads it: a name before `@` or a host that only starts like one is elsewhere", () => {
  for (const url of ['http://127.0.0.1:9229', 'localhost:9229', 'http://[::1]:3000', 'http://0.0.0.0:1', 'http://127.1:9229']) expect([url, isLoopbackUrl(url)]).toEqual([url, true])
  // *.localhost is this machine to a browser, but Node asks DNS for it: a deploy there could reach another machine.
  for (const url of ['http://s3.localhost:4566', 'http://localhost.:9229', 'http://localhost:x@s3.eu-west-2.amazonaws.com', 'http://127.0.0.1@evil.example', 'http://127.0.0.1.evil.example', 'http://localhost.evil.example', 'https://s3.eu-west-2.amazonaws.com', 'not a url']) {
    expect([url, isLoopbackUrl(url)]).toEqual([url, false])
  }
})
