/**
 * Search benchmark: `npx tsx bench/search.ts [nextra-data dir or file]`.
 *
 * For the real site (Nextra's search data from the last `next build`: .next/static/chunks, or the
 * path given, or $SEARCH_BENCH_DATA) and for a generated site of 2,000 pages, builds the
 * per-audience Pagefind indexes into a temporary directory with the build's own code
 * (pipeline/planAggregates, lib/search and pipeline/steps/buildSearchIndexes), serves them from a static server on
 * 127.0.0.1, and drives headless Chromium (Debian's, as the browser tests do) through the
 * search box's own loader (lib/search/searchClient, bundled with esbuild):
 *
 * - index size per audience (the pages one rule governs): bytes on disk (index data only, and the whole bundle);
 * - first-query download: a fresh browser context (empty cache) loads search for a reader and
 *   runs one query, fetching the excerpts of the top 8 results; bytes are counted by the server,
 *   by kind, as sent: the server gzips what production's CDN gzips (scripts/server/compression,
 *   the rule the local server uses too; Pagefind's own index files are gzipped already and go as
 *   they are), and the uncompressed total is printed beside it;
 * - query latency: 60 further queries in that page, each = search + excerpts of the top 8
 *   results, timed in the page (performance.now); median and p95, and the requests per query;
 *   then each query's downloads fetched again with no search work, for what the network and
 *   the browser cost alone;
 * - as the search box runs a query: 60 other words in a fresh context of their own, each term
 *   preloaded as on a keystroke and searched after the box's pause;
 * - the search step after a one-page edit: the indexes of 3,000 generated pages written with a
 *   cache, then written again after each of three one-page edits (each indexes one shard again).
 *
 * It also measures the alternative the search box does not use, one Pagefind instance per shard
 * with results merged in JS, for the reader with every section. Each instance imports its own
 * copy of pagefind.js. Creating them all from one pagefind.js, as this bench once did, fails at
 * random ("memory access out of bounds", or silently wrong results): that module keeps its
 * WebAssembly instance in one module-level variable (`let wasmModule,wasmInstance,wasm` in
 * pagefind.js's wasm-bindgen glue, and the same in pagefind-worker.js, where every instance of
 * the module runs in one shared worker); each instance that starts the engine checks the
 * variable before an await and sets it after (`__wbg_init`), so instances loading at the same
 * time compile one WebAssembly each, the last to finish replaces the others, and their index
 * pointers then point into the wrong memory.
 * The search box is safe from this: merged indexes reuse the first instance's engine, and every
 * session imports its own copy of pagefind.js (lib/search/pagefindScript.ts).
 */
import { cacheControlForObject } from '../edge/cacheHeaders'
import { build as esbuild } from 'esbuild'
import fs from 'node:fs'
import http from 'node:http'
import os from 'node:os'
import path from 'node:path'
import type { AddressInfo } from 'node:net'
import { access as shippedAccess, decide } from '../lib/access'
import { SEARCH_PAUSE_MS } from '../lib/search/searchClient'
import { searchDataIn, type NextraSearchData } from '../lib/search/searchRecords'
import { planAggregates, type AggregatePlan } from '../lib/access/planAggregates'
import { buildSearchIndexes, type IndexStats } from '../pipeline/steps/buildSearchIndexes'
import { searchDataOf } from '../pipeline/compile/readDocuments'
import { readStore } from '../pipeline/store/pageStore'
import { CHROMIUM, launchBrowser } from '../e2e/browser'
import { gzipOnce, shouldGzip } from '../scripts/server/compression'
import { median, percentile, type Figure } from './table'

const QUERIES_PER_RUN = 60
const RESULTS_PER_QUERY = 8
const ROOT = path.resolve(__dirname, '..')

// ---------------------------------------------------------------------------------------------
// Generated site: 2,000 pages of MDX-like text, deterministic.

