/** @jest-environment node */
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { access } from '../../lib/access'
import { READER_VIEW_PATH } from '../../lib/access/readerView'
import { accessLogLine, accessLogRecord, type AccessLogRecord } from '../../edge/accessLog'
import { authorizeRequest, type AuthorizerDeps } from '../../edge/authorizeRequest'
import { createViewerRequestHandler } from '../../edge/cloudfrontHandler'
import type { CloudFrontRequestEvent } from '../../edge/cloudfrontTypes'
import { MAX_COOKIE_HEADER_BYTES } from '../../edge/readIdToken'
import { createIdTokenVerifier } from '../../edge/tokenVerifier'
import { openAccessLog } from '../../scripts/server/accessLogFile'
import { CLIENT, POOL, cookiesFor, idClaims, newKeyPair, signJwt } from './tokens'

const key = newKeyPair('log-key-1')
const CHUNKS = {
  framework: '/_next/static/chunks/framework-abc.js',
  leads: '/_next/static/chunks/7777-0123456789abcdef.js',
  internal: '/_next/static/chunks/9860-0123456789abcdef.js',
}
const deps = {
  access,
  assetRoutes: { [CHUNKS.framework]: '/login', [CHUNKS.leads]: '/docs/leads/intro', [CHUNKS.internal]: '/docs/internal/intro' },
  audiences: [],
  clientId: CLIENT,
  verifyIdToken: createIdTokenVerifier({ userPoolId: POOL, clientId: CLIENT, jwks: { keys: [key.jwk as never] }, fetchUnknownKeys: false }),
} as AuthorizerDeps

/** A real-looking signed-in reader: a signed Cognito ID token in Amplify's cookies. */
function reader(username: string) {
  const token = signJwt(idClaims(username), key)
  return { token, cookie: cookiesFor(username, token) }
}

/** Every record the authorizer hands to the log for one request, and its outcome. */
async function logged(requestPath: string, cookie?: string, query = '') {
  const records: AccessLogRecord[] = []
  const outcome = await authorizeRequest({ path: requestPath, query, cookieHeaders: cookie ? [cookie] : [] }, deps, (record) => records.push(record))
  return { outcome, records, lines: records.map(accessLogLine) }
}

/** Asserts a line holds no part of the token or the cookies it was decided with. */
function expectNoSecrets(line: string, token: string, cookie: string) {
  for (const part of token.split('.')) expect(line).not.toContain(part)
  expect(line).not.toContain('CognitoIdentityServiceProvider')
  expect(line).not.toContain('idToken')
  expect(line).not.toContain(cookie)
  expect(line).not.toContain('LastAuthUser')
}

