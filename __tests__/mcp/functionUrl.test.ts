/** @jest-environment node */
/**
 * The AI tools' server as Lambda runs it (mcp/functionUrl.ts): each request goes through the
 * distribution's own viewer-request function (infra/lib/mcp-origin.ts), then arrives as a function
 * URL event signed by CloudFront, and the result goes back as the function URL returns it. Site
 * files and the token verifier are fakes, so no build is needed. (Search runs Pagefind through a
 * native import that jest's sandbox cannot do: e2e/mcpBundle.test.ts searches through the bundle.)
 */
import path from 'node:path'
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client'
import { access } from '../../lib/access'
import { audienceSummaries, planAggregates } from '../../lib/access/planAggregates'
import { scanContent } from '../../pipeline/content/contentSource'
import type { AccessLogRecord } from '../../edge/accessLog'
import type { VerifyIdTokenClaims } from '../../edge/tokenVerifier'
import { MCP_FORWARDED_HEADERS, MCP_VIEWER_REQUEST_CODE } from '../../infra/lib/mcp-origin'
import { createMcpFunction, FORWARDED_AUTHORIZATION, FORWARDED_HOST, toFunctionUrlResult, toWebRequest, type FunctionUrlEvent } from '../../mcp/functionUrl'
import { MCP_PATH, RESOURCE_METADATA_PATH } from '../../mcp/mcpHandler'
import type { SearchIndexes } from '../../mcp/searchDocs'
import type { SiteFiles } from '../../mcp/siteFiles'
import type { PageCatalog } from '../../lib/aiTools/pageCatalog'

const VIEWER_HOST = 'd111111abcdef8.cloudfront.net'
const SITE = `https://${VIEWER_HOST}`
const FUNCTION_HOST = 'abcdefghijklmnopqrstuvwxyz012345.lambda-url.us-east-1.on.aws'
/** What OAC puts in Authorization: CloudFront's signature for the function URL, never a reader's token. */
const SIGV4 = 'AWS4-HMAC-SHA256 Credential=ASIAEXAMPLE/20260101/us-east-1/lambda/aws4_request, SignedHeaders=host;x-amz-date, Signature=00'

const plan = planAggregates({ access, routes: scanContent(path.resolve(__dirname, '../..')).pages.map((page) => page.route) })
const stored = new Map<string, string>()
for (const file of plan.catalogs) {
  const catalog: PageCatalog = { pages: file.pages.map((route) => ({ route, title: `Title of ${route}`, description: null, lastUpdated: null })), pageMap: { items: [], order: {} } }
  stored.set(file.key, JSON.stringify(catalog))
}
for (const file of plan.markdown) stored.set(file.key, `# Page ${file.route}\n`)
const files: SiteFiles = { read: async (key) => (stored.has(key) ? Buffer.from(stored.get(key) as string) : null) }
const search: SearchIndexes = { search: async () => [] }

/** A reader's token is `token-<username>`; anything else is refused, as an invalid or expired token is. */
const verifyReader: VerifyIdTokenClaims = async (token) =>
  token.startsWith('token-') ? { user: { username: token.slice('token-'.length), groups: [] }, expiresAtMs: Date.now() + 3_600_000 } : null

const log: AccessLogRecord[] = []
const server = createMcpFunction({
  site: { access, assetRoutes: {}, audiences: audienceSummaries(plan), files, search },
  verifyReader,
  authorizationServers: ['https://cognito-idp.eu-west-2.amazonaws.com/eu-west-2_ProdPool1'],
  log: (record) => log.push(record),
})
afterAll(() => server.close())

const viewerRequest = new Function(`${MCP_VIEWER_REQUEST_CODE}; return handler;`)() as (event: unknown) => { headers: Record<string, { value: string }> }

/**
 * A viewer's request as the function receives it: the distribution's viewer-request function moves
 * Authorization and Host, OAC signs for the function URL, and the body arrives base64-encoded.
 */
