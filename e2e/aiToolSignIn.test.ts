/**
 * An AI tool signs in as its reader through the site's own sign-in and consent page, in Chromium,
 * with no pasted token: discovery from /mcp's 401, registration, authorization code with PKCE to a
 * loopback port, then tools that answer only that reader's pages. And every refusal.
 */
import { inSection } from '../lib/access/sectionPaths'
import { spawn, type ChildProcess } from 'node:child_process'
import crypto from 'node:crypto'
import path from 'node:path'
import type { Page } from 'playwright-core'
import { AUTHORIZATION_SERVER_METADATA_PATH, CONNECTIONS_PATH, CONSENT_HEADER, DOCS_SCOPE, INTERACTION_PATH } from '../lib/aiTools/oauthPaths'
import { RESOURCE_METADATA_PATH } from '../mcp/mcpHandler'
import { amplifyCookieHeader, setUserEnabled, signInIdToken } from '../scripts/audit/cognitoSession'
import { SEEDED_USERS, seededGroupsOf } from '../scripts/cognito/seed'
import { freshPagePerTest, signInThroughForm } from './browser'
import { inBrowser, loopbackReceiver, signToolIn, withCookies, type SignedInTool } from './oauthTool'
import { PASSWORD, siteEnv } from './siteEnv'

const { decide, access, pages } = siteEnv()
const currentPage = freshPagePerTest()
let page: Page
beforeEach(() => {
  page = currentPage()
})

const opens = (username: string) => {
  const user = { username, groups: seededGroupsOf(username) }
  return access.sections.filter((section) => pages.some((p) => inSection(p.route, section.id) && decide(p.route, user) === 'allow')).map((section) => section.id)
}

test.each([...SEEDED_USERS])(
  'a tool signs in as %s through /login and the consent page, and reads exactly their docs',
  async (username) => {
    const tool = await signToolIn(inBrowser(page, username))
    try {
      const who = (await tool.call('whoami')).structured as { username: string; sections: Array<{ id: string }> }
      expect(who.username).toBe(username)
      expect(who.sections.map((section) => section.id)).toEqual(opens(username))
      const found = (await tool.call('search_docs', { query: 'the', limit: 25 })).structured as { results: Array<{ route: string }> }
      for (const result of found.results) expect([result.route, decide(result.route.split('#')[0], { username, groups: seededGroupsOf(username) })]).toEqual([result.route, 'allow'])
    } finally {
      await tool.close()
    }
  }
)

test('the same flow without a browser gives the same reader (the leak audit signs tools in so)', async () => {
  const tool = await signToolIn(withCookies('support1'))
  expect(((await tool.call('whoami')).structured as { username: string }).username).toBe('support1')
  await tool.close()
})

// ---------------------------------------------------------------------------------------------
// Refusals, through the authorization server's own endpoints, as a tool (or an attacker) calls them.

const { siteUrl, cognitoUrl, dir } = siteEnv()

interface ServerMetadata {
  issuer: string
  authorization_endpoint: string
  token_endpoint: string
  registration_endpoint: string
  code_challenge_methods_supported: string[]
}
const metadataOf = async (site = siteUrl) => (await (await fetch(site + AUTHORIZATION_SERVER_METADATA_PATH)).json()) as ServerMetadata

const pkce = () => {
  const verifier = crypto.randomBytes(32).toString('base64url')
  return { verifier, challenge: crypto.createHash('sha256').update(verifier).digest('base64url') }
}

async function register(redirectUris: string[], site = siteUrl): Promise<Response> {
  const { registration_endpoint } = await metadataOf(site)
  return fetch(registration_endpoint, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ client_name: 'Refusal test tool', redirect_uris: redirectUris, token_endpoint_auth_method: 'none', grant_types: ['authorization_code', 'refresh_token'], response_types: ['code'] }),
  })
}

