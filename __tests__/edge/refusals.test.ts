/** @jest-environment node */
/**
 * What a refused request gets, by kind: only a navigation is redirected to a page (sign in, no
 * access); a script, a style sheet, an image, a data or search file, a fetch gets a bare 401 or
 * 403 that no cache keeps, so the browser never receives HTML where it expected another kind of file.
 */
import { access } from '../../lib/access'
import { createViewerRequestHandler } from '../../edge/cloudfrontHandler'
import type { CloudFrontRequest, CloudFrontRequestEvent, CloudFrontResultResponse } from '../../edge/cloudfrontTypes'
import { sharedCacheable } from '../../edge/cacheHeaders'
import { isNavigation } from '../../edge/navigation'
import type { AccessLogRecord } from '../../edge/accessLog'
import { securityHeaders } from '../../edge/securityHeaders'
import { createIdTokenVerifier } from '../../edge/tokenVerifier'
import { MAX_COOKIE_HEADER_BYTES } from '../../edge/readIdToken'
import { CLIENT, POOL, cookiesFor, idClaims, newKeyPair, signJwt } from './tokens'

const key = newKeyPair('refusals-key')
const BUILD = '0123456789abcdef0123'
const FILES = {
  internalChunk: '/_next/static/chunks/9860-0123456789abcdef.js',
  homeChunk: '/_next/static/chunks/pages/index-0123456789abcdef.js',
  internalStyle: '/_next/static/css/0123456789abcdef.css',
}
const log: AccessLogRecord[] = []
const handler = createViewerRequestHandler(
  {
    access,
    assetRoutes: { [FILES.internalChunk]: '/docs/internal/intro', [FILES.homeChunk]: '/', [FILES.internalStyle]: '/docs/internal/intro' },
    audiences: [],
    clientId: CLIENT,
    verifyIdToken: createIdTokenVerifier({ userPoolId: POOL, clientId: CLIENT, jwks: { keys: [key.jwk as never] }, fetchUnknownKeys: false }),
  },
  securityHeaders({ cognitoOrigin: 'https://cognito-idp.eu-west-2.amazonaws.com', scriptHashes: [] }),
  (record) => log.push(record)
)

/** The Fetch Metadata a browser sends for each kind of request (Chromium's values). */
const KINDS = {
  script: { 'sec-fetch-mode': 'no-cors', 'sec-fetch-dest': 'script' },
  'module script': { 'sec-fetch-mode': 'cors', 'sec-fetch-dest': 'script' },
  style: { 'sec-fetch-mode': 'no-cors', 'sec-fetch-dest': 'style' },
  image: { 'sec-fetch-mode': 'no-cors', 'sec-fetch-dest': 'image' },
  fetch: { 'sec-fetch-mode': 'cors', 'sec-fetch-dest': 'empty' },
  prefetch: { 'sec-fetch-mode': 'no-cors', 'sec-fetch-dest': 'empty' },
  'same-origin fetch': { 'sec-fetch-mode': 'same-origin', 'sec-fetch-dest': 'empty' },
  'no headers': {},
} satisfies Record<string, Record<string, string>>
const NAVIGATION = { 'sec-fetch-mode': 'navigate', 'sec-fetch-dest': 'document', 'sec-fetch-user': '?1' }

/** A viewer-request event as CloudFront sends it, with the viewer's headers (names in lower case). */
function event(uri: string, headers: Record<string, string>, cookie?: string): CloudFrontRequestEvent {
  const all = { host: 'docs.example.com', ...headers, ...(cookie ? { cookie } : {}) }
  const request: CloudFrontRequest = {
    clientIp: '203.0.113.178',
    method: 'GET',
    uri,
    querystring: '',
    headers: Object.fromEntries(Object.entries(all).map(([name, value]) => [name, [{ key: name, value }]])),
  }
  return { Records: [{ cf: { config: { eventType: 'viewer-request' }, request } }] }
}

const header = (result: CloudFrontResultResponse, name: string) => result.headers?.[name]?.[0]?.value ?? null

/** Asserts a bare refusal: the status, one line of plain text, no redirect, nothing any cache keeps. */
function expectBareRefusal(result: CloudFrontRequest | CloudFrontResultResponse, status: '401' | '403') {
  const response = result as CloudFrontResultResponse
  expect(response.status).toBe(status)
  expect(header(response, 'location')).toBeNull()
  expect(header(response, 'content-type')).toBe('text/plain; charset=utf-8')
  expect(response.body).toBe(status === '401' ? 'Unauthorized' : 'Forbidden')
  expect(header(response, 'cache-control')).toBe('no-store')
  expect(sharedCacheable(header(response, 'cache-control'))).toBe(false)
}

const reader = (username: string) => cookiesFor(username, signJwt(idClaims(username), key))

