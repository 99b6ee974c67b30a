/** @jest-environment node */
/**
 * What the authorization server leaves out of the library's defaults, an authorization request
 * from a visitor not signed in, and a refused refresh: as a tool (or anyone) meets them, against
 * the real server (a harness process).
 */
import crypto from 'node:crypto'
import { authorize, pkce, READER_COOKIE, registeredClient, startHarness, token, LOOPBACK, type Harness } from './harness'
import { AUTHORIZATION_PATH } from '../../../lib/aiTools/oauthPaths'
import { signInUrl } from '../../../lib/pathFormats'

// Generous: the harness is a Node process that loads oidc-provider, slow on a busy machine.
jest.setTimeout(180_000)

let harness: Harness
beforeAll(async () => {
  harness = await startHarness()
})
afterAll(async () => {
  await harness?.stop()
})

async function signedIn(clientId: string) {
  const { callback, verifier } = await authorize(harness, clientId, { scope: 'docs:read offline_access', prompt: 'consent' })
  return { code: callback.get('code')!, verifier }
}

/** A DPoP proof (RFC 9449) for a POST to `url`, with a new key. */
function dpopProof(url: string): string {
  const { privateKey, publicKey } = crypto.generateKeyPairSync('ec', { namedCurve: 'P-256' })
  const part = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url')
  const jwk = publicKey.export({ format: 'jwk' })
  const input = `${part({ typ: 'dpop+jwt', alg: 'ES256', jwk: { kty: jwk.kty, crv: jwk.crv, x: jwk.x, y: jwk.y } })}.${part({ jti: crypto.randomUUID(), htm: 'POST', htu: url, iat: Math.floor(Date.now() / 1000) })}`
  return `${input}.${crypto.sign('sha256', Buffer.from(input), { key: privateKey, dsaEncoding: 'ieee-p1363' }).toString('base64url')}`
}

test('discovery offers neither DPoP, logout, pushed requests nor userinfo, and their endpoints answer nothing', async () => {
  for (const field of ['dpop_signing_alg_values_supported', 'end_session_endpoint', 'pushed_authorization_request_endpoint', 'userinfo_endpoint']) expect(harness.metadata).not.toHaveProperty(field)
  const issuer = String(harness.metadata.issuer)
  for (const endpoint of ['/session/end', '/request', '/me']) expect((await fetch(`${issuer}${endpoint}`, { method: 'POST' })).status).toBe(404)
})

test('a token asked for with a DPoP proof is a plain Bearer token, bound to no key', async () => {
  const clientId = await registeredClient(harness)
  const { code, verifier } = await signedIn(clientId)
  const response = await fetch(harness.metadata.token_endpoint, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', dpop: dpopProof(harness.metadata.token_endpoint) },
    body: new URLSearchParams({ grant_type: 'authorization_code', code, code_verifier: verifier, redirect_uri: LOOPBACK, client_id: clientId }),
  })
  const body = (await response.json()) as Record<string, string>
  expect(response.status).toBe(200)
  expect(body.token_type).toBe('Bearer')
})

test('a refresh refused for another resource leaves the refresh token usable: the retry gets tokens, and the grant stands', async () => {
  const clientId = await registeredClient(harness)
  const { code, verifier } = await signedIn(clientId)
  const exchanged = await token(harness, { grant_type: 'authorization_code', code, code_verifier: verifier, redirect_uri: LOOPBACK, client_id: clientId })
  expect(exchanged.status).toBe(200)
  const refused = await token(harness, { grant_type: 'refresh_token', refresh_token: exchanged.body.refresh_token, client_id: clientId, resource: `${new URL('/mcp', harness.url).href}/` })
  expect(refused).toMatchObject({ status: 400, body: { error: 'invalid_target' } })
  const retried = await token(harness, { grant_type: 'refresh_token', refresh_token: exchanged.body.refresh_token, client_id: clientId })
  expect(retried.status).toBe(200)
  expect((await token(harness, { grant_type: 'refresh_token', refresh_token: retried.body.refresh_token, client_id: clientId, resource: new URL('/mcp', harness.url).href })).status).toBe(200)
})

test('an authorization request from a visitor not signed in to the site goes to the sign-in page and back, and the library keeps nothing of it', async () => {
  const clientId = await registeredClient(harness)
  const url = new URL(harness.metadata.authorization_endpoint)
  expect(url.pathname).toBe(AUTHORIZATION_PATH)
  const params = { response_type: 'code', client_id: clientId, redirect_uri: LOOPBACK, code_challenge: pkce().challenge, code_challenge_method: 'S256', scope: 'docs:read' }
  for (const [name, value] of Object.entries(params)) url.searchParams.set(name, value)
  // Every spelling the library's router takes for its endpoint (it folds case and takes a trailing slash).
  for (const spelt of [url.pathname, url.pathname.replace('/auth', '/AUTH'), `${url.pathname}/`]) {
    const anonymous = await fetch(`${harness.url}${spelt}${url.search}`, { redirect: 'manual' })
    expect([anonymous.status, anonymous.headers.get('location'), anonymous.headers.getSetCookie()]).toEqual([303, signInUrl(`${spelt}${url.search}`), []])
  }
  expect((await fetch(url, { method: 'POST', redirect: 'manual' })).status).toBe(401)
  const signedIn = await fetch(url, { redirect: 'manual', headers: { cookie: `${READER_COOKIE}=leads1` } })
  expect(signedIn.status).toBe(303)
  expect(signedIn.headers.get('location')).toMatch(/\/oauth\/interaction\//)
})