async function newClient(site = siteUrl) {
  const loopback = await loopbackReceiver()
  const registered = await register([loopback.redirectUri], site)
  expect(registered.status).toBe(201)
  const { client_id } = (await registered.json()) as { client_id: string }
  return { clientId: client_id, loopback }
}

function authorizationUrl(metadata: ServerMetadata, params: Record<string, string | undefined>): URL {
  const url = new URL(metadata.authorization_endpoint)
  url.searchParams.set('response_type', 'code')
  url.searchParams.set('scope', `${DOCS_SCOPE} offline_access`)
  url.searchParams.set('resource', `${siteUrl}/mcp`)
  for (const [name, value] of Object.entries(params)) {
    if (value === undefined) url.searchParams.delete(name)
    else url.searchParams.set(name, value)
  }
  return url
}

/** A reader's site sign-in, as their browser sends it: an authorization request needs one (a visitor without is sent to sign in). */
const siteCookie = async (username: string) => amplifyCookieHeader(username, await signInIdToken(cognitoUrl, username, PASSWORD))
/** An authorization request from a signed-in reader's browser, its redirects not followed. */
const authorizationFrom = async (url: URL, username = 'leads1') => fetch(url, { redirect: 'manual', headers: { cookie: await siteCookie(username) } })

const exchange = async (metadata: ServerMetadata, body: Record<string, string>) =>
  fetch(metadata.token_endpoint, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(body) })

/** A code for `username`, issued to a new client (and its verifier and redirect). */
async function codeFor(username: string) {
  const metadata = await metadataOf()
  const { clientId, loopback } = await newClient()
  const { verifier, challenge } = pkce()
  try {
    await withCookies(username)(authorizationUrl(metadata, { client_id: clientId, redirect_uri: loopback.redirectUri, code_challenge: challenge, code_challenge_method: 'S256' }))
    const code = (await loopback.received).get('code')
    if (!code) throw new Error('no code was issued')
    return { metadata, clientId, redirectUri: loopback.redirectUri, verifier, code }
  } finally {
    loopback.close()
  }
}

/** Disconnects every tool of the reader, through the connections API the connected-tools page calls. */
async function revokeAll(username: string) {
  const cookie = amplifyCookieHeader(username, await signInIdToken(cognitoUrl, username, PASSWORD))
  const response = await fetch(`${siteUrl}${CONNECTIONS_PATH}`, { method: 'POST', headers: { cookie, 'content-type': 'application/json', [CONSENT_HEADER]: '1' }, body: '{}' })
  expect(response.status).toBe(200)
}

const refresh = async (tool: SignedInTool, site = siteUrl) =>
  exchange(await metadataOf(site), { grant_type: 'refresh_token', refresh_token: (await tool.auth.tokens())?.refresh_token as string, client_id: (await tool.auth.clientInformation())?.client_id as string })

const mcpWith = (token: string, site = siteUrl) =>
  fetch(`${site}/mcp`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'test', version: '1' } } }),
  })

test('discovery: /mcp names the site\'s own authorization server, which offers PKCE S256 alone', async () => {
  const resource = await (await fetch(`${siteUrl}${RESOURCE_METADATA_PATH}`)).json()
  const metadata = await metadataOf()
  expect(resource.authorization_servers).toEqual([metadata.issuer])
  expect(metadata.issuer).toBe(`${siteUrl}/oauth`)
  expect(metadata.code_challenge_methods_supported).toEqual(['S256'])
})

test.each([
  ['no PKCE challenge', { code_challenge: undefined, code_challenge_method: undefined }],
  ['a plain PKCE challenge', { code_challenge: 'plain-challenge-of-at-least-forty-three-characters-long', code_challenge_method: 'plain' }],
])('an authorization request with %s gets an error page and no redirect', async (_what, params) => {
  const metadata = await metadataOf()
  const { clientId, loopback } = await newClient()
  loopback.close()
  const valid: Record<string, string | undefined> = { client_id: clientId, redirect_uri: loopback.redirectUri, code_challenge: 'x'.repeat(43), code_challenge_method: 'S256' }
  const response = await authorizationFrom(authorizationUrl(metadata, { ...valid, ...params }))
  // The library answers a client with a valid redirect by redirecting the error to it; the error names PKCE.
  const location = response.headers.get('location')
  if (location) {
    expect(new URL(location).origin).toBe(new URL(loopback.redirectUri).origin)
    expect(new URL(location).searchParams.get('error')).toBe('invalid_request')
    expect(new URL(location).searchParams.get('code')).toBeNull()
  } else {
    expect(response.status).toBe(400)
  }
})

