/** @jest-environment node */
/**
 * The AI tools' server as it ships to Lambda: pipeline/steps/buildMcp.ts bundles mcp/lambda.ts, and
 * the bundle is loaded by Node itself (not jest's module system), as the Lambda runtime loads it.
 * The bundle takes site files and a verifier in place of the bucket and the pool, so it answers here
 * without a build or AWS. (e2e/mcpBundle.test.ts searches through it, over the audit build.)
 */
import fs from 'node:fs'
import { createRequire } from 'node:module'
import os from 'node:os'
import path from 'node:path'
import { access } from '../../lib/access'
import { audienceSummaries, planAggregates } from '../../lib/access/planAggregates'
import { scanContent } from '../../pipeline/content/contentSource'
import { buildMcp } from '../../pipeline/steps/buildMcp'
import { sitePaths } from '../../pipeline/steps/paths'
import type { AccessLogRecord } from '../../edge/accessLog'
import { FORWARDED_AUTHORIZATION, FORWARDED_HOST, type FunctionUrlEvent, type FunctionUrlResult } from '../../mcp/functionUrl'
import { MCP_PATH } from '../../mcp/mcpHandler'

jest.setTimeout(60_000)

const root = path.resolve(__dirname, '../..')
const plan = planAggregates({ access, routes: scanContent(root).pages.map((page) => page.route) })
let dir: string
let file: string
let bundle: {
  handler: (event: FunctionUrlEvent) => Promise<FunctionUrlResult>
  createHandler: (deps: Record<string, unknown>) => { handle: (event: FunctionUrlEvent) => Promise<FunctionUrlResult>; close: () => Promise<void> }
}

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'docs-mcp-bundle-'))
  const mode = process.env.DOCS_AUTH_MODE
  process.env.DOCS_AUTH_MODE = 'local'
  try {
    ;({ file } = await buildMcp({ paths: { ...sitePaths(root), mcpDist: dir }, assetRoutes: {}, audiences: audienceSummaries(plan), scriptHashes: [] }))
  } finally {
    if (mode === undefined) delete process.env.DOCS_AUTH_MODE
    else process.env.DOCS_AUTH_MODE = mode
  }
  bundle = createRequire(__filename)(file)
})
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }))

test('the bundle exports the Lambda handler and createHandler; the AWS SDK is left to the runtime, and the Pagefind import is native', () => {
  expect(typeof bundle.handler).toBe('function')
  expect(typeof bundle.createHandler).toBe('function')
  const code = fs.readFileSync(file, 'utf8')
  expect(code).toContain('require("@aws-sdk/client-s3")')
  expect(code).toContain('return import(specifier)')
})

test('without the deployment\'s environment the handler says what is missing', async () => {
  await expect(bundle.handler({ rawPath: MCP_PATH, requestContext: { http: { method: 'GET' } } })).rejects.toThrow(/DOCS_SITE_BUCKET is not set/)
})

test('over given site files and verifier, the bundled server answers a tool call with the reader it verified', async () => {
  const log: AccessLogRecord[] = []
  const server = bundle.createHandler({
    files: { read: async () => null },
    verifyReader: async (token: string) => (token === 'reader-token' ? { user: { username: 'leads1', groups: [] }, expiresAtMs: Date.now() + 60_000 } : null),
    log: (record: AccessLogRecord) => log.push(record),
  })
  const call = (authorization?: string) =>
    server.handle({
      rawPath: MCP_PATH,
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-protocol-version': '2025-06-18',
        [FORWARDED_HOST]: 'docs.example.com',
        ...(authorization ? { [FORWARDED_AUTHORIZATION]: authorization } : {}),
      },
      body: Buffer.from(JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'whoami', arguments: {} } })).toString('base64'),
      isBase64Encoded: true,
      requestContext: { http: { method: 'POST' } },
    })
  expect((await call()).statusCode).toBe(401)
  const answer = await call('Bearer reader-token')
  expect(answer.statusCode).toBe(200)
  expect(answer.body).toContain('Signed in as leads1.')
  expect(answer.body).toContain('https://docs.example.com/docs/leads/intro')
  expect(log.map((record) => [record.user, record.outcome])).toEqual([
    ['anonymous', 'unauthorized'],
    ['leads1', 'tool'],
  ])
  await server.close()
})
