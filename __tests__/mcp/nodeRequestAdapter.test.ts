/** @jest-environment node */
/**
 * The function URL event to a Node request and back (mcp/nodeRequestAdapter.ts), with plain Node
 * handlers in place of the authorization server (whose library jest cannot load): what the handler
 * is told of the reader's request, and what the function URL gets of the handler's response.
 */
import type { IncomingMessage } from 'node:http'
import { FORWARDED_AUTHORIZATION, FORWARDED_HOST, type FunctionUrlEvent } from '../../mcp/functionUrl'
import { handleWithNode } from '../../mcp/nodeRequestAdapter'

const event = (overrides: Partial<FunctionUrlEvent> & { method?: string } = {}): FunctionUrlEvent => ({
  version: '2.0',
  rawPath: '/oauth/token',
  rawQueryString: '',
  headers: { [FORWARDED_HOST]: 'docs.example.com', host: 'abc.lambda-url.us-east-1.on.aws', 'content-type': 'application/x-www-form-urlencoded' },
  ...overrides,
  requestContext: { http: { method: overrides.method ?? 'GET' } },
})

interface Seen {
  method?: string
  url?: string
  headers: IncomingMessage['headers']
  body: string
}

/** A handler that answers with what it saw. */
async function echo(request: IncomingMessage, response: import('node:http').ServerResponse) {
  let body = ''
  for await (const chunk of request) body += chunk
  const seen: Seen = { method: request.method, url: request.url, headers: request.headers, body }
  response.writeHead(200, { 'content-type': 'application/json; charset=utf-8' })
  response.end(JSON.stringify(seen))
}

const seenBy = async (e: FunctionUrlEvent): Promise<Seen> => JSON.parse((await handleWithNode(e, 'docs.example.com', echo)).body)

test("the handler sees the reader's method, path and query on the viewer's host, over HTTPS", async () => {
  const seen = await seenBy(event({ rawPath: '/oauth/auth', rawQueryString: 'client_id=a&redirect_uri=http%3A%2F%2F127.0.0.1%3A5%2Fcb' }))
  expect(seen).toMatchObject({ method: 'GET', url: '/oauth/auth?client_id=a&redirect_uri=http%3A%2F%2F127.0.0.1%3A5%2Fcb', body: '' })
  expect(seen.headers).toMatchObject({ host: 'docs.example.com', 'x-forwarded-proto': 'https' })
})

test("a POST body arrives whole, base64 or not; the reader's Authorization comes from the forwarded header, never CloudFront's signature", async () => {
  const form = 'grant_type=refresh_token&refresh_token=abc&client_id=tool'
  const headers = { [FORWARDED_HOST]: 'docs.example.com', authorization: 'AWS4-HMAC-SHA256 Credential=…', [FORWARDED_AUTHORIZATION]: 'Basic dG9vbDo=', 'x-amz-content-sha256': 'ab', 'content-type': 'application/x-www-form-urlencoded' }
  for (const encoded of [true, false]) {
    const seen = await seenBy(event({ method: 'POST', headers, body: encoded ? Buffer.from(form).toString('base64') : form, isBase64Encoded: encoded }))
    expect(seen.body).toBe(form)
    expect(seen.headers['content-length']).toBe(String(form.length))
    expect(seen.headers.authorization).toBe('Basic dG9vbDo=')
    expect(seen.headers[FORWARDED_AUTHORIZATION]).toBeUndefined()
    expect(seen.headers['x-amz-content-sha256']).toBeUndefined()
  }
})

test("the reader's cookies (the event's list) reach the handler as one Cookie header", async () => {
  const seen = await seenBy(event({ cookies: ['_interaction=abc', '_interaction.sig=def', 'CognitoIdentityServiceProvider.x.idToken=eyJ'] }))
  expect(seen.headers.cookie).toBe('_interaction=abc; _interaction.sig=def; CognitoIdentityServiceProvider.x.idToken=eyJ')
})

test('proxy headers a viewer sent are not believed: the host and the scheme are the adapter\'s', async () => {
  const seen = await seenBy(event({ headers: { [FORWARDED_HOST]: 'docs.example.com', 'x-forwarded-host': 'evil.example', 'x-forwarded-proto': 'http', forwarded: 'host=evil.example' } }))
  expect(seen.headers).toMatchObject({ host: 'docs.example.com', 'x-forwarded-proto': 'https' })
  expect(seen.headers['x-forwarded-host']).toBeUndefined()
  expect(seen.headers.forwarded).toBeUndefined()
})

test('a path that looks like a URL stays a path on the site', async () => {
  const seen = await seenBy(event({ rawPath: '//evil.example/oauth' }))
  expect(seen.url).toBe('/evil.example/oauth')
  expect(seen.headers.host).toBe('docs.example.com')
})

test('every Set-Cookie comes back in the cookies list, other headers as they were, the status as it was', async () => {
  const result = await handleWithNode(event(), 'docs.example.com', (_request, response) => {
    response.statusCode = 303
    response.setHeader('set-cookie', ['_interaction=1; path=/oauth/interaction/x; secure; httponly', '_interaction.sig=2; path=/oauth/interaction/x; secure; httponly'])
    response.appendHeader('set-cookie', '_session=3; path=/; secure')
    response.setHeader('location', '/authorize?uid=x')
    response.setHeader('cache-control', 'no-store')
    response.end()
  })
  expect(result).toEqual({
    statusCode: 303,
    headers: expect.objectContaining({ location: '/authorize?uid=x', 'cache-control': 'no-store' }),
    cookies: ['_interaction=1; path=/oauth/interaction/x; secure; httponly', '_interaction.sig=2; path=/oauth/interaction/x; secure; httponly', '_session=3; path=/; secure'],
    body: '',
    isBase64Encoded: false,
  })
  expect(result.headers['set-cookie']).toBeUndefined()
  expect(result.headers.connection).toBeUndefined()
  expect(result.headers['transfer-encoding']).toBeUndefined()
})

test('a written-in-parts text body comes back as text, anything else in base64', async () => {
  const text = await handleWithNode(event(), 'docs.example.com', (_request, response) => {
    response.writeHead(400, [['content-type', 'text/html; charset=utf-8']].flat())
    response.write('<p>one ')
    response.end('two</p>')
  })
  expect(text).toMatchObject({ statusCode: 400, body: '<p>one two</p>', isBase64Encoded: false })
  const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 255])
  const binary = await handleWithNode(event(), 'docs.example.com', (_request, response) => {
    response.writeHead(200, { 'content-type': 'image/png' })
    response.end(png)
  })
  expect(binary).toMatchObject({ isBase64Encoded: true, body: png.toString('base64') })
})

test('a handler that throws before answering gives a 500 with no detail; a HEAD gets no body', async () => {
  jest.spyOn(console, 'error').mockImplementation(() => undefined)
  const failed = await handleWithNode(event(), 'docs.example.com', async () => {
    throw new Error('table not found: secret detail')
  })
  expect(failed).toMatchObject({ statusCode: 500, body: 'Internal Server Error' })
  jest.restoreAllMocks()
  const head = await handleWithNode(event({ method: 'HEAD' }), 'docs.example.com', (_request, response) => {
    response.writeHead(200, { 'content-type': 'application/json' })
    response.end('{"a":1}')
  })
  expect(head).toMatchObject({ statusCode: 200, body: '' })
})