test('a redirect URI that is neither a loopback address nor an allowed hosted app is refused when the tool registers', async () => {
  const refused = await register(['https://evil.example/callback'])
  expect(refused.status).toBe(400)
  expect(await refused.json()).toMatchObject({ error: 'invalid_redirect_uri' })
  expect((await register(['https://claude.ai/api/mcp/auth_callback'])).status).toBe(201)
  expect((await register(['http://127.0.0.1:51234/callback'])).status).toBe(201)
})

test('an authorization request to a redirect URI the tool did not register gets an error page, never a redirect', async () => {
  const metadata = await metadataOf()
  const { clientId, loopback } = await newClient()
  loopback.close()
  const { challenge } = pkce()
  // A visitor not signed in to the site is sent to sign in first, whatever the request: nothing of it is kept.
  const anonymous = await fetch(authorizationUrl(metadata, { client_id: clientId, redirect_uri: 'https://evil.example/callback', code_challenge: challenge, code_challenge_method: 'S256' }), { redirect: 'manual' })
  expect([anonymous.status, anonymous.headers.get('location')?.startsWith('/login?next=%2Foauth%2Fauth%3F'), anonymous.headers.getSetCookie()]).toEqual([303, true, []])
  for (const redirect of ['https://evil.example/callback', loopback.redirectUri.replace('/callback', '/elsewhere')]) {
    const response = await authorizationFrom(authorizationUrl(metadata, { client_id: clientId, redirect_uri: redirect, code_challenge: challenge, code_challenge_method: 'S256' }))
    expect([redirect, response.status, response.headers.get('location')]).toEqual([redirect, 400, null])
    expect(await response.text()).toContain('This AI tool cannot sign in')
  }
})

test('a code is exchanged once, only by the client it was issued to, and only for /mcp', async () => {
  const { metadata, clientId, redirectUri, verifier, code } = await codeFor('leads1')
  const other = await newClient()
  other.loopback.close()
  const stolen = await exchange(metadata, { grant_type: 'authorization_code', code, redirect_uri: redirectUri, code_verifier: verifier, client_id: other.clientId })
  expect([stolen.status, ((await stolen.json()) as { error: string }).error]).toEqual([400, 'invalid_grant'])
  const { code: second, verifier: secondVerifier, clientId: secondClient, redirectUri: secondRedirect } = await codeFor('leads1')
  const elsewhere = await exchange(metadata, { grant_type: 'authorization_code', code: second, redirect_uri: secondRedirect, code_verifier: secondVerifier, client_id: secondClient, resource: 'https://evil.example/api' })
  expect([elsewhere.status, ((await elsewhere.json()) as { error: string }).error]).toEqual([400, 'invalid_target'])
  const wrongVerifier = await exchange(metadata, { grant_type: 'authorization_code', code, redirect_uri: redirectUri, code_verifier: pkce().verifier, client_id: clientId })
  expect(wrongVerifier.status).toBe(400)
})

test('a code is good once: used again, it is refused', async () => {
  const { metadata, clientId, redirectUri, verifier, code } = await codeFor('leads1')
  const body = { grant_type: 'authorization_code', code, redirect_uri: redirectUri, code_verifier: verifier, client_id: clientId }
  const first = await exchange(metadata, body)
  expect(first.status).toBe(200)
  const { access_token } = (await first.json()) as { access_token: string }
  expect((await mcpWith(access_token)).status).toBe(200)
  const again = await exchange(metadata, body)
  expect([again.status, ((await again.json()) as { error: string }).error]).toEqual([400, 'invalid_grant'])
})