describe('a page request writes one line with who, where, the decision and the rule', () => {
  test('a reader of the section, served the page', async () => {
    const { token, cookie } = reader('leads1')
    const { outcome, records, lines } = await logged('/docs/leads/intro', cookie, 'tab=2')
    expect(outcome).toEqual({ kind: 'serve', objectKey: '/docs/leads/intro.html' })
    expect(records).toEqual([
      { time: expect.any(String), user: 'leads1', path: '/docs/leads/intro', route: '/docs/leads/intro', decision: 'allow', outcome: 'serve', rule: 'prefix /docs/leads -> leadsUsers' },
    ])
    expect(new Date(records[0].time).toISOString()).toBe(records[0].time)
    expect(Math.abs(Date.parse(records[0].time) - Date.now())).toBeLessThan(5000)
    expect(lines).toHaveLength(1)
    expect(JSON.parse(lines[0])).toEqual(records[0])
    expectNoSecrets(lines[0], token, cookie)
    expect(lines[0]).not.toContain('tab=2')
  })

  test('a signed-in reader refused a page: deny, a redirect to /unauthorized, and the rule that refused', async () => {
    const { token, cookie } = reader('leads1')
    const { records, lines } = await logged('/docs/internal/intro', cookie)
    expect(records).toEqual([
      expect.objectContaining({ user: 'leads1', path: '/docs/internal/intro', decision: 'deny', outcome: 'redirect', redirect: '/unauthorized', rule: 'prefix /docs/internal -> internalUsers' }),
    ])
    expectNoSecrets(lines[0], token, cookie)
  })

  test('an anonymous visitor sent to sign in: the line holds the path, not the query or the `next=` it was sent with', async () => {
    const { outcome, records, lines } = await logged('/docs/leads/intro', undefined, 'next=%2Fdocs%2Finternal&secret=1')
    expect(outcome).toEqual({ kind: 'redirect', location: '/login?next=%2Fdocs%2Fleads%2Fintro%3Fnext%3D%252Fdocs%252Finternal%26secret%3D1' })
    expect(records).toEqual([expect.objectContaining({ user: 'anonymous', path: '/docs/leads/intro', decision: 'login', outcome: 'redirect', redirect: '/login' })])
    expect(lines[0]).not.toMatch(/next|secret|\?/)
  })

  test('the home page, the fallback rule and a public page name their rule; a public page names a signed-in reader', async () => {
    const { cookie } = reader('admin')
    expect((await logged('/', cookie)).records[0]).toMatchObject({ user: 'admin', route: '/', decision: 'allow', rule: 'exact / -> signedIn' })
    expect((await logged('/secret-report', cookie)).records[0]).toMatchObject({ user: 'admin', route: '/secret-report', rule: 'fallback -> fullAccessUsers' })
    expect((await logged('/login', cookie)).records[0]).toMatchObject({ user: 'admin', path: '/login', decision: 'allow', outcome: 'serve', rule: 'public' })
    expect((await logged('/login')).records[0]).toMatchObject({ user: 'anonymous', rule: 'public' })
  })

  test('a forged or cookie-name-only claim is anonymous: the username comes from the verified token alone', async () => {
    const forged = cookiesFor('admin', signJwt(idClaims('admin'), newKeyPair('log-key-1')))
    expect((await logged('/docs/internal/intro', forged)).records[0]).toMatchObject({ user: 'anonymous', decision: 'login' })
    const misfiled = cookiesFor('admin', reader('leads1').token)
    expect((await logged('/docs/internal/intro', misfiled)).records[0]).toMatchObject({ user: 'leads1', decision: 'deny' })
  })

  test('the path is logged as sent, with the route whose rule decided', async () => {
    const { cookie } = reader('leads1')
    expect((await logged('/docs/leads/%2e%2e/internal/intro', cookie)).records[0]).toMatchObject({
      path: '/docs/leads/%2e%2e/internal/intro',
      route: '/docs/internal/intro',
      decision: 'deny',
    })
  })
})

describe('assets: allowed ones write nothing, refused ones a line', () => {
  test('an allowed build file, public file or image writes no line', async () => {
    const { cookie } = reader('leads1')
    expect((await logged(CHUNKS.leads, cookie)).records).toEqual([])
    expect((await logged('/docs/leads/images/quote-flow.svg', cookie)).records).toEqual([])
    expect((await logged('/docs/leads/_pagefind/pagefind.js', cookie)).records).toEqual([])
    expect((await logged(CHUNKS.framework)).records).toEqual([])
  })

  test('a refused build file writes a line naming the page whose rule governs it', async () => {
    const { token, cookie } = reader('leads1')
    const { outcome, records, lines } = await logged(CHUNKS.internal, cookie)
    expect(outcome).toEqual({ kind: 'forbidden' })
    expect(records).toEqual([
      { time: expect.any(String), user: 'leads1', path: CHUNKS.internal, route: '/docs/internal/intro', decision: 'deny', outcome: 'forbidden', rule: 'prefix /docs/internal -> internalUsers' },
    ])
    expectNoSecrets(lines[0], token, cookie)
    const anonymous = await logged(CHUNKS.internal)
    expect(anonymous.outcome).toEqual({ kind: 'unauthorized' })
    expect(anonymous.records).toEqual([
      { time: expect.any(String), user: 'anonymous', path: CHUNKS.internal, route: '/docs/internal/intro', decision: 'login', outcome: 'unauthorized', rule: 'prefix /docs/internal -> internalUsers' },
    ])
  })

  test("the reader view (/_reader.json) writes no line: it refuses nobody, and the page that asked wrote one", async () => {
    const { outcome, records } = await logged(READER_VIEW_PATH, reader('leads1').cookie)
    expect(outcome.kind).toBe('view')
    expect(records).toEqual([])
  })
})

