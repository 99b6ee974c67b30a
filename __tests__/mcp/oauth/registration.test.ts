/** @jest-environment node */
/**
 * Registration is bounded: what a tool may register (public clients with the authorization code,
 * within sizes), what discovery says of it, how long a registration no reader allowed lives, and
 * how often one address may register. Against the real authorization server (a harness process).
 */
import { CLIENT_METADATA_LIMITS as LIMITS, REGISTRATION_RATE, UNGRANTED_CLIENT_SECONDS } from '../../../lib/aiTools/registrationLimits'
import http from 'node:http'
import { AUTHORIZATION_SERVER_METADATA_PATH } from '../../../lib/aiTools/oauthPaths'
import { authorize, READER_COOKIE, register, registeredClient, startHarness, toolMetadata, type Harness } from './harness'

// Generous: each harness is a Node process that loads oidc-provider, slow on a busy machine.
jest.setTimeout(180_000)

const DOCUMENT = 'https://tool.example/oauth/client.json'
const OVERSIZED_DOCUMENT = 'https://tool.example/oauth/oversized.json'
const documentOf = (clientId: string, extra: Record<string, unknown> = {}) => ({ client_id: clientId, ...toolMetadata(), client_name: 'Metadata document tool', ...extra })

let harness: Harness
beforeAll(async () => {
  harness = await startHarness({ documents: { [DOCUMENT]: documentOf(DOCUMENT), [OVERSIZED_DOCUMENT]: documentOf(OVERSIZED_DOCUMENT, { client_name: 'a'.repeat(LIMITS.clientNameChars + 1) }) } })
})
afterAll(async () => {
  await harness?.stop()
})

test('discovery advertises only what is accepted: the code response type, public clients, PKCE S256', () => {
  expect(harness.metadata.response_types_supported).toEqual(['code'])
  expect(harness.metadata.token_endpoint_auth_methods_supported).toEqual(['none'])
  expect(harness.metadata.grant_types_supported).toEqual(['authorization_code', 'refresh_token'])
  expect(harness.metadata.code_challenge_methods_supported).toEqual(['S256'])
})

/** A GET with the Host header a client chooses (fetch sends the URL's own), its status, cache header and JSON body. */
function getWithHost(url: string, host: string): Promise<{ status: number; cacheControl: string | undefined; body: Record<string, unknown> }> {
  return new Promise((resolve, reject) => {
    http.get(url, { headers: { host }, agent: false }, (response) => {
      let text = ''
      response.on('data', (chunk) => (text += chunk))
      response.on('end', () => resolve({ status: response.statusCode ?? 0, cacheControl: response.headers['cache-control'], body: text.startsWith('{') ? JSON.parse(text) : {} }))
    }).on('error', reject)
  })
}

test("discovery names the site's own URLs whatever Host a client sends, and no answer of the sign-in service may be kept by a cache", async () => {
  const { status, cacheControl, body } = await getWithHost(harness.url + AUTHORIZATION_SERVER_METADATA_PATH, 'evil.example')
  expect([status, cacheControl]).toEqual([200, 'no-store'])
  for (const endpoint of ['issuer', 'authorization_endpoint', 'token_endpoint', 'registration_endpoint', 'jwks_uri', 'revocation_endpoint']) {
    expect([endpoint, String(body[endpoint]).startsWith(`${harness.url}/`)]).toEqual([endpoint, true])
  }
  // The library's own answers: its keys, and its 404s.
  for (const at of [String(body.jwks_uri), `${harness.url}/oauth/nonexistent`, `${harness.url}/oauth/reg`]) {
    const answer = await fetch(at)
    expect([at, answer.headers.get('cache-control')]).toEqual([at, 'no-store'])
  }
})

test('a tool registers as the MCP SDK, Claude Code and VS Code do', async () => {
  const { status, body } = await register(harness, toolMetadata({ client_uri: 'https://code.visualstudio.com/', logo_uri: 'https://tool.example/logo.png' }))
  expect(status).toBe(201)
  expect(body).toMatchObject({ token_endpoint_auth_method: 'none', grant_types: ['authorization_code', 'refresh_token'], response_types: ['code'] })
  expect(body.client_secret).toBeUndefined()
})

