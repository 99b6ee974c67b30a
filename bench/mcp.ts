/**
 * The AI tools' server (mcp/) on a generated site of 2,000 pages: `npm run bench mcp`.
 *
 * The generated pages (bench/search.ts generatedSite) are planned as the build plans them, their
 * per-audience Pagefind indexes written with the build's own step, and their Markdown and page
 * catalogs written where the plan puts them. The server runs in this process over those files, as
 * the local server runs it; each figure is the time the server takes to answer one MCP request
 * (handle(Request) to Response, JSON-RPC parsing, the reader's token and the tool included),
 * measured server-side, for a reader of every section and a reader of one:
 * - search_docs: 200 distinct queries after one warm-up query (p50, p95);
 * - get_page: 500 pages drawn at random from those the reader may open (p50, p95).
 * - the function's cold start: the bundle the last `npm run build` made (mcp/dist), required in a
 *   fresh Node process, to its first answer (bench/mcpColdStart.ts).
 * Pass BENCH_RUNS runs; each figure is the median over runs.
 */
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client'
import { access, decide } from '../lib/access'
import { searchDataIn } from '../lib/search/searchRecords'
import { audienceSummaries, type AggregatePlan } from '../lib/access/planAggregates'
import type { PageCatalog } from '../lib/aiTools/pageCatalog'
import { createIdTokenClaimsVerifier } from '../edge/tokenVerifier'
import { createDocsMcpHandler, MCP_PATH } from '../mcp/mcpHandler'
import { searchIndexes } from '../mcp/searchDocs'
import { localSiteFiles } from '../mcp/siteFiles'
import { CLIENT, POOL, idClaims, newKeyPair, signJwt } from '../__tests__/edge/tokens'
import { generatedPlan, generatedSite, queriesFor, writeIndexesOnce } from './search'
import { measureMcpColdStart } from './mcpColdStart'
import { percentile, type Figure } from './table'

const PAGES = 2000
const QUERIES = 200
const READS = 500
const SITE = 'https://docs.example.com'

/** The generated site's files for the server: indexes, Markdown and catalogs, in a temporary out/. */
async function writeSite(dir: string): Promise<{ plan: AggregatePlan; routes: string[]; queries: string[] }> {
  const { data } = generatedSite(PAGES)
  const plan = generatedPlan(data)
  const { stats: written } = await writeIndexesOnce({ data: searchDataIn(data), outRoot: dir, access, plan })
  const write = (key: string, text: string) => {
    fs.mkdirSync(path.dirname(path.join(dir, key)), { recursive: true })
    fs.writeFileSync(path.join(dir, key), text)
  }
  for (const { key, route } of plan.markdown) {
    const page = data[route]
    write(key, `# ${page.title}\n\n${Object.entries(page.data).map(([heading, text]) => (heading ? `## ${heading.split('#')[1]}\n\n${text}` : text)).join('\n\n')}\n`)
  }
  for (const file of plan.catalogs) {
    const catalog: PageCatalog = { pages: file.pages.map((route) => ({ route, title: data[route].title, description: null, lastUpdated: null })), pageMap: { items: [], order: {} } }
    write(file.key, JSON.stringify(catalog))
  }
  const searched = { ...plan, search: plan.search.filter((spec) => written.some((stats) => stats.id === spec.id)) }
  return { plan: searched, routes: plan.markdown.map((file) => file.route), queries: queriesFor(data, QUERIES + 1) }
}

/** One run: the p50 and p95 of each tool for each reader, in ms. */
async function run(dir: string, site: Awaited<ReturnType<typeof writeSite>>): Promise<Record<string, number>> {
  const key = newKeyPair('bench')
  const handler = createDocsMcpHandler({
    site: { access, assetRoutes: {}, audiences: audienceSummaries(site.plan), files: localSiteFiles(dir), search: searchIndexes(localSiteFiles(dir)), siteUrl: SITE },
    verifyReader: createIdTokenClaimsVerifier({ userPoolId: POOL, clientId: CLIENT, jwks: { keys: [key.jwk as never] }, fetchUnknownKeys: false }),
    authorizationServers: [],
  })
  const figures: Record<string, number> = {}
  try {
    for (const username of ['admin', 'leads1']) {
      let last = 0
      const timed = async (input: RequestInfo | URL, init?: RequestInit) => {
        const started = performance.now()
        const response = (await handler.handle(new Request(input, init))) as Response
        const body = await response.arrayBuffer()
        last = performance.now() - started
        return new Response(body, { status: response.status, headers: response.headers })
      }
      const client = new Client({ name: 'bench', version: '1' })
      await client.connect(new StreamableHTTPClientTransport(new URL(MCP_PATH, SITE), { fetch: timed, requestInit: { headers: { authorization: `Bearer ${signJwt(idClaims(username), key)}` } } }))
      const call = async (name: string, args: Record<string, unknown>) => {
        const result = await client.callTool({ name, arguments: args })
        if (result.isError) throw new Error(`${name} ${JSON.stringify(args)} failed: ${JSON.stringify(result.content)}`)
        return last
      }
      const [warmUp, ...queries] = site.queries
      await call('search_docs', { query: warmUp })
      const searches: number[] = []
      for (const query of queries) searches.push(await call('search_docs', { query }))
      const readable = site.routes.filter((route) => decide(route, { username }) === 'allow')
      const reads: number[] = []
      for (let at = 0; at < READS; at++) reads.push(await call('get_page', { path: readable[(at * 7919) % readable.length] }))
      await client.close()
      figures[`${username} search p50`] = percentile(searches, 50)
      figures[`${username} search p95`] = percentile(searches, 95)
      figures[`${username} get_page p50`] = percentile(reads, 50)
      figures[`${username} get_page p95`] = percentile(reads, 95)
    }
  } finally {
    await handler.close()
  }
  return figures
}

export async function mcpFigures(runs: number): Promise<Figure[]> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'docs-bench-mcp-'))
  try {
    const site = await writeSite(dir)
    const results: Array<Record<string, number>> = []
    for (let at = 0; at < runs; at++) results.push(await run(dir, site))
    const cold = await measureMcpColdStart({ runs })
    const coldRuns = [...cold.runs].sort((a, b) => a - b)
    const coldStart: Figure = {
      group: 'mcp',
      name: 'cold start to the first answer (whoami)',
      value: cold.ms,
      min: coldRuns[0],
      max: coldRuns[coldRuns.length - 1],
      runs,
      unit: 'ms',
      method: `the last build's mcp/dist bundle required in a fresh Node process, to its first answer over out/ (require ${cold.requireMs} ms, first search ${cold.firstSearchMs} ms); Lambda's own start and S3 reads come on top; median of ${runs} runs`,
    }
    return [coldStart, ...Object.keys(results[0]).map((name) => {
      const values = results.map((result) => result[name]).sort((a, b) => a - b)
      const reader = name.startsWith('admin') ? 'a reader of every section' : 'a reader of one section'
      return {
        group: 'mcp',
        name: `${name.replace(/^(admin|leads1) /, '')}, ${reader}`,
        value: Number(values[Math.floor(values.length / 2)].toFixed(2)),
        min: Number(values[0].toFixed(2)),
        max: Number(values[values.length - 1].toFixed(2)),
        runs,
        unit: 'ms',
        method: `${PAGES} generated pages; server-side time of one MCP request (${name.includes('search') ? `${QUERIES} distinct queries after a warm-up` : `${READS} pages`}); median of ${runs} runs`,
      }
    })]
  } finally {
    fs.rmSync(dir, { recursive: true, force: true })
  }
}
