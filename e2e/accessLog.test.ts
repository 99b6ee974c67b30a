/**
 * The access log through the real local server (the same authorizer as the edge), writing to a
 * file as with DOCS_ACCESS_LOG=<file>: a signed-in reader's page and a refusal write one line each; an
 * allowed asset and the reader view write none; no line holds the token, a cookie or the query.
 */
import { sitePaths } from '../pipeline/steps/paths'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { readAuthSettings } from '../lib/auth/authSettings'
import { readScriptHashesFile } from '../edge/scriptHashesFile'
import { amplifyCookieHeader, signInIdToken } from '../scripts/audit/cognitoSession'
import { startLocalServer, type RunningServer } from '../scripts/server/localServer'
import { outDirObjects } from '../scripts/server/siteObjects'
import { PASSWORD, siteEnv } from './siteEnv'

const { dir, outDir, cognitoUrl, access, audiences } = siteEnv()
const logDir = fs.mkdtempSync(path.join(os.tmpdir(), 'docs-access-log-'))
const logFile = path.join(logDir, 'access.log')
let server: RunningServer
let token: string
let cookie: string

beforeAll(async () => {
  const jwks = await fetch(`${cognitoUrl}/eu-west-2_LocalDocs/.well-known/jwks.json`).then((response) => response.json())
  // The destination `DOCS_ACCESS_LOG=<file> npm start` hands the server (scripts/server/startStack.ts).
  server = await startLocalServer({
    objects: outDirObjects(outDir),
    auth: readAuthSettings({ DOCS_AUTH_MODE: 'local', DOCS_COGNITO_ENDPOINT: cognitoUrl }),
    jwks,
    assetRoutes: JSON.parse(fs.readFileSync(sitePaths(dir).assetRoutes, 'utf8')),
    scriptHashes: readScriptHashesFile(sitePaths(dir).scriptHashes),
    audiences,
    access,
    port: 0,
    // Pages and files only: the AI tools' sign-in (an ES-module library jest cannot load) is not under test here.
    aiToolSignIn: false,
    accessLog: logFile,
  })
  token = await signInIdToken(cognitoUrl, 'leads1', PASSWORD)
  cookie = amplifyCookieHeader('leads1', token)
})

afterAll(async () => {
  await server?.stop()
  fs.rmSync(logDir, { recursive: true, force: true })
})

/** What a browser sends when it opens a page (Node's fetch would say `cors`: not a navigation). */
const NAVIGATE = { 'sec-fetch-mode': 'navigate', 'sec-fetch-dest': 'document' }

/** A GET as a browser opening `urlPath` sends it, or with the Fetch Metadata given; status and Location. */
async function get(urlPath: string, withCookie = true, fetchMetadata: Record<string, string> = NAVIGATE): Promise<{ status: number; location: string | null }> {
  const http = await import('node:http')
  return new Promise((resolve, reject) => {
    const request = http.get(server.url + urlPath, { headers: { ...fetchMetadata, ...(withCookie ? { cookie } : {}) } }, (response) => {
      response.resume()
      response.on('end', () => resolve({ status: response.statusCode ?? 0, location: response.headers.location ?? null }))
    })
    request.on('error', reject)
  })
}
const lines = () => fs.readFileSync(logFile, 'utf8').split('\n').filter(Boolean)

test('a signed-in reader\'s page and a refusal each write one line to the file; an allowed asset and the reader view write none', async () => {
  // The one docs route's script, which every signed-in reader loads.
  const docsChunk = fs.readdirSync(path.join(outDir, '_next/static/chunks/pages')).find((name) => name.startsWith('[[...slug]]-'))
  expect(docsChunk).toBeDefined()

  const page = await get('/docs/leads/intro?from=search&next=%2Fdocs%2Finternal')
  expect(page.status).toBe(200)
  expect(lines()).toHaveLength(1)

  expect((await get(`/_next/static/chunks/pages/${encodeURIComponent(docsChunk!)}`)).status).toBe(200)
  expect((await get('/_reader.json')).status).toBe(200)
  expect(lines()).toHaveLength(1)

  const refused = await get('/docs/internal/intro')
  expect(refused.status).toBe(302)
  expect(lines()).toHaveLength(2)

  const [read, refusal] = lines().map((line) => JSON.parse(line))
  expect(read).toEqual({
    time: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
    user: 'leads1',
    path: '/docs/leads/intro',
    route: '/docs/leads/intro',
    decision: 'allow',
    outcome: 'serve',
    rule: 'prefix /docs/leads -> leadsUsers',
  })
  expect(refusal).toEqual({
    time: expect.any(String),
    user: 'leads1',
    path: '/docs/internal/intro',
    route: '/docs/internal/intro',
    decision: 'deny',
    outcome: 'redirect',
    redirect: '/unauthorized',
    rule: 'prefix /docs/internal -> internalUsers',
  })

  const text = fs.readFileSync(logFile, 'utf8')
  for (const part of token.split('.')) expect(text).not.toContain(part)
  for (const secret of [cookie, 'CognitoIdentityServiceProvider', 'idToken', 'from=search', 'next=']) expect(text).not.toContain(secret)
})

test('an anonymous visitor sent to sign in writes one line, without the query it came with', async () => {
  const before = lines().length
  const response = await get('/docs/support-twilio/diagram?next=%2Fsecret', false)
  expect(response.status).toBe(302)
  expect(response.location).toMatch(/^\/login\?next=/)
  const added = lines().slice(before).map((line) => JSON.parse(line))
  expect(added).toEqual([expect.objectContaining({ user: 'anonymous', path: '/docs/support-twilio/diagram', decision: 'login', outcome: 'redirect', redirect: '/login' })])
  expect(JSON.stringify(added)).not.toContain('secret')
})

test("a refused file that is not a navigation (a page's data, fetched) writes what the reader got: unauthorized (401) or forbidden (403), no redirect", async () => {
  const [build] = fs.readdirSync(path.join(outDir, '_next/data'))
  const data = `/_next/data/${build}/docs/internal/intro.json`
  const before = lines().length
  const fetched = { 'sec-fetch-mode': 'cors', 'sec-fetch-dest': 'empty' }
  expect((await get(data, false, fetched)).status).toBe(401)
  expect((await get(data, true, fetched)).status).toBe(403)
  expect(lines().slice(before).map((line) => JSON.parse(line))).toEqual([
    { time: expect.any(String), user: 'anonymous', path: data, route: '/docs/internal/intro', decision: 'login', outcome: 'unauthorized', rule: 'prefix /docs/internal -> internalUsers' },
    { time: expect.any(String), user: 'leads1', path: data, route: '/docs/internal/intro', decision: 'deny', outcome: 'forbidden', rule: 'prefix /docs/internal -> internalUsers' },
  ])
})