test.each([
  ['the implicit grant', { grant_types: ['implicit'], response_types: ['code'] }, /grant_types can only contain 'authorization_code' or 'refresh_token'/],
  ['client credentials', { grant_types: ['client_credentials'] }, /grant_types can only contain/],
  ['an id_token response', { response_types: ['code id_token'] }, /response_types can only contain 'code'/],
  ['a token response', { response_types: ['token'] }, /response_types can only contain 'code'/],
  ['client_secret_basic', { token_endpoint_auth_method: 'client_secret_basic' }, /token_endpoint_auth_method must be 'none'/],
  ['client_secret_post', { token_endpoint_auth_method: 'client_secret_post' }, /token_endpoint_auth_method must be 'none'/],
  ['private_key_jwt', { token_endpoint_auth_method: 'private_key_jwt', jwks_uri: 'https://tool.example/jwks.json' }, /token_endpoint_auth_method must be 'none'/],
  ['private_key_jwt without keys', { token_endpoint_auth_method: 'private_key_jwt' }, /token_endpoint_auth_method must be 'none'/],
])('a registration asking for %s is refused, naming it', async (_what, extra, message) => {
  const { status, body } = await register(harness, toolMetadata(extra))
  expect([status, body.error]).toEqual([400, 'invalid_client_metadata'])
  expect(body.error_description).toMatch(message)
  expect(body.client_id).toBeUndefined()
})

const long = (n: number) => 'a'.repeat(n)
const uriOf = (n: number, base = 'https://tool.example/') => base + long(n - base.length)
const loopbackOf = (n: number) => uriOf(n, 'http://127.0.0.1:33418/')

test.each([
  ['client_name', { client_name: long(LIMITS.clientNameChars + 1) }, `client_name must be at most ${LIMITS.clientNameChars} characters`],
  ['redirect_uris (count)', { redirect_uris: Array.from({ length: LIMITS.redirectUris + 1 }, (_, i) => `http://127.0.0.1:${4000 + i}/cb`) }, `redirect_uris must have at most ${LIMITS.redirectUris} entries (it has ${LIMITS.redirectUris + 1})`],
  ['redirect_uris (length)', { redirect_uris: [loopbackOf(LIMITS.uriChars + 1)] }, `redirect_uris entries must each be at most ${LIMITS.uriChars} characters`],
  ['client_uri (length)', { client_uri: uriOf(LIMITS.uriChars + 1) }, `client_uri must be at most ${LIMITS.uriChars} characters`],
  ['logo_uri (length)', { logo_uri: uriOf(LIMITS.uriChars + 1) }, `logo_uri must be at most ${LIMITS.uriChars} characters`],
  ['policy_uri (http)', { policy_uri: 'http://tool.example/policy' }, 'policy_uri must be an https URI, or http on a loopback address'],
  ['tos_uri (not a URI)', { tos_uri: 'terms' }, 'tos_uri must be an https URI, or http on a loopback address'],
  ['jwks_uri (javascript:)', { jwks_uri: 'javascript:alert(1)' }, 'jwks_uri must be an https URI, or http on a loopback address'],
  ['contacts (count)', { contacts: Array.from({ length: LIMITS.contacts + 1 }, (_, i) => `a${i}@tool.example`) }, `contacts must have at most ${LIMITS.contacts} entries`],
  ['scope (length)', { scope: Array(30).fill('docs:read').join(' ') }, `scope must be at most ${LIMITS.textChars} characters`],
  ['sector_identifier_uri', { sector_identifier_uri: 'https://tool.example/sector.json' }, 'sector_identifier_uri is not accepted'],
  ['redirect_uris (a string, not a list)', { redirect_uris: 'http://127.0.0.1:5555/cb' }, 'redirect_uris must be an array of URI strings'],
  ['redirect_uris (an object)', { redirect_uris: { length: 1 } }, 'redirect_uris must be an array of URI strings'],
  ['redirect_uris (a number in the list)', { redirect_uris: [7] }, 'redirect_uris must be an array of URI strings'],
])('a registration past the limit of %s is refused with invalid_client_metadata naming the field and the limit', async (_field, extra, description) => {
  const { status, body } = await register(harness, toolMetadata(extra))
  // RFC 7591's error for a redirect URI problem is invalid_redirect_uri (the library picks it from the field).
  expect([status, body.error]).toEqual([400, 'redirect_uris' in extra ? 'invalid_redirect_uri' : 'invalid_client_metadata'])
  expect(body.error_description).toContain(description)
})

test.each(['http://127.0.0.1@evil.example/cb', 'https://CLAUDE.ai/api/mcp/auth_callback', 'http://0.0.0.0/cb'])('a registration with the redirect URI %s is refused with invalid_redirect_uri, naming the URI and why', async (uri) => {
  const { status, body } = await register(harness, toolMetadata({ redirect_uris: [uri] }))
  expect([status, body.error]).toEqual([400, 'invalid_redirect_uri'])
  expect(body.error_description).toBe(`redirect_uris: redirect URI ${uri} is neither a loopback address nor a hosted app the site's admin allows`)
})