async function viaCloudFront(request: Request): Promise<FunctionUrlEvent> {
  const url = new URL(request.url)
  const viewerHeaders: Record<string, { value: string }> = { host: { value: url.host } }
  request.headers.forEach((value, name) => (viewerHeaders[name] = { value }))
  const { headers } = viewerRequest({ request: { method: request.method, uri: url.pathname, headers: viewerHeaders } })
  // The origin request policy forwards its allow-list alone: a header the server needs and the list leaves out never arrives.
  const forwarded = Object.fromEntries(Object.entries(headers).filter(([name]) => MCP_FORWARDED_HEADERS.includes(name)).map(([name, { value }]) => [name, value]))
  const body = Buffer.from(await request.arrayBuffer())
  return {
    version: '2.0',
    rawPath: url.pathname,
    rawQueryString: url.search.slice(1),
    headers: { ...forwarded, host: FUNCTION_HOST, authorization: SIGV4, 'x-amz-date': '20260101T000000Z' },
    ...(body.length > 0 ? { body: body.toString('base64'), isBase64Encoded: true } : { isBase64Encoded: false }),
    requestContext: { domainName: FUNCTION_HOST, http: { method: request.method, sourceIp: '203.0.113.9' } },
  }
}

/** The reader's fetch, through CloudFront to the function and back. */
async function serve(input: RequestInfo | URL, init?: RequestInit): Promise<Response> {
  const result = await server.handle(await viaCloudFront(new Request(input, init)))
  const body = result.isBase64Encoded ? Buffer.from(result.body, 'base64') : result.body
  const headers = new Headers(result.headers)
  for (const cookie of result.cookies ?? []) headers.append('set-cookie', cookie)
  return new Response([204, 304].includes(result.statusCode) ? null : body, { status: result.statusCode, headers })
}

const mcpPost = (headers: Record<string, string>, body: unknown = { jsonrpc: '2.0', id: 1, method: 'tools/list' }) =>
  serve(`${SITE}${MCP_PATH}`, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers }, body: JSON.stringify(body) })

test('no token: 401 with a challenge naming the resource metadata on the host the reader used; CloudFront\'s own signature is not a token', async () => {
  const response = await mcpPost({})
  expect(response.status).toBe(401)
  expect(response.headers.get('www-authenticate')).toContain(`resource_metadata="${SITE}${RESOURCE_METADATA_PATH}"`)
  expect(log.at(-1)).toMatchObject({ user: 'anonymous', outcome: 'unauthorized', reason: 'no valid token' })
  // Sent straight to the function (no viewer-request function), a bearer token in Authorization is
  // CloudFront's header there, never read as the reader's.
  const direct = await server.handle({
    rawPath: MCP_PATH,
    headers: { host: FUNCTION_HOST, authorization: 'Bearer token-leads1', 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    requestContext: { http: { method: 'POST' } },
  })
  expect(direct.statusCode).toBe(401)
})

test("another site's page in a reader's browser is refused behind CloudFront as it is locally: its Origin reaches the server", async () => {
  const call = { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'whoami', arguments: {} } }
  const foreign = await mcpPost({ authorization: 'Bearer token-leads1', origin: 'https://evil.example', 'mcp-protocol-version': '2025-11-25' }, call)
  expect(foreign.status).toBe(403)
  expect(await foreign.text()).not.toContain('leads1')
  expect((await mcpPost({ authorization: 'Bearer token-leads1', origin: SITE, 'mcp-protocol-version': '2025-11-25' }, call)).status).toBe(200)
})

test('the resource metadata answers JSON naming the resource on the host the reader used', async () => {
  const response = await serve(`${SITE}${RESOURCE_METADATA_PATH}`)
  expect(response.status).toBe(200)
  expect(response.headers.get('content-type')).toBe('application/json')
  expect(await response.json()).toMatchObject({ resource: `${SITE}${MCP_PATH}`, bearer_methods_supported: ['header'] })
  // With a custom domain (DOCS_SITE_URL) the site's own origin is named, whatever host was used.
  const fixed = createMcpFunction({ site: { access, assetRoutes: {}, audiences: [], files, search }, siteUrl: 'https://docs.example.com', verifyReader, authorizationServers: [] })
  const answer = await fixed.handle({ rawPath: RESOURCE_METADATA_PATH, headers: { [FORWARDED_HOST]: VIEWER_HOST }, requestContext: { http: { method: 'GET' } } })
  expect(JSON.parse(answer.body)).toMatchObject({ resource: 'https://docs.example.com/mcp' })
  await fixed.close()
})

