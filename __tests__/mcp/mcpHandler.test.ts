/** @jest-environment node */
/**
 * The AI tools' server through the MCP SDK's own client, on the shipped rules and plan, with site
 * files held in memory: what a reader's tool is told, what is refused, and what the access log says.
 * (Search through Pagefind itself needs a build; e2e/mcpServer.test.ts drives it.)
 */
import path from 'node:path'
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client'
import { access } from '../../lib/access'
import { audienceSummaries, planAggregates } from '../../lib/access/planAggregates'
import { scanContent } from '../../pipeline/content/contentSource'
import type { AccessLogRecord } from '../../edge/accessLog'
import { createIdTokenClaimsVerifier } from '../../edge/tokenVerifier'
import { createDocsMcpHandler, MCP_PATH, RESOURCE_METADATA_PATH } from '../../mcp/mcpHandler'
import { NO_PAGE } from '../../mcp/docsTools'
import type { SearchIndexes } from '../../mcp/searchDocs'
import type { SiteFiles } from '../../mcp/siteFiles'
import type { PageCatalog } from '../../lib/aiTools/pageCatalog'
import { CLIENT, POOL, idClaims, newKeyPair, signJwt } from '../edge/tokens'

const SITE = 'https://docs.example.com'
const key = newKeyPair('k1')
const plan = planAggregates({ access, routes: scanContent(path.resolve(__dirname, '../..')).pages.map((page) => page.route) })
const audiences = audienceSummaries(plan)

/** Each planned catalog and Markdown file, with text that names its own route only. */
const stored = new Map<string, string>()
for (const file of plan.catalogs) {
  const catalog: PageCatalog = {
    pages: file.pages.map((route) => ({ route, title: `Title of ${route}`, description: null, lastUpdated: '2026-11-01T00:00:00.000Z' })),
    pageMap: { items: [], order: {} },
  }
  stored.set(file.key, JSON.stringify(catalog))
}
for (const file of plan.markdown) stored.set(file.key, `# Page ${file.route}\n\nBody of ${file.route}.\n`)
const reads: string[] = []
const files: SiteFiles = {
  async read(objectKey) {
    reads.push(objectKey)
    const text = stored.get(objectKey)
    return text === undefined ? null : Buffer.from(text)
  },
}
const searched: string[][] = []
const search: SearchIndexes = {
  async search(basePaths, query) {
    searched.push([...basePaths])
    // The home page is in every signed-in reader's search index, for the search box.
    if (query === 'welcome') return [{ id: '0', url: '/', title: 'Platform Docs', section: '', heading: '', excerpt: '<mark>welcome</mark>' }]
    return [{ id: '1', url: '/docs/leads/intro#how-a-quote-flows', title: 'Leads API introduction', section: 'Leads API', heading: 'How a quote flows', excerpt: 'a <mark>quote</mark> flows' }]
  },
}
const log: AccessLogRecord[] = []
const handler = createDocsMcpHandler({
  site: { access, assetRoutes: {}, audiences, files, search, siteUrl: SITE },
  verifyReader: createIdTokenClaimsVerifier({ userPoolId: POOL, clientId: CLIENT, jwks: { keys: [key.jwk as never] }, fetchUnknownKeys: false }),
  authorizationServers: [`https://cognito-idp.eu-west-2.amazonaws.com/${POOL}`],
  log: (record) => log.push(record),
})
const serve = async (input: RequestInfo | URL, init?: RequestInit) => (await handler.handle(new Request(input, init))) ?? new Response('not found', { status: 404 })

async function clientAs(username: string, overrides: Record<string, unknown> = {}) {
  const client = new Client({ name: 'unit', version: '1' })
  const token = signJwt(idClaims(username, overrides), key)
  await client.connect(new StreamableHTTPClientTransport(new URL(MCP_PATH, SITE), { fetch: serve, requestInit: { headers: { authorization: `Bearer ${token}` } } }))
  return { client, token }
}
const textOf = (result: { content?: unknown }) => (result.content as Array<{ text: string }>).map((part) => part.text).join('\n')

afterAll(() => handler.close())

test('no token: 401 with a challenge that names the resource metadata, which names the resource and its authorization server', async () => {
  const response = await serve(`${SITE}${MCP_PATH}`, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, body: '{}' })
  expect(response.status).toBe(401)
  expect(response.headers.get('www-authenticate')).toContain(`resource_metadata="${SITE}${RESOURCE_METADATA_PATH}"`)
  expect(response.headers.get('cache-control')).toBe('no-store')
  const metadata = await (await serve(`${SITE}${RESOURCE_METADATA_PATH}`)).json()
  expect(metadata).toMatchObject({ resource: `${SITE}${MCP_PATH}`, authorization_servers: [`https://cognito-idp.eu-west-2.amazonaws.com/${POOL}`], bearer_methods_supported: ['header'] })
  expect(log.at(-1)).toMatchObject({ user: 'anonymous', path: MCP_PATH, outcome: 'unauthorized', reason: 'no valid token' })
})