test('a registration at each limit is accepted', async () => {
  const { status, body } = await register(
    harness,
    toolMetadata({
      client_name: long(LIMITS.clientNameChars),
      redirect_uris: [loopbackOf(LIMITS.uriChars), ...Array.from({ length: LIMITS.redirectUris - 1 }, (_, i) => `http://127.0.0.1:${4000 + i}/cb`)],
      client_uri: uriOf(LIMITS.uriChars),
      policy_uri: 'http://localhost:8080/policy',
    })
  )
  expect([status, body.error_description]).toEqual([201, undefined])
})

test(`a registration no reader allowed is gone after ${UNGRANTED_CLIENT_SECONDS / 3600} hours, with its registration access token; one the reader allowed stays`, async () => {
  const ungranted = await register(harness, toolMetadata())
  const granted = await registeredClient(harness)
  expect((await authorize(harness, granted, { scope: 'docs:read offline_access' })).callback.get('code')).toEqual(expect.any(String))
  const readBack = () => fetch(ungranted.body.registration_client_uri, { headers: { authorization: `Bearer ${ungranted.body.registration_access_token}` } })
  expect((await readBack()).status).toBe(200)

  await harness.advance(UNGRANTED_CLIENT_SECONDS - 60)
  expect((await authorize(harness, ungranted.body.client_id, { scope: 'docs:read' }, { decision: 'none' })).consentShown).toBe(true)
  await harness.advance(61)
  // The tool's sign-in now gets the library's error page (an unknown client), never a redirect.
  const url = new URL(harness.metadata.authorization_endpoint)
  for (const [name, value] of Object.entries({ response_type: 'code', client_id: ungranted.body.client_id, redirect_uri: toolMetadata().redirect_uris[0], code_challenge: 'x'.repeat(43), code_challenge_method: 'S256' })) url.searchParams.set(name, value)
  const gone = await fetch(url, { redirect: 'manual', headers: { cookie: `${READER_COOKIE}=leads1` } })
  expect([gone.status, gone.headers.get('location')]).toEqual([400, null])
  expect(await gone.text()).toContain('client is invalid')
  expect((await readBack()).status).toBe(401)
  // The allowed one lives as long as its grant.
  expect((await authorize(harness, granted, { scope: 'docs:read' }, { decision: 'none' })).consentShown).toBe(true)
})

test('a Client ID Metadata Document tool signs in, and again a day later (its document is fetched, never stored); one past a limit is refused with an error page', async () => {
  expect((await authorize(harness, DOCUMENT, { scope: 'docs:read offline_access' })).callback.get('code')).toEqual(expect.any(String))
  await harness.advance(UNGRANTED_CLIENT_SECONDS + 3600)
  expect((await authorize(harness, DOCUMENT, { scope: 'docs:read' }, { decision: 'none' })).consentShown).toBe(true)
  const url = new URL(harness.metadata.authorization_endpoint)
  for (const [name, value] of Object.entries({ response_type: 'code', client_id: OVERSIZED_DOCUMENT, redirect_uri: toolMetadata().redirect_uris[0], code_challenge: 'x'.repeat(43), code_challenge_method: 'S256' })) url.searchParams.set(name, value)
  const refused = await fetch(url, { redirect: 'manual', headers: { cookie: `${READER_COOKIE}=leads1` } })
  expect([refused.status, refused.headers.get('location')]).toEqual([400, null])
  expect(await refused.text()).toContain(`client_name must be at most ${LIMITS.clientNameChars} characters`)
})

describe(`at most ${REGISTRATION_RATE.limit} registrations in ${REGISTRATION_RATE.windowSeconds} s from one address`, () => {
  let limited: Harness
  beforeAll(async () => {
    limited = await startHarness({ registrationRate: REGISTRATION_RATE })
  })
  afterAll(async () => {
    await limited?.stop()
  })

  test('past the limit: 429, an OAuth error body and Retry-After', async () => {
    for (let i = 0; i < REGISTRATION_RATE.limit; i++) expect((await register(limited, toolMetadata())).status).toBe(201)
    const refused = await register(limited, toolMetadata())
    expect(refused.status).toBe(429)
    expect(refused.body.error).toBe('too_many_requests')
    expect(refused.body.error_description).toContain(`at most ${REGISTRATION_RATE.limit} registrations in ${REGISTRATION_RATE.windowSeconds} seconds`)
    const retryAfter = Number(refused.headers.get('retry-after'))
    expect(retryAfter).toBeGreaterThan(0)
    expect(retryAfter).toBeLessThanOrEqual(REGISTRATION_RATE.windowSeconds)
    // The library's router takes these for the registration endpoint too; so does the limit.
    for (const variant of ['/oauth/reg/', '/oauth/REG', '/oauth/%72eg']) {
      const response = await fetch(limited.url + variant, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(toolMetadata()) })
      expect([variant, response.status]).toEqual([variant, 429])
    }
  })
})
