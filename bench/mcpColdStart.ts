/**
 * The AI tools' server's cold start, as its Lambda function has one: the bundle (mcp/dist/index.js)
 * required in a fresh Node process, and the time until its first answer. Each run is its own
 * process; the figures are medians over the runs.
 *
 * What it measures, and what not: Node's start, loading the bundle, making the server (rules,
 * verifier, search sessions), then a `whoami` tool call answered through the function URL adapter,
 * then a first `search_docs` (which loads Pagefind's WebAssembly and the reader's indexes). The
 * site's files are read from out/ on this disk, not from S3, and the token check is a stand-in (the
 * real verifier with keys in hand costs well under a millisecond); Lambda's own start (the
 * runtime, fetching the code) comes on top.
 *
 * `runBundleFresh` is the driver: it also lets a test search through the bundle, which jest's
 * sandbox cannot (Pagefind is a native import of a data: URL).
 */
import { spawn } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import type { AccessLogRecord } from '../edge/accessLog'
import { FORWARDED_AUTHORIZATION, FORWARDED_HOST, type FunctionUrlEvent, type FunctionUrlResult } from '../mcp/functionUrl'
import { MCP_PATH } from '../mcp/mcpHandler'
import { sitePaths } from '../pipeline/steps/paths'
import { median } from './table'

export interface FreshRunOptions {
  /** The bundle (mcp/dist/index.js). */
  bundle: string
  /** The site's out/, read in place of the bucket. */
  outDir: string
  /** Function URL events, answered in order. */
  events: FunctionUrlEvent[]
  /** A stand-in verifier that accepts only `token`, as `username`; unset, the bundle's own verifier. */
  reader?: { token: string; username: string; groups?: string[] }
  /** Added to the child's environment (the list overrides a build saw, for instance). */
  env?: Record<string, string>
}

export interface FreshRun {
  /** From the process's start until the bundle was loaded. */
  requireMs: number
  /** Each answer, with how long it took and when it came, from the process's start. */
  answers: Array<{ result: FunctionUrlResult; ms: number; sinceStartMs: number }>
  log: AccessLogRecord[]
}

/** Runs in the child: plain CommonJS, so Node alone loads the bundle, as the Lambda runtime does. */
const DRIVER = `
const { performance } = require('node:perf_hooks')
const input = JSON.parse(process.env.DOCS_MCP_FRESH_RUN)
const bundle = require(input.bundle)
const requireMs = performance.now()
const log = []
const reader = input.reader
const server = bundle.createHandler({
  files: bundle.localSiteFiles(input.outDir),
  ...(reader ? { verifyReader: async (token) => (token === reader.token ? { user: { username: reader.username, groups: reader.groups || [] }, expiresAtMs: Date.now() + 3600000 } : null) } : {}),
  log: (record) => log.push(record),
})
;(async () => {
  const answers = []
  for (const event of input.events) {
    const started = performance.now()
    const result = await server.handle(event)
    answers.push({ result, ms: performance.now() - started, sinceStartMs: performance.now() })
  }
  await server.close()
  process.stdout.write(JSON.stringify({ requireMs, answers, log }))
})().catch((error) => {
  console.error(error)
  process.exit(1)
})
`

/** Requires the bundle in a fresh Node process and has it answer `events`. */
export function runBundleFresh(options: FreshRunOptions): Promise<FreshRun> {
  return new Promise((resolve, reject) => {
    const input = { bundle: path.resolve(options.bundle), outDir: path.resolve(options.outDir), events: options.events, reader: options.reader }
    // Never the deployment's bucket: the bundle would make its S3 client at load.
    const { DOCS_SITE_BUCKET: _bucket, ...env } = { ...process.env, ...options.env }
    const child = spawn(process.execPath, ['-e', DRIVER], { env: { ...env, DOCS_MCP_FRESH_RUN: JSON.stringify(input) }, stdio: ['ignore', 'pipe', 'pipe'] })
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (chunk) => (stdout += chunk))
    child.stderr.on('data', (chunk) => (stderr += chunk))
    child.on('error', reject)
    child.on('close', (code) => (code === 0 ? resolve(JSON.parse(stdout) as FreshRun) : reject(new Error(`the bundle's process failed (exit ${code}): ${stderr.trim()}`))))
  })
}

/** A tool call as CloudFront hands it to the function: the reader's token and host where its viewer-request function puts them. */
export function toolCallEvent(name: string, args: Record<string, unknown>, token: string, host = 'docs.example.com'): FunctionUrlEvent {
  return {
    version: '2.0',
    rawPath: MCP_PATH,
    rawQueryString: '',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2025-06-18',
      [FORWARDED_HOST]: host,
      [FORWARDED_AUTHORIZATION]: `Bearer ${token}`,
    },
    body: Buffer.from(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: args } })).toString('base64'),
    isBase64Encoded: true,
    requestContext: { http: { method: 'POST' } },
  }
}

/** The JSON-RPC result of a tool call's answer (a JSON body, or the one message of an SSE stream). */
export function toolResult(result: FunctionUrlResult): { structuredContent?: Record<string, unknown>; isError?: boolean; content?: Array<{ text: string }> } {
  const text = result.isBase64Encoded ? Buffer.from(result.body, 'base64').toString('utf8') : result.body
  const json = (result.headers['content-type'] ?? '').startsWith('text/event-stream') ? (text.split('\n').find((line) => line.startsWith('data: ')) ?? '').slice(6) : text
  const message = JSON.parse(json)
  if (!message.result) throw new Error(`the tool call failed: ${json}`)
  return message.result
}

export interface McpColdStart {
  /** Median, from the process's start to the first answer (a whoami). */
  ms: number
  /** Median time to load the bundle, from the process's start. */
  requireMs: number
  /** Median time of the first search_docs of the instance, after the whoami. */
  firstSearchMs: number
  /** The first answers' times of every run, in order. */
  runs: number[]
}

/** The bundle's cold start over the last build (npm run build makes both): a median over `runs` fresh processes. */
export async function measureMcpColdStart(options: { root?: string; runs?: number; username?: string; query?: string } = {}): Promise<McpColdStart> {
  const paths = sitePaths(options.root)
  const bundle = path.join(paths.mcpDist, 'index.js')
  for (const needed of [bundle, paths.out]) if (!fs.existsSync(needed)) throw new Error(`${needed} is missing: run npm run build first`)
  const reader = { token: 'bench-token', username: options.username ?? 'leads1' }
  const events = [toolCallEvent('whoami', {}, reader.token), toolCallEvent('search_docs', { query: options.query ?? 'quote' }, reader.token)]
  const results: FreshRun[] = []
  for (let run = 0; run < (options.runs ?? 3); run++) {
    const fresh = await runBundleFresh({ bundle, outDir: paths.out, events, reader })
    for (const answer of fresh.answers) toolResult(answer.result)
    results.push(fresh)
  }
  const round = (value: number) => Math.round(value)
  return {
    ms: round(median(results.map((run) => run.answers[0].sinceStartMs))),
    requireMs: round(median(results.map((run) => run.requireMs))),
    firstSearchMs: round(median(results.map((run) => run.answers[1].ms))),
    runs: results.map((run) => round(run.answers[0].sinceStartMs)),
  }
}

if (require.main === module) {
  measureMcpColdStart().then(
    (figures) => console.log(JSON.stringify(figures)),
    (error) => {
      console.error(error instanceof Error ? error.message : error)
      process.exit(1)
    }
  )
}