test('a token asked for another resource is refused at authorization', async () => {
  const metadata = await metadataOf()
  const { clientId, loopback } = await newClient()
  const { challenge } = pkce()
  try {
    const response = await authorizationFrom(authorizationUrl(metadata, { client_id: clientId, redirect_uri: loopback.redirectUri, code_challenge: challenge, code_challenge_method: 'S256', resource: 'https://evil.example/api' }))
    const location = new URL(response.headers.get('location') as string)
    expect([location.searchParams.get('error'), location.searchParams.get('code')]).toEqual(['invalid_target', null])
  } finally {
    loopback.close()
  }
})

test('Deny on the consent page sends the tool an error and no code', async () => {
  const tool = await signToolIn(inBrowser(page, 'leads1', 'Deny'))
  expect([tool.callback.get('error'), tool.callback.get('code')]).toEqual(['access_denied', null])
})

describe('a forged consent decision', () => {
  /** A sign-in started by a tool, up to its interaction, with the browser cookies it set. */
  async function startedInteraction() {
    const metadata = await metadataOf()
    const { clientId, loopback } = await newClient()
    loopback.close()
    const { challenge } = pkce()
    let next = authorizationUrl(metadata, { client_id: clientId, redirect_uri: loopback.redirectUri, code_challenge: challenge, code_challenge_method: 'S256' }).href
    const jar: string[] = []
    // Started in a signed-in browser (the server sends a visitor without a sign-in to sign in first); the decision is forged without it.
    const starter = await siteCookie('leads1')
    while (!next.includes(INTERACTION_PATH)) {
      const response = await fetch(next, { redirect: 'manual', headers: { cookie: [starter, ...jar].join('; ') } })
      jar.push(...response.headers.getSetCookie().map((cookie) => cookie.split(';', 1)[0]))
      next = new URL(response.headers.get('location') as string, next).href
    }
    return { decisionUrl: `${next}/decision`, interactionCookies: jar.join('; ') }
  }
  const post = (url: string, cookie: string, headers: Record<string, string> = { [CONSENT_HEADER]: '1' }) =>
    fetch(url, { method: 'POST', headers: { cookie, 'content-type': 'application/json', ...headers }, body: JSON.stringify({ decision: 'allow' }) })

  test('without the reader\'s sign-in is refused (401)', async () => {
    const { decisionUrl, interactionCookies } = await startedInteraction()
    expect((await post(decisionUrl, interactionCookies)).status).toBe(401)
  })

  test('with another reader\'s sign-in, from a browser that did not start the request, is refused', async () => {
    const { decisionUrl } = await startedInteraction()
    const response = await post(decisionUrl, await siteCookie('internal1'))
    expect(response.status).toBe(400)
    expect(await response.text()).toContain('another browser')
  })

  test('without the consent page\'s header (a cross-site form) is refused', async () => {
    const { decisionUrl, interactionCookies } = await startedInteraction()
    expect((await post(decisionUrl, `${interactionCookies}; ${await siteCookie('leads1')}`, {})).status).toBe(403)
  })
})

test("a reader who is disabled in the user pool gets their tool no new token", async () => {
  const tool = await signToolIn(withCookies('leads2'))
  try {
    expect((await refresh(tool)).status).toBe(200)
    await setUserEnabled(cognitoUrl, 'leads2', false)
    const refused = await refresh(tool)
    expect([refused.status, ((await refused.json()) as { error: string }).error]).toEqual([400, 'invalid_grant'])
  } finally {
    await setUserEnabled(cognitoUrl, 'leads2', true)
    await tool.close()
  }
})