test.each([
  ['expired', { exp: Math.floor(Date.now() / 1000) - 60 }],
  ['for another app client', { aud: 'anotherclient000000000000' }],
  ['an access token', { token_use: 'access' }],
  ['from another pool', { iss: 'https://cognito-idp.eu-west-2.amazonaws.com/eu-west-2_Other' }],
])('a token %s is refused with 401', async (_what, overrides) => {
  await expect(clientAs('leads1', overrides)).rejects.toThrow(/401|Unauthorized|invalid_token/i)
})

test('a token that cannot be checked (the sign-in store fails) answers 500, never 401, and is logged as an error with its cause', async () => {
  const failing = createDocsMcpHandler({
    site: { access, assetRoutes: {}, audiences, files, search, siteUrl: SITE },
    verifyReader: async () => {
      throw new Error('DynamoDB: ProvisionedThroughputExceededException')
    },
    authorizationServers: [`${SITE}/oauth`],
    log: (record) => log.push(record),
  })
  const errors = jest.spyOn(console, 'error').mockImplementation(() => undefined)
  try {
    const response = await failing.handle(new Request(`${SITE}${MCP_PATH}`, { method: 'POST', headers: { authorization: 'Bearer opaque-token', 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, body: '{}' }))
    expect(response?.status).toBe(500)
    expect(response?.headers.get('www-authenticate')).toBeNull()
    expect(log.at(-1)).toMatchObject({ user: 'anonymous', path: MCP_PATH, outcome: 'error', decision: 'deny' })
    expect(log.at(-1)?.reason).toBeUndefined()
    expect(errors.mock.calls.map((call) => String(call[0])).join('\n')).toContain('ProvisionedThroughputExceededException')
    expect(JSON.stringify(log.at(-1))).not.toContain('opaque-token')
  } finally {
    errors.mockRestore()
    await failing.close()
  }
})

test('whoami names the reader and the sections their view names; the tools are the four documented ones', async () => {
  const { client } = await clientAs('leads1')
  expect((await client.listTools()).tools.map((tool) => tool.name).sort()).toEqual(['get_page', 'list_pages', 'search_docs', 'whoami'])
  const result = await client.callTool({ name: 'whoami', arguments: {} })
  expect(result.structuredContent).toMatchObject({ username: 'leads1', sections: [{ id: 'leads', href: '/docs/leads/intro', url: `${SITE}/docs/leads/intro` }] })
  // Its llms.txt, which lists the parts of its full text; no other audience's.
  expect(result.structuredContent).toMatchObject({ llms: [`${SITE}/docs/leads/llms.txt`] })
  expect(textOf(result)).toContain(`- ${SITE}/docs/leads/llms.txt`)
  await client.close()
})

test('get_page answers a page the reader may not open exactly as one that does not exist, and reads no file of another audience', async () => {
  const { client, token } = await clientAs('leads1')
  reads.length = 0
  const refused = await client.callTool({ name: 'get_page', arguments: { path: '/docs/internal/intro' } })
  const missing = await client.callTool({ name: 'get_page', arguments: { path: '/docs/leads/no-such-page' } })
  expect(refused).toEqual(missing)
  expect(textOf(refused)).toBe(NO_PAGE)
  expect(reads.filter((objectKey) => objectKey.startsWith('/docs/internal'))).toEqual([])
  const page = await client.callTool({ name: 'get_page', arguments: { path: `${SITE}/docs/leads/intro.md#who-uses-it` } })
  expect(page.structuredContent).toMatchObject({ title: 'Title of /docs/leads/intro', route: '/docs/leads/intro', url: `${SITE}/docs/leads/intro`, lastUpdated: '2026-11-01T00:00:00.000Z' })
  expect(textOf(page)).toContain('Body of /docs/leads/intro.')
  // The access log names the reader, the tool and the routes, never a token or what was asked.
  const lines = log.map((record) => JSON.stringify(record)).join('\n')
  expect(lines).not.toContain(token)
  expect(log.filter((record) => record.tool === 'get_page').slice(-3)).toEqual([
    expect.objectContaining({ user: 'leads1', decision: 'deny', outcome: 'tool', refused: ['/docs/internal/intro'], routes: [] }),
    expect.objectContaining({ user: 'leads1', tool: 'get_page', routes: [] }),
    expect.objectContaining({ user: 'leads1', decision: 'allow', routes: ['/docs/leads/intro'] }),
  ])
  await client.close()
})

test.each([
  ['/docs/leads/../internal/intro', /"\.\." segment/],
  ['/docs/leads/%252e%252e/internal/intro', /percent-encoded twice/],
  ['https://evil.example.com/docs/leads/intro', /not on this site/],
  ['//evil.example.com/docs/leads/intro', /not on this site/],
  ['/docs/leads\\intro', /backslash/],
  ['', /Invalid arguments|empty/],
])('get_page refuses %j with a sentence that names the problem and no stack', async (given, problem) => {
  const { client } = await clientAs('leads1')
  const result = await client.callTool({ name: 'get_page', arguments: { path: given } })
  expect(result.isError).toBe(true)
  expect(textOf(result)).toMatch(problem)
  expect(textOf(result)).not.toMatch(/\n\s+at |\.ts:\d+/)
  await client.close()
})

test('wrong types, an oversized query and an unknown tool are refused, naming the problem', async () => {
  const { client } = await clientAs('leads1')
  expect(textOf(await client.callTool({ name: 'search_docs', arguments: { query: 5 } }))).toMatch(/query.*expected string/)
  expect(textOf(await client.callTool({ name: 'search_docs', arguments: { query: 'x'.repeat(501) } }))).toMatch(/query.*500/)
  expect(textOf(await client.callTool({ name: 'search_docs', arguments: { query: 'quote', limit: 1000 } }))).toMatch(/limit/)
  await expect(client.callTool({ name: 'delete_everything', arguments: {} })).rejects.toThrow(/Tool delete_everything not found/)
  await client.close()
})

test('search asks only the indexes of the audiences the reader holds, and answers with full URLs', async () => {
  const { client } = await clientAs('leads1')
  searched.length = 0
  const result = await client.callTool({ name: 'search_docs', arguments: { query: 'quote' } })
  const leadsIndexes = audiences.filter((audience) => audience.search && (audience.governedBy === '/' || /^\/docs\/leads(\/|$)/.test(audience.governedBy))).map((audience) => audience.search)
  expect(searched).toEqual([leadsIndexes])
  expect(result.structuredContent).toEqual({
    results: [{ title: 'Leads API introduction › How a quote flows', section: 'Leads API', route: '/docs/leads/intro#how-a-quote-flows', url: `${SITE}/docs/leads/intro#how-a-quote-flows`, snippet: 'a quote flows' }],
  })
  expect(log.at(-1)).toMatchObject({ user: 'leads1', tool: 'search_docs', routes: ['/docs/leads/intro'] })
  expect(JSON.stringify(log.at(-1))).not.toContain('quote"')
  await client.close()
})

test('search offers only pages get_page reads: not the home page, which the search box finds', async () => {
  const { client } = await clientAs('outsider')
  const result = await client.callTool({ name: 'search_docs', arguments: { query: 'welcome' } })
  expect(result.structuredContent).toEqual({ results: [] })
  expect(textOf(result)).toBe('No pages you can open match this search.')
  await client.close()
})

test("a request from another site's page (its Origin, the same host on another scheme or port included) is refused before its token is read; the site's own origin and none (an AI tool) pass", async () => {
  const token = signJwt(idClaims('leads1'), key)
  const post = (origin?: string) =>
    serve(`${SITE}${MCP_PATH}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...(origin ? { origin } : {}) },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }),
    })
  const { hostname, port } = new URL(SITE)
  const sameHostElsewhere = [`${SITE.startsWith('https:') ? 'http' : 'https'}://${hostname}${port ? `:${port}` : ''}`, `${new URL(SITE).protocol}//${hostname}:8443`]
  for (const origin of ['https://evil.example', 'http://docs.example.com.evil.example', 'null', ...sameHostElsewhere]) {
    const refused = await post(origin)
    expect([origin, refused.status, refused.headers.get('cache-control')]).toEqual([origin, 403, 'no-store'])
  }
  expect((await post(SITE)).status).toBe(200)
  expect((await post()).status).toBe(200)
})

test('a body over the limit is refused before it is read', async () => {
  const token = signJwt(idClaims('leads1'), key)
  const response = await serve(`${SITE}${MCP_PATH}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'search_docs', arguments: { query: 'x'.repeat(100_000) } } }),
  })
  expect(response.status).toBe(413)
})