describe('refusals before the rules are asked', () => {
  test('an unreadable path: one line, no route or rule, and the reason', async () => {
    const { cookie } = reader('leads1')
    const { outcome, records } = await logged('/docs/leads/%252e%252e/internal/intro', cookie)
    expect(outcome).toEqual({ kind: 'badRequest' })
    expect(records).toEqual([
      { time: expect.any(String), user: 'leads1', path: '/docs/leads/%252e%252e/internal/intro', route: null, decision: 'deny', outcome: 'badRequest', rule: null, reason: 'unreadable path' },
    ])
  })

  test('cookies too large to read: one line with the reason, and none of the cookies', async () => {
    const { token, cookie } = reader('admin')
    const oversized = `${cookie}; padding=${'p'.repeat(MAX_COOKIE_HEADER_BYTES)}`
    const page = await logged('/docs/internal/intro', oversized)
    expect(page.records).toEqual([expect.objectContaining({ user: 'anonymous', decision: 'deny', outcome: 'redirect', redirect: '/session-too-large', reason: 'cookies too large' })])
    const file = await logged(CHUNKS.internal, oversized)
    expect(file.records).toEqual([expect.objectContaining({ outcome: 'forbidden', reason: 'cookies too large' })])
    for (const line of [...page.lines, ...file.lines]) {
      expectNoSecrets(line, token, cookie)
      expect(line).not.toContain('ppp')
    }
  })
})

test('without a log the outcomes are the same, and nobody is asked who a public page\'s reader is', async () => {
  const verify = jest.fn(deps.verifyIdToken)
  const quiet = { ...deps, verifyIdToken: verify }
  const { cookie } = reader('leads1')
  for (const [requestPath, query] of [['/docs/leads/intro', 'a=1'], ['/docs/internal/intro', ''], [CHUNKS.internal, ''], ['/login', ''], ['/docs/%E0%A4%A', '']]) {
    const withLog = await authorizeRequest({ path: requestPath, query, cookieHeaders: [cookie] }, quiet, () => {})
    expect(await authorizeRequest({ path: requestPath, query, cookieHeaders: [cookie] }, quiet)).toEqual(withLog)
  }
  verify.mockClear()
  await authorizeRequest({ path: '/login', query: '', cookieHeaders: [cookie] }, quiet)
  await authorizeRequest({ path: '/docs/%E0%A4%A', query: '', cookieHeaders: [cookie] }, quiet)
  expect(verify).not.toHaveBeenCalled()
})

test('accessLogRecord is the one builder: the time it is given, in ISO 8601', () => {
  const record = accessLogRecord(
    access,
    { path: '/docs/leads/intro?x=1', route: '/docs/leads/intro', user: { username: 'leads1' }, decision: 'allow', outcome: { kind: 'serve', objectKey: '/docs/leads/intro.html' } },
    new Date(Date.UTC(2025, 0, 2, 3, 4, 5, 6))
  )
  expect(accessLogLine(record!)).toBe(
    '{"time":"2025-01-02T03:04:05.006Z","user":"leads1","path":"/docs/leads/intro","route":"/docs/leads/intro","decision":"allow","outcome":"serve","rule":"prefix /docs/leads -> leadsUsers"}'
  )
})