test('Sign out everywhere on the site ends the reader\'s tools at once; the connected-tools page lists and disconnects them', async () => {
  await signInThroughForm(page, 'leads3', '/docs/leads/intro')
  // Tools an earlier test connected for leads3 go first, so the page lists exactly this test's two.
  await revokeAll('leads3')
  const kept = await signToolIn(inBrowser(page, 'leads3'))
  const dropped = await signToolIn(inBrowser(page, 'leads3'))
  const token = async (tool: SignedInTool) => (await tool.auth.tokens())?.access_token as string
  expect((await mcpWith(await token(kept))).status).toBe(200)
  await page.goto(`${siteUrl}/connected-tools`)
  const disconnect = page.getByRole('button', { name: 'Disconnect', exact: true })
  await disconnect.nth(1).waitFor()
  expect(await disconnect.count()).toBe(2)
  await disconnect.first().click()
  await page.waitForFunction(() => document.querySelectorAll('.connected-tools li').length === 1)
  const afterOne = [(await mcpWith(await token(kept))).status, (await mcpWith(await token(dropped))).status].sort()
  expect(afterOne).toEqual([200, 401])
  await page.getByRole('button', { name: 'Sign out' }).click()
  await page.waitForURL(/\/login/)
  for (const tool of [kept, dropped]) {
    expect((await mcpWith(await token(tool))).status).toBe(401)
    expect((await refresh(tool)).status).toBe(400)
  }
})

describe('a server of its own: Client ID Metadata Documents, and access tokens that expire in 2 seconds', () => {
  const documentUrl = 'https://tool.example/oauth/client.json'
  let server: ChildProcess
  let serverUrl: string
  let loopback: Awaited<ReturnType<typeof loopbackReceiver>>
  beforeAll(async () => {
    loopback = await loopbackReceiver()
    const document = { client_id: documentUrl, client_name: 'Metadata document tool', redirect_uris: [loopback.redirectUri], token_endpoint_auth_method: 'none', grant_types: ['authorization_code', 'refresh_token'], response_types: ['code'] }
    server = spawn(process.execPath, ['--import', 'tsx', 'e2e/fixtures/ownSiteServer.ts'], {
      cwd: path.resolve(__dirname, '..'),
      env: { ...process.env, OWN_SERVER: JSON.stringify({ dir, cognitoUrl, accessTokenSeconds: 2, documents: { [documentUrl]: document } }) },
      stdio: ['pipe', 'pipe', 'inherit'],
    })
    serverUrl = await new Promise<string>((resolve, reject) => {
      let out = ''
      server.stdout!.on('data', (chunk) => {
        out += chunk
        const line = out.split('\n').find((candidate) => candidate.startsWith('{"url"'))
        if (line) resolve((JSON.parse(line) as { url: string }).url)
      })
      server.on('exit', (code) => reject(new Error(`the second server exited (${code})`)))
    })
  }, 60000)
  afterAll(async () => {
    loopback?.close()
    if (server && server.exitCode === null) {
      const exited = new Promise((resolve) => server.once('exit', resolve))
      server.stdin!.end()
      await exited
    }
  })

  test('a tool registers by its metadata document, signs in, and its access token is refused once expired; a refresh gets a new one', async () => {
    const tool = await signToolIn(withCookies('internal1'), { siteUrl: serverUrl, clientMetadataUrl: documentUrl, loopback })
    try {
      expect((await tool.auth.clientInformation())?.client_id).toBe(documentUrl)
      expect(((await tool.call('whoami')).structured as { username: string }).username).toBe('internal1')
      const token = (await tool.auth.tokens())?.access_token as string
      expect((await mcpWith(token, serverUrl)).status).toBe(200)
      await new Promise((resolve) => setTimeout(resolve, 2500))
      expect((await mcpWith(token, serverUrl)).status).toBe(401)
      const renewed = await refresh(tool, serverUrl)
      expect(renewed.status).toBe(200)
      expect((await mcpWith(((await renewed.json()) as { access_token: string }).access_token, serverUrl)).status).toBe(200)
    } finally {
      await tool.close()
    }
  })
})