function prng(seed: number) {
  let state = seed >>> 0
  return () => {
    state = (state + 0x6d2b79f5) >>> 0
    let t = state
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

const COMMON = 'the a of to and in is for on with that by this be as are from or it at an can each when which not all if new its use data case call user api event table run job time'.split(' ')
const SYLLABLES = 'ka lo mi ne ra tu be so fi da ge pa ri mo le va zu ho ci te wa no si ju ba re xo ly qu'.split(' ')

function vocabulary(random: () => number, size: number): string[] {
  const words = new Set<string>()
  while (words.size < size) {
    const syllables = 2 + Math.floor(random() * 3)
    let word = ''
    for (let i = 0; i < syllables; i++) word += SYLLABLES[Math.floor(random() * SYLLABLES.length)]
    words.add(word)
  }
  return [...words]
}

/** The plan of the generated site's pages, as the build would make it (lib/access/planAggregates.ts). */
export function generatedPlan(data: NextraSearchData): AggregatePlan {
  return planAggregates({ access: shippedAccess, routes: Object.keys(data) })
}

/** The search step, once, into `outRoot`: its cache (and the records kept beside it) is made for this run and goes with it. */
export async function writeIndexesOnce(options: Omit<Parameters<typeof buildSearchIndexes>[0], 'cacheDir'>): ReturnType<typeof buildSearchIndexes> {
  const cacheRoot = fs.mkdtempSync(path.join(os.tmpdir(), 'search-cache-'))
  try {
    return await buildSearchIndexes({ ...options, cacheDir: path.join(cacheRoot, 'search') })
  } finally {
    fs.rmSync(cacheRoot, { recursive: true, force: true })
  }
}

export function generatedSite(pages = 2000, seed = 7): { data: NextraSearchData; vocabulary: string[] } {
  const random = prng(seed)
  const vocab = vocabulary(random, 6000)
  // Zipf-like: a few words are everywhere, most are rare, as in real docs.
  const word = () => (random() < 0.45 ? COMMON[Math.floor(random() * COMMON.length)] : vocab[Math.floor(Math.pow(random(), 2.2) * vocab.length)])
  const sentence = (min: number, max: number) => Array.from({ length: min + Math.floor(random() * (max - min)) }, word).join(' ') + '.'
  const paragraph = (sentences: number) => Array.from({ length: sentences }, () => sentence(6, 18)).join(' ')
  const title = () => Array.from({ length: 2 + Math.floor(random() * 3) }, () => vocab[Math.floor(random() * vocab.length)]).join(' ')
  const shares: Array<[string, number]> = [['leads', 0.25], ['internal', 0.5], ['support-twilio', 0.25]]
  const data: NextraSearchData = { '/': { title: 'Home', data: { '': paragraph(2) } } }
  for (let page = 0; page < pages; page++) {
    let pick = random()
    const section = shares.find(([, share]) => (pick -= share) < 0)?.[0] ?? 'internal'
    const pageData: Record<string, string> = { '': paragraph(2 + Math.floor(random() * 3)) }
    const headings = 4 + Math.floor(random() * 5)
    for (let h = 0; h < headings; h++) {
      const heading = title()
      pageData[`${heading.replace(/\s+/g, '-')}-${h}#${heading}`] = paragraph(2 + Math.floor(random() * 6))
    }
    data[`/docs/${section}/generated/topic-${Math.floor(page / 50)}/page-${page}`] = { title: title(), data: pageData }
  }
  return { data, vocabulary: vocab }
}

// ---------------------------------------------------------------------------------------------
// Queries: words and short phrases that occur in the site, deterministic.

export function queriesFor(data: NextraSearchData, count: number, seed = 11): string[] {
  const random = prng(seed)
  const words = [...new Set(Object.values(data).flatMap((page) => Object.values(page.data).join(' ').toLowerCase().match(/[a-z]{5,}/g) ?? []))].sort()
  const queries: string[] = []
  while (queries.length < count) {
    const first = words[Math.floor(random() * words.length)]
    queries.push(random() < 0.3 ? `${first} ${words[Math.floor(random() * words.length)]}` : first)
  }
  return queries
}

// ---------------------------------------------------------------------------------------------
// Static server that counts bytes per kind of file.

type Kind = 'js' | 'wasm' | 'entry+meta' | 'index chunks' | 'fragments' | 'other'

function kindOf(urlPath: string): Kind {
  if (/\.pf_fragment$/.test(urlPath)) return 'fragments'
  if (/\.pf_index$|\.pf_filter$/.test(urlPath)) return 'index chunks'
  if (/pagefind-entry\.json$|\.pf_meta$|_pagefind\/shards\.json$/.test(urlPath)) return 'entry+meta'
  if (/\.pagefind$/.test(urlPath)) return 'wasm'
  if (/_pagefind\/.*\.js$/.test(urlPath)) return 'js'
  return 'other'
}

interface Counter {
  /** Bytes sent, by kind. */
  bytes: Record<Kind, number>
  /** Bytes before compression, all kinds. */
  raw: number
  requests: Record<Kind, number>
}

const byKind = (): Record<Kind, number> => ({ js: 0, wasm: 0, 'entry+meta': 0, 'index chunks': 0, fragments: 0, other: 0 })
const emptyCounter = (): Counter => ({ bytes: byKind(), raw: 0, requests: byKind() })

async function startStaticServer(root: string, extra: Record<string, { type: string; body: string }>) {
  let counter = emptyCounter()
  const server = http.createServer((request, response) => {
    const urlPath = decodeURIComponent((request.url ?? '/').split('?')[0])
    const special = extra[urlPath]
    if (special) {
      response.writeHead(200, { 'content-type': special.type, 'cache-control': 'no-store' })
      return response.end(special.body)
    }
    const file = path.join(root, urlPath)
    if (!file.startsWith(root + path.sep) || !fs.existsSync(file) || !fs.statSync(file).isFile()) {
      response.writeHead(404)
      return response.end()
    }
    const stats = fs.statSync(file)
    const contents = fs.readFileSync(file)
    const type = urlPath.endsWith('.js') ? 'text/javascript' : urlPath.endsWith('.json') ? 'application/json' : 'application/octet-stream'
    const gzip = shouldGzip(type, contents.length, request.headers['accept-encoding'])
    const body = gzip ? gzipOnce(file, stats.mtimeMs, contents) : contents
    const kind = kindOf(urlPath)
    counter.bytes[kind] += body.length
    counter.raw += contents.length
    counter.requests[kind]++
    // As the site answers each file (edge/cacheHeaders.ts): index files are kept by no cache, so a
    // query takes what Pagefind already holds in memory, or fetches it again.
    response.writeHead(200, { 'content-type': type, 'content-length': body.length, ...(gzip ? { 'content-encoding': 'gzip' } : {}), vary: 'accept-encoding', 'cache-control': cacheControlForObject(urlPath) })
    response.end(body)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    reset: () => (counter = emptyCounter()),
    counter: () => counter,
    stop: () => new Promise<void>((resolve) => {
      server.closeAllConnections()
      server.close(() => resolve())
    }),
  }
}

/** The page the browser runs: the search box's own client code, plus the per-index alternative. */
const BENCH_PAGE = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>search bench</title></head><body>
<script type="module">
const client = await import('/__searchClient.js')
let run = null
let preload = null
window.benchLoad = async ({ strategy, basePaths, limit }) => {
  const started = performance.now()
  if (strategy === 'multisite') {
    const session = await client.openSearchSession(basePaths.map((basePath) => ({ basePath })), client.importPagefind)
    run = (query) => session.search(query, limit)
    preload = (query) => session.preload(query)
  } else {
    // One instance per shard, each with its own copy of pagefind.js, so no two share WebAssembly (see the top of bench/search.ts).
    const lists = await Promise.all(basePaths.map(async (basePath) => (await (await fetch(basePath + 'shards.json')).json()).map((shard) => ({ basePath, shardPath: basePath + shard + '/' }))))
    const shards = lists.flat()
    const modules = await Promise.all(shards.map(({ basePath }, at) => import(basePath + 'pagefind.js?instance=' + at)))
    const instances = shards.map(({ shardPath }, at) => modules[at].createInstance({ basePath: shardPath, baseUrl: '/', excerptLength: 24, noWorker: true }))
    await Promise.all(instances.map((instance) => instance.init()))
    run = async (query) => {
      const responses = await Promise.all(instances.map((instance) => instance.search(query)))
      const top = responses.flatMap((response) => response.results).sort((a, b) => b.score - a.score).slice(0, limit)
      return Promise.all(top.map((result) => result.data()))
    }
  }
  return performance.now() - started
}
window.benchQuery = async (query) => {
  const started = performance.now()
  const hits = await run(query)
  const ms = performance.now() - started
  // Files this query had to download (index chunks, then excerpt data), from the browser's resource timing.
  const entries = performance.getEntriesByType('resource').filter((entry) => entry.startTime >= started)
  const rounds = [/\.pf_index$/, /\.pf_fragment$/].map((kind) => entries.filter((entry) => kind.test(entry.name)).map((entry) => entry.name)).filter((round) => round.length > 0)
  performance.clearResourceTimings()
  return { ms, hits: hits.length, fetched: entries.length, rounds }
}
// A query's downloads again, fresh from the server, round after round, with no search work: what
// the browser and the server cost alone on this machine.
let replays = 0
window.benchReplay = async (rounds) => {
  const started = performance.now()
  for (const round of rounds) await Promise.all(round.map((url) => fetch(url + '?replay=' + ++replays).then((response) => response.arrayBuffer())))
  const ms = performance.now() - started
  performance.clearResourceTimings()
  return ms
}
// As the search box runs a query: the reader's last keystroke preloads the term's index chunks,
// the query runs after the pause, and the time from then to the results is what the reader waits.
window.benchTyped = async (query, pauseMs) => {
  preload(query)
  await new Promise((resolve) => setTimeout(resolve, pauseMs))
  return window.benchQuery(query)
}
window.benchReady = true
</script></body></html>`

// ---------------------------------------------------------------------------------------------

interface SiteRun {
  site: string
  stats: IndexStats[]
  /** Each index's audience in words: its section, or the rule that governs it (`exact / -> signedIn`, `public`). */
  labels: Record<string, string>
  skipped: number
  runs: Array<{ role: string; strategy: string; indexes: number; firstQuery: string; loadMs: number; firstMs: number; bytes: Counter['bytes']; total: number; raw: number; latencies: number[]; cachedLatencies: number[]; replayLatencies: number[]; typedLatencies: number[]; requestsPerQuery: number; hitRate: number; loadFailed: boolean; failures: number }>
}

const indexDataBytes = (dir: string) => {
  let bytes = 0
  for (const entry of fs.readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (entry.isFile() && /\.(pf_index|pf_fragment|pf_meta|pf_filter)$|pagefind-entry\.json$/.test(entry.name)) bytes += fs.statSync(path.join(entry.parentPath, entry.name)).size
  }
  return bytes
}

async function benchSite(site: string, data: NextraSearchData, firstQuery: string, browser: Awaited<ReturnType<typeof launchBrowser>>, clientBundle: string): Promise<SiteRun & { dataBytes: Record<string, number> }> {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), `search-bench-${site}-`))
  try {
    const started = Date.now()
    const plan = generatedPlan(data)
    const { stats, skipped } = await writeIndexesOnce({ data: searchDataIn(data), outRoot: root, access: shippedAccess, plan })
    process.stderr.write(`bench search: ${site}: ${stats.reduce((n, s) => n + s.records, 0)} records indexed in ${Date.now() - started} ms\n`)
    const dataBytes = Object.fromEntries(stats.map((s) => [s.id, indexDataBytes(path.join(root, s.dir))]))
    const server = await startStaticServer(root, {
      '/__bench.html': { type: 'text/html; charset=utf-8', body: BENCH_PAGE },
      '/__searchClient.js': { type: 'text/javascript', body: clientBundle },
    })
    const queries = queriesFor(data, QUERIES_PER_RUN)
    const typedQueries = queriesFor(data, QUERIES_PER_RUN, 13)
    const runs: SiteRun['runs'] = []
    try {
      const plans: Array<[role: string, strategy: string]> = [['admin', 'multisite'], ['internal1', 'multisite'], ['leads1', 'multisite'], ['admin', 'instance per shard']]
      for (const [role, strategy] of plans) {
        const basePaths = plan.search.filter((spec) => decide(spec.governedBy, { username: role }) === 'allow').map((spec) => spec.basePath)
        const loadScript = `window.benchLoad(${JSON.stringify({ strategy, basePaths, limit: RESULTS_PER_QUERY })})`
        const failures: string[] = []
        // A fresh browser context (empty cache) with the bench page loaded, whose page scripts fail into `failures`.
        const openSession = async () => {
          const context = await browser.newContext()
          const page = await context.newPage()
          await page.goto(`${server.url}/__bench.html`)
          await page.waitForFunction(() => (window as unknown as { benchReady?: boolean }).benchReady === true)
          const evaluate = async <T>(script: string, what: string): Promise<T | null> => {
            try {
              return (await page.evaluate(script)) as T
            } catch (error) {
              failures.push(`${what}: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}`)
              return null
            }
          }
          return { evaluate, close: () => context.close() }
        }
        process.stderr.write(`bench search: ${site}: ${role}, ${strategy}\n`)
        const session = await openSession()
        server.reset()
        const loadMs = (await session.evaluate<number>(loadScript, 'load')) ?? NaN
        const first = (await session.evaluate<{ ms: number; hits: number }>(`window.benchQuery(${JSON.stringify(firstQuery)})`, `query "${firstQuery}"`)) ?? { ms: NaN, hits: 0 }
        const { bytes, raw } = server.counter()
        const loadFailed = failures.length > 0
        server.reset()
        const latencies: number[] = []
        // Queries whose files were all in the browser already: the engine and the page, without the network.
        const cachedLatencies: number[] = []
        let withHits = 0
        const downloads: string[][][] = []
        for (const query of queries) {
          const result = await session.evaluate<{ ms: number; hits: number; fetched: number; rounds: string[][] }>(`window.benchQuery(${JSON.stringify(query)})`, `query "${query}"`)
          if (!result) continue
          latencies.push(result.ms)
          downloads.push(result.rounds)
          if (result.fetched === 0) cachedLatencies.push(result.ms)
          if (result.hits > 0) withHits++
        }
        const requestsPerQuery = Object.values(server.counter().requests).reduce((a, b) => a + b, 0) / queries.length
        const replayLatencies: number[] = []
        for (const rounds of downloads) {
          const ms = await session.evaluate<number>(`window.benchReplay(${JSON.stringify(rounds)})`, 'replay')
          if (ms !== null) replayLatencies.push(ms)
        }
        await session.close()
        // Only the search box's strategy has a preload. Its queries run in a session of their own, so
        // the queries above warm neither the engine (a fresh tab's first queries are its slowest)
        // nor the cache; and they are other words, so nothing they need is loaded before they are typed.
        const typedLatencies: number[] = []
        if (strategy === 'multisite') {
          const typing = await openSession()
          if ((await typing.evaluate<number>(loadScript, 'load for typed queries')) !== null) {
            for (const query of typedQueries) {
              const result = await typing.evaluate<{ ms: number }>(`window.benchTyped(${JSON.stringify(query)}, ${SEARCH_PAUSE_MS})`, `typed query "${query}"`)
              if (result) typedLatencies.push(result.ms)
            }
          }
          await typing.close()
        }
        if (failures.length) process.stderr.write(`bench search: ${site}, ${role}, ${strategy}: ${failures.length} failure(s), first: ${failures[0]}\n`)
        const total = Object.values(bytes).reduce((a, b) => a + b, 0)
        runs.push({ role, strategy, indexes: basePaths.length, firstQuery, loadMs, firstMs: first.ms, bytes, total, raw, latencies, cachedLatencies, replayLatencies, typedLatencies, requestsPerQuery, hitRate: withHits / queries.length, loadFailed, failures: queries.length - latencies.length })
      }
    } finally {
      await server.stop()
    }
    const labels = Object.fromEntries(plan.audiences.map((audience) => [audience.id, audience.kind === 'section' ? audience.id : audience.rule]))
    return { site, stats, labels, skipped: skipped.length, runs, dataBytes }
  } finally {
    fs.rmSync(root, { recursive: true, force: true })
  }
}

function findRealData(): NextraSearchData | null {
  const candidates = [process.argv[2], process.env.SEARCH_BENCH_DATA, ROOT, process.env.AUDIT_SITE_DIR]
  for (const candidate of candidates) {
    if (!candidate || !fs.existsSync(candidate)) continue
    if (fs.statSync(candidate).isFile()) return JSON.parse(fs.readFileSync(candidate, 'utf8')) as NextraSearchData
    const pages = readStore(candidate).pages
    if (Object.keys(pages).length === 0) continue
    try {
      const { routes, read } = searchDataOf(candidate, pages)
      const data: NextraSearchData = {}
      for (const route of routes) {
        const page = read(route)
        if (page) data[route] = page
      }
      return data
    } catch {
      continue
    }
  }
  return null
}

const kB = (bytes: number) => (bytes / 1024).toFixed(1)
const fixed = (value: number | undefined) => (value === undefined || !Number.isFinite(value) ? '-' : value.toFixed(1))

function table(header: string[], rows: string[][]): string {
  const widths = header.map((title, column) => Math.max(title.length, ...rows.map((row) => row[column].length)))
  const line = (cells: string[]) => cells.map((cell, column) => (column < 3 ? cell.padEnd(widths[column]) : cell.padStart(widths[column]))).join('  ')
  return [line(header), widths.map((width) => '-'.repeat(width)).join('  '), ...rows.map(line)].join('\n')
}

/** The search step's time (writeSearchIndexes with its cache), clean and after each of `edits` one-page edits of the largest audience. */
async function editTimes(pages: number, edits = 3): Promise<{ clean: number; edited: number[]; shards: number; indexed: number[] }> {
  const { data } = generatedSite(pages)
  const plan = generatedPlan(data)
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'search-bench-edit-'))
  try {
    const write = async (site: NextraSearchData) => {
      const started = performance.now()
      const { stats } = await buildSearchIndexes({ data: searchDataIn(site), outRoot: path.join(root, 'out'), access: shippedAccess, plan, cacheDir: path.join(root, 'cache') })
      return { ms: performance.now() - started, stats }
    }
    const clean = await write(data)
    const largest = [...plan.search].sort((a, b) => b.pages.length - a.pages.length)[0]
    const edited: number[] = []
    const indexed: number[] = []
    // Edits one after another, each on the last one's text, as a writer makes them.
    let site = data
    for (let edit = 0; edit < edits; edit++) {
      const route = largest.pages[(edit * 97) % largest.pages.length]
      const page = site[route]
      site = { ...site, [route]: { ...page, data: { ...page.data, '': `${page.data['']} Edited ${edit}.` } } }
      const run = await write(site)
      edited.push(run.ms)
      indexed.push(run.stats.reduce((sum, s) => sum + s.indexed, 0))
    }
    return { clean: clean.ms, edited, shards: clean.stats.reduce((sum, s) => sum + s.shards, 0), indexed }
  } finally {
    fs.rmSync(root, { recursive: true, force: true })
  }
}

const EDIT_PAGES = 3000

/** Runs the whole benchmark and returns figures in bench/table.ts's shape (for bench/run.ts), printing the tables. */
export async function searchFigures(): Promise<Figure[]> {
  const started = Date.now()
  const bundled = await esbuild({ entryPoints: [path.join(ROOT, 'lib/search/searchClient.ts')], bundle: true, format: 'esm', platform: 'browser', write: false, logLevel: 'silent' })
  const clientBundle = bundled.outputFiles[0].text
  const sites: Array<{ name: string; data: NextraSearchData; firstQuery: string }> = []
  const real = findRealData()
  if (real) sites.push({ name: 'real site', data: real, firstQuery: 'watermark' })
  else process.stderr.write('bench search: no Nextra search data found (run `next build`, or pass the nextra-data file or its directory); the real site is skipped\n')
  const generated = generatedSite(2000)
  sites.push({ name: 'generated 2,000 pages', data: generated.data, firstQuery: queriesFor(generated.data, 1, 5)[0] })

  const browser = await launchBrowser()
  const results: Array<Awaited<ReturnType<typeof benchSite>>> = []
  try {
    for (const site of sites) results.push(await benchSite(site.name, site.data, site.firstQuery, browser, clientBundle))
  } finally {
    await browser.close()
  }

  console.log('\nIndex size per section (bytes on disk; "index data" = entry, meta, index chunks and fragments; "bundle" adds pagefind.js and its WebAssembly (the build ships no worker))')
  console.log(table(
    ['site', 'index', 'path', 'pages', 'records', 'shards', 'files', 'index data', 'bundle'],
    results.flatMap((r) => r.stats.map((s) => [r.site, s.id, `/${s.dir}/`, String(s.pages), String(s.records), String(s.shards), String(s.files), String(r.dataBytes[s.id]), String(s.bytes)]))
  ))
  console.log(`\nFirst query, cold cache: bytes the browser downloaded, as sent (load search for the reader's indexes, one query, excerpts of the top ${RESULTS_PER_QUERY})`)
  console.log(table(
    ['site', 'reader', 'strategy', 'indexes', 'query', 'js', 'wasm', 'entry+meta', 'index chunks', 'fragments', 'total kB', 'uncompressed kB', 'load ms', 'query ms'],
    results.flatMap((r) => r.runs.map((run) => [r.site, run.role, run.strategy, String(run.indexes), run.firstQuery, String(run.bytes.js), String(run.bytes.wasm), String(run.bytes['entry+meta']), String(run.bytes['index chunks']), String(run.bytes.fragments), kB(run.total), kB(run.raw), fixed(run.loadMs), fixed(run.firstMs)]))
  ))
  console.log(`\nQuery latency after load: ${QUERIES_PER_RUN} queries each (search + excerpts of the top ${RESULTS_PER_QUERY}), timed in the page`)
  console.log(table(
    ['site', 'reader', 'strategy', 'load + first query', 'queries', 'failed', 'with hits', 'requests/query', 'median ms', 'p95 ms', 'max ms', 'no download', 'its median ms', 'downloads alone: median ms', 'p95 ms'],
    results.flatMap((r) => r.runs.map((run) => [r.site, run.role, run.strategy, run.loadFailed ? 'FAILED' : 'ok', String(QUERIES_PER_RUN), String(run.failures), `${Math.round(run.hitRate * 100)}%`, run.requestsPerQuery.toFixed(1), fixed(median(run.latencies)), fixed(percentile(run.latencies, 95)), fixed(Math.max(...run.latencies)), String(run.cachedLatencies.length), run.cachedLatencies.length ? fixed(median(run.cachedLatencies)) : '-', fixed(median(run.replayLatencies)), fixed(percentile(run.replayLatencies, 95))]))
  ))
  console.log(`"downloads alone": each query's downloads fetched again, fresh from the server, one round (index chunks, then excerpt data) after the other, with no search work`)
  console.log(`\nAs the search box runs it: ${QUERIES_PER_RUN} other queries in a fresh browser context of their own (search just loaded, nothing queried yet), each preloaded as if just typed, then run after the search box's ${SEARCH_PAUSE_MS} ms pause; timed from the end of the pause to the results`)
  console.log(table(
    ['site', 'reader', 'strategy', 'queries', 'median ms', 'p95 ms', 'max ms'],
    results.flatMap((r) => r.runs.filter((run) => run.typedLatencies.length).map((run) => [r.site, run.role, run.strategy, String(run.typedLatencies.length), fixed(median(run.typedLatencies)), fixed(percentile(run.typedLatencies, 95)), fixed(Math.max(...run.typedLatencies))]))
  ))
  const edit = await editTimes(EDIT_PAGES)
  console.log(`\nThe search step on ${EDIT_PAGES.toLocaleString('en')} generated pages (${edit.shards} shards): ${fixed(edit.clean)} ms clean; after a one-page edit ${edit.edited.map(fixed).join(', ')} ms (shards indexed again: ${edit.indexed.join(', ')})`)
  console.log(`\nMethod: headless Chromium (${CHROMIUM}) against a static server on 127.0.0.1 (no network delay; gzip as production sends it); bytes counted by the server; ${((Date.now() - started) / 1000).toFixed(0)} s in all.`)

  const method = 'headless Chromium, static server on 127.0.0.1 gzipping as production does, bytes sent counted by the server'
  const figures: Figure[] = []
  const stepMethod = 'writeSearchIndexes with its cache (the build\'s search step without reading its input), after appending a sentence to one page of the largest audience'
  figures.push({ group: 'search', name: `${EDIT_PAGES} generated pages: search step, clean`, value: +(edit.clean / 1000).toFixed(2), unit: 's', method: 'writeSearchIndexes with an empty cache' })
  figures.push({ group: 'search', name: `${EDIT_PAGES} generated pages: search step after a one-page edit, median`, value: +(median(edit.edited) / 1000).toFixed(2), unit: 's', min: Math.min(...edit.edited) / 1000, max: Math.max(...edit.edited) / 1000, runs: edit.edited.length, method: stepMethod })
  for (const r of results) {
    for (const s of r.stats) figures.push({ group: 'search', name: `${r.site}: index ${r.labels[s.id] ?? s.id} (index data)`, value: +(r.dataBytes[s.id] / 1024).toFixed(1), unit: 'kB', method: 'bytes on disk' })
    for (const run of r.runs) {
      if (run.latencies.length === 0) continue
      const name = `${r.site}: ${run.role}, ${run.strategy}`
      figures.push({ group: 'search', name: `${name}, first-query download`, value: +(run.total / 1024).toFixed(1), unit: 'kB', method })
      figures.push({ group: 'search', name: `${name}, first-query download uncompressed`, value: +(run.raw / 1024).toFixed(1), unit: 'kB', method: 'as above, bodies before gzip' })
      figures.push({ group: 'search', name: `${name}, query latency median`, value: +median(run.latencies).toFixed(2), unit: 'ms', min: Math.min(...run.latencies), max: Math.max(...run.latencies), runs: run.latencies.length, method })
      figures.push({ group: 'search', name: `${name}, query latency p95`, value: +percentile(run.latencies, 95).toFixed(2), unit: 'ms', method })
      if (run.replayLatencies.length) figures.push({ group: 'search', name: `${name}, the same downloads without search work, p95`, value: +percentile(run.replayLatencies, 95).toFixed(2), unit: 'ms', method: `${method}; each query's downloads fetched again, fresh, round after round` })
      if (run.typedLatencies.length) {
        const typedMethod = `${method}; a fresh context of its own; term preloaded, query run after the search box's ${SEARCH_PAUSE_MS} ms pause`
        figures.push({ group: 'search', name: `${name}, latency after the typing pause, median`, value: +median(run.typedLatencies).toFixed(2), unit: 'ms', min: Math.min(...run.typedLatencies), max: Math.max(...run.typedLatencies), runs: run.typedLatencies.length, method: typedMethod })
        figures.push({ group: 'search', name: `${name}, latency after the typing pause, p95`, value: +percentile(run.typedLatencies, 95).toFixed(2), unit: 'ms', method: typedMethod })
      }
    }
  }
  return figures
}

if (require.main === module) {
  searchFigures().catch((error: unknown) => {
    console.error(`bench search: ${error instanceof Error ? error.stack : String(error)}`)
    process.exit(1)
  })
}