describe('the adapters write the same line', () => {
  const event = (uri: string, cookie?: string): CloudFrontRequestEvent => ({
    Records: [{ cf: { config: { eventType: 'viewer-request', distributionId: 'E1' }, request: { clientIp: '203.0.113.1', method: 'GET', uri, querystring: 'q=1', headers: cookie ? { cookie: [{ key: 'Cookie', value: cookie }] } : {} } } }],
  })

  test('the CloudFront handler writes with console.log by default: one line per page and per refusal, none for an allowed asset', async () => {
    const { token, cookie } = reader('internal1')
    const handler = createViewerRequestHandler(deps, {})
    const spy = jest.spyOn(console, 'log').mockImplementation(() => {})
    try {
      await handler(event('/docs/internal/intro', cookie))
      await handler(event(CHUNKS.internal, cookie))
      await handler(event('/docs/leads/intro', cookie))
      const lines = spy.mock.calls.map((call) => call.join(' '))
      expect(lines.map((line) => JSON.parse(line))).toEqual([
        expect.objectContaining({ user: 'internal1', path: '/docs/internal/intro', decision: 'allow', outcome: 'serve' }),
        expect.objectContaining({ user: 'internal1', path: '/docs/leads/intro', decision: 'deny', outcome: 'redirect', redirect: '/unauthorized' }),
      ])
      for (const line of lines) expectNoSecrets(line, token, cookie)
    } finally {
      spy.mockRestore()
    }
  })

  test("the local server's file holds, line for line, what the edge writes to the console", async () => {
    const { cookie } = reader('leads1')
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'access-log-'))
    const file = path.join(dir, 'access.log')
    const edgeRecords: AccessLogRecord[] = []
    const edge = createViewerRequestHandler(deps, {}, (record) => edgeRecords.push(record))
    const local = openAccessLog(file)!
    try {
      for (const uri of ['/docs/leads/intro', '/docs/internal/intro', CHUNKS.leads, CHUNKS.internal]) {
        await edge(event(uri, cookie))
        await authorizeRequest({ path: uri, query: 'q=1', cookieHeaders: [cookie] }, deps, local.write)
      }
    } finally {
      local.close()
    }
    const withoutTime = (line: string) => line.replace(/"time":"[^"]+"/, '"time":""')
    const written = fs.readFileSync(file, 'utf8').split('\n').filter(Boolean)
    expect(written).toHaveLength(3)
    expect(written.map(withoutTime)).toEqual(edgeRecords.map(accessLogLine).map(withoutTime))
    fs.rmSync(dir, { recursive: true, force: true })
  })

  test('openAccessLog: off when unset, empty or `off`; `-` is stdout; a file is appended to; a folder that does not exist is an error naming the variable', () => {
    expect(openAccessLog(undefined)).toBeNull()
    expect(openAccessLog('')).toBeNull()
    expect(openAccessLog('off')).toBeNull()
    expect(openAccessLog('-')?.destination).toBe('stdout')
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'access-log-'))
    const file = path.join(dir, 'access.log')
    fs.writeFileSync(file, 'earlier\n')
    const log = openAccessLog(file)!
    log.write({ time: '2025-01-01T00:00:00.000Z', user: 'anonymous', path: '/x', route: '/x', decision: 'login', outcome: 'redirect', redirect: '/login', rule: 'fallback -> fullAccessUsers' })
    log.close()
    expect(fs.readFileSync(file, 'utf8').split('\n')).toEqual(['earlier', expect.stringMatching(/^\{"time":"2025-01-01T00:00:00.000Z",.*\}$/), ''])
    expect(() => openAccessLog(path.join(dir, 'missing', 'access.log'))).toThrow(/DOCS_ACCESS_LOG: cannot open .*missing/)
    fs.rmSync(dir, { recursive: true, force: true })
  })
})