test.each([
  ['the 2025 protocol', undefined],
  // Its requests name their method and tool in headers (Mcp-Method, Mcp-Name), which the server requires.
  ['the 2026-07-28 protocol', { mode: { pin: '2026-07-28' } }],
])('an MCP session through the adapter, on %s: the tool list, whoami and a page, for the reader the token names', async (_protocol, versionNegotiation) => {
  log.length = 0
  const client = new Client({ name: 'unit', version: '1' }, versionNegotiation ? { versionNegotiation } : undefined)
  await client.connect(new StreamableHTTPClientTransport(new URL(MCP_PATH, SITE), { fetch: serve, requestInit: { headers: { authorization: 'Bearer token-leads1' } } }))
  expect((await client.listTools()).tools.map((tool) => tool.name).sort()).toEqual(['get_page', 'list_pages', 'search_docs', 'whoami'])
  const whoami = await client.callTool({ name: 'whoami', arguments: {} })
  expect(whoami.structuredContent).toMatchObject({ username: 'leads1', sections: [{ id: 'leads', url: `${SITE}/docs/leads/intro` }] })
  const page = await client.callTool({ name: 'get_page', arguments: { path: '/docs/leads/intro' } })
  expect(page.structuredContent).toMatchObject({ route: '/docs/leads/intro', url: `${SITE}/docs/leads/intro` })
  await client.close()
  expect(log.filter((record) => record.tool).map((record) => [record.user, record.tool])).toEqual([
    ['leads1', 'whoami'],
    ['leads1', 'get_page'],
  ])
  expect(JSON.stringify(log)).not.toContain('token-leads1')
})

test('another path is 404, a host that is not one is 400, and neither reaches the server', async () => {
  for (const rawPath of ['/docs/leads/intro', '/mcp/', '//evil.example.com/mcp']) {
    const result = await server.handle({ rawPath, headers: { [FORWARDED_HOST]: VIEWER_HOST, [FORWARDED_AUTHORIZATION]: 'Bearer token-leads1' }, requestContext: { http: { method: 'GET' } } })
    expect([rawPath, result.statusCode]).toEqual([rawPath, 404])
  }
  const badHost = await server.handle({ rawPath: MCP_PATH, headers: { [FORWARDED_HOST]: 'evil.example.com/x?' }, requestContext: { http: { method: 'POST' } } })
  expect(badHost.statusCode).toBe(400)
})

test('a path is kept as a path on the site, and CloudFront\'s headers stay behind', () => {
  const request = toWebRequest(
    { rawPath: '//evil.example.com/mcp', rawQueryString: 'a=1', headers: { authorization: SIGV4, 'x-amz-date': 'x', [FORWARDED_AUTHORIZATION]: 'Bearer t', accept: 'application/json' }, requestContext: { http: { method: 'GET' } } },
    SITE
  )
  expect(request.url).toBe(`${SITE}//evil.example.com/mcp?a=1`)
  expect(Object.fromEntries(request.headers)).toEqual({ authorization: 'Bearer t', accept: 'application/json' })
})

test('a base64 body in; text out as text, anything else base64, cookies apart, HEAD without a body', async () => {
  const posted = toWebRequest(
    { rawPath: MCP_PATH, body: Buffer.from('{"a":"é"}').toString('base64'), isBase64Encoded: true, requestContext: { http: { method: 'POST' } } },
    SITE
  )
  expect(await posted.text()).toBe('{"a":"é"}')
  const bytes = Buffer.from([0, 255, 1, 254])
  expect(await toFunctionUrlResult(new Response(bytes, { headers: { 'content-type': 'application/octet-stream' } }), 'GET')).toEqual({
    statusCode: 200,
    headers: { 'content-type': 'application/octet-stream' },
    body: bytes.toString('base64'),
    isBase64Encoded: true,
  })
  const stream = await toFunctionUrlResult(new Response('event: message\ndata: {"é":1}\n\n', { headers: { 'content-type': 'text/event-stream' } }), 'POST')
  expect(stream).toMatchObject({ body: 'event: message\ndata: {"é":1}\n\n', isBase64Encoded: false })
  const headers = new Headers({ 'content-type': 'application/json' })
  headers.append('set-cookie', 'a=1; Secure')
  headers.append('set-cookie', 'b=2; Secure')
  expect(await toFunctionUrlResult(new Response('{"x":1}', { headers }), 'HEAD')).toEqual({
    statusCode: 200,
    headers: { 'content-type': 'application/json' },
    cookies: ['a=1; Secure', 'b=2; Secure'],
    body: '',
    isBase64Encoded: false,
  })
})