describe('a refused request that is not a navigation gets a bare status', () => {
  const files: Array<[string, string, keyof typeof KINDS]> = [
    ['a script', FILES.internalChunk, 'script'],
    ['a style sheet', FILES.internalStyle, 'style'],
    ["a page's data file", `/_next/data/${BUILD}/docs/internal/intro.json`, 'fetch'],
    ['an image', '/docs/internal/images/data-lake-overview.svg', 'image'],
    ['a search file', '/docs/internal/_pagefind/pagefind.js', 'module script'],
    ['a search fragment', '/docs/internal/_pagefind/fragment/en_0123456.pf_fragment', 'fetch'],
    ['a Markdown file', '/docs/internal/intro.md', 'same-origin fetch'],
    ['a page, fetched', '/docs/internal/intro', 'fetch'],
    ['a prefetched chunk', FILES.internalChunk, 'prefetch'],
    ['a script, from a client that sends no Fetch Metadata', FILES.internalChunk, 'no headers'],
    ['a data file, from a client that sends no Fetch Metadata', `/_next/data/${BUILD}/docs/internal/intro.json`, 'no headers'],
    ['an image, from a client that sends no Fetch Metadata', '/docs/internal/images/data-lake-overview.svg', 'no headers'],
  ]
  test.each(files)('%s (%s, as %s): 401 when not signed in', async (_what, uri, kind) => {
    expectBareRefusal(await handler(event(uri, KINDS[kind])), '401')
  })
  test.each(files)('%s (%s, as %s): 403 when signed in but not allowed', async (_what, uri, kind) => {
    expectBareRefusal(await handler(event(uri, KINDS[kind], reader('leads1'))), '403')
  })

  test("the home page's prefetch from the sign-in page (its data file and route chunk) is a 401, not the sign-in page", async () => {
    expectBareRefusal(await handler(event(`/_next/data/${BUILD}/index.json`, KINDS.fetch)), '401')
    expectBareRefusal(await handler(event(FILES.homeChunk, KINDS.prefetch)), '401')
    // A signed-in reader may open the home page: its files are served.
    expect((await handler(event(`/_next/data/${BUILD}/index.json`, KINDS.fetch, reader('outsider')))) as CloudFrontRequest).toMatchObject({ uri: `/_next/data/${BUILD}/index.json` })
  })

  test('cookies too large to read: a file is refused with a bare 403 too', async () => {
    const oversized = `${reader('admin')}; padding=${'x'.repeat(MAX_COOKIE_HEADER_BYTES)}`
    expectBareRefusal(await handler(event(FILES.internalChunk, KINDS.script, oversized)), '403')
  })

  test('the access log says what the reader got: unauthorized or forbidden, with no redirect', async () => {
    log.length = 0
    await handler(event(FILES.internalChunk, KINDS.script))
    await handler(event(FILES.internalChunk, KINDS.script, reader('leads1')))
    expect(log).toEqual([
      expect.objectContaining({ user: 'anonymous', path: FILES.internalChunk, decision: 'login', outcome: 'unauthorized' }),
      expect.objectContaining({ user: 'leads1', path: FILES.internalChunk, decision: 'deny', outcome: 'forbidden' }),
    ])
    for (const record of log) expect(record).not.toHaveProperty('redirect')
  })
})

describe('a refused navigation is redirected to the page that says why', () => {
  const redirectOf = (result: CloudFrontRequest | CloudFrontResultResponse) => {
    const response = result as CloudFrontResultResponse
    expect(response.body).toBeUndefined()
    expect(header(response, 'cache-control')).toBe('no-store')
    return [response.status, header(response, 'location')]
  }

  test.each([
    ['a page', '/docs/internal/intro', NAVIGATION],
    ['a page in a frame', '/docs/internal/intro', { 'sec-fetch-mode': 'navigate', 'sec-fetch-dest': 'iframe' }],
    ['a page, from a browser that sends no Fetch Metadata', '/docs/internal/intro', {}],
    ['a page, from a browser that sends only Sec-Fetch-Dest', '/docs/internal/intro', { 'sec-fetch-dest': 'document' }],
    ['a Markdown file the reader follows a link to', '/docs/internal/intro.md', NAVIGATION],
    ['an image opened in its own tab', '/docs/internal/images/data-lake-overview.svg', NAVIGATION],
  ])('%s: to sign in when not signed in, to no access when signed in', async (_what, uri, headers) => {
    expect(redirectOf(await handler(event(uri, headers)))).toEqual(['302', `/login?next=${encodeURIComponent(uri)}`])
    expect(redirectOf(await handler(event(uri, headers, reader('leads1'))))).toEqual(['302', `/unauthorized?from=${encodeURIComponent(uri)}`])
  })

  test('cookies too large to read: a navigation goes to the page that explains it', async () => {
    const oversized = `${reader('admin')}; padding=${'x'.repeat(MAX_COOKIE_HEADER_BYTES)}`
    expect(redirectOf(await handler(event('/docs/internal/intro', NAVIGATION, oversized)))).toEqual(['302', '/session-too-large'])
  })

  test('the access log names the redirect', async () => {
    log.length = 0
    await handler(event('/docs/internal/intro', NAVIGATION))
    expect(log).toEqual([expect.objectContaining({ user: 'anonymous', decision: 'login', outcome: 'redirect', redirect: '/login' })])
  })
})

describe('isNavigation: Fetch Metadata first, the kind of file when there is none', () => {
  test.each([
    [{ mode: 'navigate', dest: 'document' }, '/_next/static/chunks/a.js', true],
    [{ mode: 'NAVIGATE' }, '/_next/static/chunks/a.js', true],
    [{ mode: 'cors', dest: 'document' }, '/docs/intro.html', false],
    [{ mode: 'no-cors', dest: 'script' }, '/docs/intro.html', false],
    [{ mode: 'websocket' }, '/docs/intro.html', false],
    [{ dest: 'iframe' }, '/_next/static/chunks/a.js', true],
    [{ dest: 'image' }, '/docs/intro.html', false],
    [{ mode: '', dest: '' }, '/docs/intro.html', true],
    [{ mode: null, dest: null }, '/_next/static/chunks/a.js', false],
    [undefined, '/docs/intro.html', true],
    [undefined, '/_next/data/b/docs/intro.json', false],
    [undefined, '/docs/intro.md', false],
  ])('%j for %s: %s', (fetchMetadata, objectKey, expected) => {
    expect(isNavigation(fetchMetadata, objectKey)).toBe(expected)
  })
})
