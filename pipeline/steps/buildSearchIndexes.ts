/**
 * A step of the site build (pipeline/steps/buildSteps.ts), after the render step and before postbuild:
 * writes one Pagefind index per audience (the pages one rule governs), where the plan puts it
 * (lib/access/planAggregates.ts): under the rule's own folder, or mapped to one of its pages by
 * the routes step's asset routes. Each index is cut into shards (pipeline/steps/assignSearchShards.ts), so an
 * edit indexes one shard again and takes the others from the last build's cache. Its input is each
 * page's search data as the content step compiled it (pipeline/compile/readDocuments.ts
 * searchDataOf), read one page at a time to place the page and hash its records (unless it is as
 * when it was last placed), and again, a shard at a time, only for a shard that is indexed again,
 * so the step never holds more than a shard's text and an edit reads only what it changed. Shards
 * to index are indexed a few at once, each by a Pagefind process of its own (searchLanes).
 *
 * Fails, naming the page, if a record would land in an index whose readers may not read its page.
 */
import { fork } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import type { CompiledAccess } from '../../lib/access/compileAccess'
import { searchDocuments, type SearchDocument } from '../../lib/search/searchDocuments'
import { linkOrCopy, listFiles, readJsonObject, sha256, takeRecord, writeAtomically } from '../files'
import type { AggregatePlan, SearchIndexSpec } from '../../lib/access/planAggregates'
import { assertGrouping, pageRecords, placeSearchPages, sectionTitleOf, type SearchData, type SearchRecord, type SkippedPage } from '../../lib/search/searchRecords'
import { PAGEFIND_SCRIPT, SHARD_LIST_FILE, shardFolder } from '../../lib/search/searchShards'
import type { OutWrites } from './outFiles'
import { buildShardPages, shardGroup, type Shard } from './assignSearchShards'
import { writeShardFiles } from './pagefindShard.mjs'

export interface IndexStats {
  id: string
  dir: string
  pages: number
  records: number
  /** How many shards the index has, and how many of them this build indexed (the others came from the cache). */
  shards: number
  indexed: number
  files: number
  bytes: number
}

/**
 * A shard folder's files: their count, bytes, and a stamp of each one's name, inode, size and time
 * (Pagefind's script, which the index's folder holds once, aside). A folder of out/ and its cache
 * entry are links of the same files, so an edit of either, in place, changes both, and the stamp.
 */
function dirStats(dir: string): { files: number; bytes: number; stamp: string } {
  const keys = listFiles(dir).filter((key) => key !== `/${PAGEFIND_SCRIPT}`)
  const stats = keys.map((key) => fs.statSync(path.join(dir, key)))
  return { files: keys.length, bytes: stats.reduce((sum, stat) => sum + stat.size, 0), stamp: sha256(keys.map((key, at) => `${key}\t${stats[at].ino}\t${stats[at].size}\t${stats[at].mtimeMs}`).join('\n')) }
}

/** A shard folder of out/ as the search step left it: the cache entry it was placed from (bundleKey), and its files (dirStats). */
interface OutShard {
  key: string
  files: number
  bytes: number
  stamp?: string
}

/**
 * Which shard folders of out/ the last search step placed, by path under out/, for out/ kept in
 * place (pipeline/render/renderPlan.ts): a folder that is still there and holds the key this build
 * plans is left as it is, so its files keep their inodes and the build's record of out/ its
 * hashes. Taken (removed) when the step starts and written when it ends: a step that stops half
 * way leaves none, and the next one places every shard again.
 */
interface OutShards {
  outRoot: string
  shards: Record<string, OutShard>
}

const outShardsFile = (cacheDir: string) => `${cacheDir}-out.json`

function takeOutShards(cacheDir: string, outRoot: string): Record<string, OutShard> {
  // None yet, or unreadable: every shard is placed again.
  const recorded = takeRecord(outShardsFile(cacheDir)) as Partial<OutShards> | null
  return recorded?.outRoot === path.resolve(outRoot) && recorded.shards ? recorded.shards : {}
}

/**
 * The size Pagefind aims at for each file of an index's word list, in bytes (its default is
 * 20,000). A query downloads the file that holds each of its words, from every index the reader
 * has, before the first result. Half the default halves what a query downloads, for a little more
 * metadata per index (docs/benchmarks.md). Pagefind 1.6 reads it from the environment of its indexing
 * process only (`PAGEFIND_UNSTABLE_INDEX_CHUNK_SIZE`, undocumented);
 * __tests__/search/writeSearchIndexes.test.ts fails if an upgrade stops honouring it.
 */
export const INDEX_CHUNK_BYTES = 10_000


let installedPagefind: { dir: string; json: { version: string; exports?: { '.'?: { import?: string } } } } | undefined

/** Pagefind as Node would find it from here: its folder and its package.json, read once (it exports neither a CommonJS entry nor `./package.json`). */
function pagefindPackage(): NonNullable<typeof installedPagefind> {
  if (installedPagefind) return installedPagefind
  for (const dir of require.resolve.paths('pagefind') ?? []) {
    const file = path.join(dir, 'pagefind', 'package.json')
    if (fs.existsSync(file)) return (installedPagefind = { dir: path.dirname(file), json: JSON.parse(fs.readFileSync(file, 'utf8')) })
  }
  throw new Error('search: cannot find the installed package pagefind')
}

/** An index to write: its audience's pages, each with the digest of its records, which are read again only for a shard indexed again. */
interface IndexPlan {
  spec: SearchIndexSpec
  pages: string[]
  /** sha256 of each page's records (route, URLs, text), by route. */
  digests: Map<string, string>
  records: number
}

/** A page's records, read when its shard is indexed. */
type RecordsOf = (route: string) => SearchRecord[]

function bundleKey(index: IndexPlan, shard: Shard): string {
  return sha256(JSON.stringify([pagefindPackage().json.version, INDEX_CHUNK_BYTES, index.spec.outDir, shard.shard, shard.pages.map((route) => index.digests.get(route))])).slice(0, 32)
}

type Pagefind = typeof import('pagefind')

/**
 * Pagefind's module, from the file its exports name for `import`, loaded at once where Node can
 * require an ES module (20.19 and later). An `import()` reads its files in turns of this thread's
 * event loop, which the content steps hold for a second at a time, so the search step often
 * waited on it (docs/benchmarks.md). Elsewhere (an older Node, a module that needs `import`), imported.
 */
function loadPagefind(): Promise<Pagefind> {
  const { dir, json } = pagefindPackage()
  const entry = json.exports?.['.']?.import
  try {
    if (typeof entry === 'string') return Promise.resolve(require(path.join(dir, entry)) as Pagefind)
  } catch {
    // Imported below.
  }
  return import('pagefind')
}

type PagefindIndex = Awaited<ReturnType<Pagefind['createIndex']>>

/** Pagefind's settings for a new index, the same for every shard. */
const INDEX_CONFIG = { forceLanguage: 'en' } as const

/**
 * Runs `start` (which may start Pagefind's indexing process: it takes this process's environment
 * then) with Pagefind's index chunk size set; only Pagefind reads it, so it stays set.
 */
function withChunkSize<T>(start: () => T): T {
  process.env.PAGEFIND_UNSTABLE_INDEX_CHUNK_SIZE = String(INDEX_CHUNK_BYTES)
  return start()
}

/** Pagefind, loaded and with a first index made, before the search step (startPagefindAhead). */
let ahead: { pagefind: Promise<Pagefind>; index: Promise<PagefindIndex> } | null = null

/**
 * Loads Pagefind, starts its indexing process and makes the index of the search step's first shard
 * to index, while this thread waits (the build: on a page's compile). Pagefind's replies reach this
 * thread only when it is free, and the steps beside search keep it busy then (docs/benchmarks.md).
 * A search step with nothing to index ends the process unused. Settles once that index is made (or
 * could not be: the search step meets the failure).
 */
export function startPagefindAhead(): Promise<void> {
  if (!ahead) {
    const pagefind = loadPagefind()
    const index = pagefind.then((module) => withChunkSize(() => module.createIndex(INDEX_CONFIG)))
    // Awaited when the search step takes them; a failure meanwhile is met there, or never.
    pagefind.catch(() => {})
    index.catch(() => {})
    ahead = { pagefind, index }
  }
  return ahead.index.then(
    () => undefined,
    () => undefined
  )
}

/**
 * Puts the files of `from` at `to` as hard links, not copies: a shard is hundreds of small files,
 * and linking them is far cheaper than copying them (docs/benchmarks.md, search shards). The cache and out/ then share the files, which is safe because nothing writes
 * into a Pagefind file after Pagefind (a later build removes or replaces out/'s names, never the
 * files' bytes). Copies where links cannot be made (../files.ts linkOrCopy).
 */
function linkTree(from: string, to: string, skip: ReadonlySet<string> = new Set()): void {
  fs.mkdirSync(to, { recursive: true })
  for (const entry of fs.readdirSync(from, { withFileTypes: true })) {
    if (skip.has(entry.name)) continue
    const source = path.join(from, entry.name)
    const target = path.join(to, entry.name)
    if (entry.isDirectory()) linkTree(source, target)
    else linkOrCopy(source, target)
  }
}

/** Whether two files have the same bytes: the same file (a link), or the same size and contents. */
function sameBytes(a: string, b: string): boolean {
  const statA = fs.statSync(a, { throwIfNoEntry: false })
  const statB = fs.statSync(b, { throwIfNoEntry: false })
  if (!statA || !statB) return false
  if (statA.ino === statB.ino && statA.dev === statB.dev) return true
  return statA.size === statB.size && fs.readFileSync(a).equals(fs.readFileSync(b))
}

/** Writes `text` at `file` unless it holds it already, so an unchanged file keeps its inode. */
function writeIfDifferent(file: string, text: string): void {
  let current: string | undefined
  try {
    current = fs.readFileSync(file, 'utf8')
  } catch {
    current = undefined
  }
  if (current !== text) writeAtomically(file, text)
}

/** A shard to index again: its pages, its folder in out/, and its cache entry. */
interface ShardJob {
  shard: Shard
  dir: string
  cached: string
}

/** At most this many shards are indexed at once, each by a Pagefind process of its own. */
const MAX_SEARCH_LANES = 4

/**
 * How many shards the search step indexes at once. One Pagefind process indexes one shard at a
 * time, on one core, so a step with many shards to index (a clean build: every shard) uses one
 * process per core (docs/benchmarks.md).
 */
export function searchLanes(): number {
  return Math.max(1, Math.min(os.availableParallelism(), MAX_SEARCH_LANES))
}

/** A search worker (./pagefindWorker.mjs): a process with its own Pagefind, one shard at a time. */
interface SearchWorker {
  index(documents: SearchDocument[], dir: string): Promise<void>
  close(): Promise<void>
}

function startSearchWorker(): SearchWorker {
  const worker = fork(path.join(__dirname, 'pagefindWorker.mjs'), [JSON.stringify(INDEX_CONFIG)], {
    env: { ...process.env, PAGEFIND_UNSTABLE_INDEX_CHUNK_SIZE: String(INDEX_CHUNK_BYTES) },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  })
  let waiting: { resolve: () => void; reject: (error: Error) => void } | null = null
  const settle = (error: Error | null) => {
    const pending = waiting
    waiting = null
    if (error) pending?.reject(error)
    else pending?.resolve()
  }
  worker.on('message', ({ error }: { error?: string }) => settle(error === undefined ? null : new Error(error)))
  worker.on('error', (error) => settle(error))
  const exited = new Promise<void>((resolve) =>
    worker.once('exit', (code, signal) => {
      settle(new Error(`search: a search worker stopped (${signal ?? `exit code ${code}`})`))
      resolve()
    })
  )
  return {
    index: (documents, dir) =>
      new Promise((resolve, reject) => {
        waiting = { resolve, reject }
        worker.send({ documents, dir })
      }),
    // Its Pagefind ends as it disconnects, and the worker once that process has.
    close: () => {
      if (worker.connected) worker.disconnect()
      return exited
    },
  }
}

/**
 * Indexes `jobs`, `lanes` shards at a time: the first lane on this thread's Pagefind (`newIndex`,
 * whose first index may be made ahead), each other in a search worker, started only for a second
 * shard. A shard's documents are read here as a lane takes it. Every worker has ended when this
 * settles; the first failure stops the lanes and is thrown.
 */
async function indexShards(jobs: readonly ShardJob[], lanes: number, newIndex: () => Promise<PagefindIndex>, recordsOf: RecordsOf, indexed: (job: ShardJob) => void): Promise<void> {
  let next = 0
  let failed = false
  const workers: SearchWorker[] = []
  const lane = async (write: (documents: SearchDocument[], dir: string) => Promise<void>) => {
    while (!failed && next < jobs.length) {
      const job = jobs[next++]
      try {
        await write(job.shard.pages.flatMap((route) => searchDocuments(recordsOf(route))), job.dir)
      } catch (error) {
        failed = true
        throw error
      }
      indexed(job)
    }
  }
  const others = Array.from({ length: Math.min(lanes, jobs.length) - 1 }, () => {
    const worker = startSearchWorker()
    workers.push(worker)
    return lane((documents, dir) => worker.index(documents, dir))
  })
  try {
    await Promise.all([lane(async (documents, dir) => writeShardFiles(await newIndex(), documents, dir)), ...others])
  } finally {
    await Promise.all(workers.map((worker) => worker.close()))
  }
}

/**
 * Writes each index under `outRoot`, cut into shards of about `shardPages` pages with their list
 * (lib/search/searchShards.ts), and returns its size. A shard of the same records is linked from
 * `cacheDir` instead of indexed again, and the shards no index of this build has are removed from
 * it, so it holds one build's; a shard folder out/ still holds from the last build with the same
 * records is left as it is (OutShards), and only the others are replaced. With the sizes, what it
 * wrote into `outRoot` (./outFiles.ts).
 */
async function writeSearchIndexes(indexes: readonly IndexPlan[], recordsOf: RecordsOf, outRoot: string, cacheDir: string, shardPages: number, lanes: number): Promise<{ stats: IndexStats[]; wrote: OutWrites }> {
  // An audience whose pages all stay out of search (`searchable: false`) gets no index: one
  // without records has no language, and merging it would break every reader's search.
  const planned = indexes.map((index) => ({
    index,
    shards: index.records === 0 ? [] : shardGroup(index.pages, shardPages).map((shard) => ({ shard, key: bundleKey(index, shard) })),
  }))
  const cachedOf = (key: string) => path.join(cacheDir, key)
  if (fs.existsSync(cacheDir)) {
    const used = new Set(planned.flatMap(({ shards }) => shards.map(({ key }) => key)))
    for (const name of fs.readdirSync(cacheDir)) if (!used.has(name)) fs.rmSync(path.join(cacheDir, name), { recursive: true, force: true })
  }
  const lastOut = takeOutShards(cacheDir, outRoot)
  const placedOut: Record<string, OutShard> = {}
  // The cache entry too: the index's pagefind.js comes from it. A folder that lost a file or had
  // one changed since (its stamp is not what the last step placed) is placed again.
  const kept = (rel: string, key: string | null) =>
    lastOut[rel]?.key === key && fs.existsSync(path.join(outRoot, rel)) && fs.existsSync(cachedOf(key)) && dirStats(path.join(outRoot, rel)).stamp === lastOut[rel].stamp
  // A cache entry the last step placed at `rel` is its files as placed, unless one was changed in place since (through out/'s link): then it is indexed again.
  const changedSincePlaced = (rel: string, key: string) => lastOut[rel]?.key === key && fs.existsSync(cachedOf(key)) && dirStats(cachedOf(key)).stamp !== lastOut[rel].stamp
  const started = ahead
  ahead = null
  let pagefind: Pagefind | null = null
  const stats: IndexStats[] = []
  const wrote = { files: [] as string[], folders: [] as string[] }
  try {
    // First what each index folder keeps, and the shards to index again, all indexed at once.
    const jobs: ShardJob[] = []
    // Decided once, before any shard is indexed or linked (which makes a folder and a cache entry exist).
    const keptRels = new Set<string>()
    for (const { index, shards } of planned) {
      const root = path.join(outRoot, index.spec.outDir)
      if (shards.length === 0) {
        fs.rmSync(root, { recursive: true, force: true })
        continue
      }
      // What the index folder holds besides this build's shards (a shard no longer planned) goes.
      const names = new Set([...shards.map(({ shard }) => shardFolder(shard.shard)), PAGEFIND_SCRIPT, SHARD_LIST_FILE])
      if (fs.existsSync(root)) for (const name of fs.readdirSync(root)) if (!names.has(name)) fs.rmSync(path.join(root, name), { recursive: true, force: true })
      for (const { shard, key } of shards) {
        const rel = path.join(index.spec.outDir, shardFolder(shard.shard))
        if (kept(rel, key)) {
          keptRels.add(rel)
          continue
        }
        const dir = path.join(outRoot, rel)
        const cached = cachedOf(key)
        fs.rmSync(dir, { recursive: true, force: true })
        if (changedSincePlaced(rel, key)) fs.rmSync(cached, { recursive: true, force: true })
        if (!fs.existsSync(cached)) jobs.push({ shard, dir, cached })
      }
    }
    // Pagefind only when a shard is to be indexed; one started ahead for nothing ends below.
    if (jobs.length > 0) pagefind = await (started?.pagefind ?? loadPagefind())
    let madeAhead = started?.index ?? null
    const newIndex = () => {
      const made = madeAhead ?? withChunkSize(() => pagefind!.createIndex(INDEX_CONFIG))
      madeAhead = null
      return made
    }
    const indexedDirs = new Set<string>()
    await indexShards(jobs, lanes, newIndex, recordsOf, ({ dir, cached }) => {
      indexedDirs.add(dir)
      // Under its name once whole: a step stopped half way through the copy leaves no entry a later step takes as whole.
      const partial = `${cached}.partial`
      fs.rmSync(partial, { recursive: true, force: true })
      linkTree(dir, partial)
      fs.rmSync(cached, { recursive: true, force: true })
      fs.renameSync(partial, cached)
    })
    for (const { index, shards } of planned) {
      const { spec, records, pages } = index
      if (shards.length === 0) continue
      const root = path.join(outRoot, spec.outDir)
      let indexed = 0
      let files = 0
      let bytes = 0
      /** Where this index's pagefind.js comes from: any bundle's (they are the same file). */
      const script = path.join(cachedOf(shards[0].key), PAGEFIND_SCRIPT)
      for (const { shard, key } of shards) {
        const rel = path.join(spec.outDir, shardFolder(shard.shard))
        const dir = path.join(outRoot, rel)
        const cached = cachedOf(key)
        if (keptRels.has(rel)) {
          placedOut[rel] = lastOut[rel]
        } else {
          wrote.folders.push(`${rel}/`)
          if (indexedDirs.has(dir)) indexed++
          else linkTree(cached, dir, new Set([PAGEFIND_SCRIPT]))
          fs.rmSync(path.join(dir, PAGEFIND_SCRIPT), { force: true })
          placedOut[rel] = { key, ...dirStats(dir) }
        }
        files += placedOut[rel].files
        bytes += placedOut[rel].bytes
      }
      // Every bundle's pagefind.js is the same file; the search box imports it once, from the index's own folder.
      const rootScript = path.join(root, PAGEFIND_SCRIPT)
      if (!sameBytes(script, rootScript)) {
        fs.rmSync(rootScript, { force: true })
        linkOrCopy(script, rootScript)
      }
      const list = JSON.stringify(shards.map(({ shard }) => shard.shard))
      writeIfDifferent(path.join(root, SHARD_LIST_FILE), list)
      wrote.files.push(`${spec.outDir}/${PAGEFIND_SCRIPT}`, `${spec.outDir}/${SHARD_LIST_FILE}`)
      files += 2
      bytes += fs.statSync(rootScript).size + Buffer.byteLength(list)
      stats.push({ id: spec.id, dir: spec.outDir, pages: pages.length, records, shards: shards.length, indexed, files, bytes })
    }
  } finally {
    // Loaded here or started ahead (unneeded, or the step failed first): its indexing process ends.
    const module = pagefind ?? (started ? await started.pagefind.catch(() => null) : null)
    await module?.close()
  }
  writeAtomically(outShardsFile(cacheDir), JSON.stringify({ outRoot: path.resolve(outRoot), shards: placedOut } satisfies OutShards))
  return { stats, wrote }
}

export interface BuildResult {
  stats: IndexStats[]
  skipped: SkippedPage[]
  /** What it wrote into out/ (./outFiles.ts). */
  wrote: OutWrites
}

/**
 * What placing each page found, by route, with what it was found from (the page's data version and
 * section title): a page placed before from the same is placed again without reading its document.
 * Beside the shard cache, as the next build's input; a page with no search data has no digest.
 */
type PlacedPages = Record<string, { version: string; section: string; spec: string; digest: string | null; records: number }>

const placedFile = (cacheDir: string) => `${cacheDir}-pages.json`

function readPlaced(cacheDir: string): PlacedPages {
  // None yet, or unreadable: every page is read.
  return (readJsonObject(placedFile(cacheDir)) ?? {}) as PlacedPages
}

/**
 * Places, checks and writes every index, reading each page's search data one page at a time.
 * Throws SearchIndexLeakError (naming the page) before writing anything if a record is misplaced.
 *
 * With a cache and data that say their version, a page whose data and section are as when it was
 * last placed is placed as it was, without reading its document: a one-page edit reads one page
 * (and the pages of the shard it lands in, to index them). Its place is still the plan's and still
 * passes the build's check, on a record of its route.
 */
export async function buildSearchIndexes(options: { data: SearchData; outRoot: string; access: CompiledAccess; plan: AggregatePlan; cacheDir: string; shardPages?: number; lanes?: number }): Promise<BuildResult> {
  const { data, access, plan } = options
  const indexes = new Map(plan.search.map((spec): [string, IndexPlan] => [spec.id, { spec, pages: [], digests: new Map(), records: 0 }]))
  const last = readPlaced(options.cacheDir)
  const placed: PlacedPages = {}
  const place = (spec: SearchIndexSpec, route: string, digest: string, records: number) => {
    const index = indexes.get(spec.id) as IndexPlan
    index.pages.push(route)
    index.digests.set(route, digest)
    index.records += records
  }
  const versionOf = data.version
  const specs = new Map(plan.search.map((spec) => [spec.id, spec]))
  const toRead: string[] = []
  const keptRoutes = new Map<SearchIndexSpec, string[]>()
  for (const route of data.routes) {
    const known = last[route]
    const spec = specs.get(plan.audienceOf[route])
    if (!versionOf || !known || !spec || known.spec !== spec.id || known.version !== versionOf(route) || known.section !== sectionTitleOf(access, route)) {
      toRead.push(route)
      continue
    }
    placed[route] = known
    if (known.digest === null) continue
    keptRoutes.get(spec)?.push(route) ?? keptRoutes.set(spec, [route])
    place(spec, route, known.digest, known.records)
  }
  // The build's check on the pages placed as they were, on the one thing placing depends on: each
  // page's route and its index's rule. One group per index, so the index's rule is looked up once.
  assertGrouping(
    [...keptRoutes].map(([spec, routes]) => ({ spec, records: routes.map((route) => ({ route, url: route, text: '', meta: { title: '', section: '' } })), pages: routes })),
    access
  )
  // Placing runs the build's check (assertGrouping) on every page it reads before anything is written.
  const skipped = placeSearchPages({ ...data, routes: toRead }, plan, access, (spec, route, records) => {
    const digest = sha256(JSON.stringify(records))
    placed[route] = { version: versionOf?.(route) ?? '', section: sectionTitleOf(access, route), spec: spec.id, digest, records: records.length }
    place(spec, route, digest, records.length)
  })
  // A page read and found with no search data (`searchable: false`) is remembered as such; a skipped one is read again.
  const skippedRoutes = new Set(skipped.map((page) => page.route))
  for (const route of toRead) {
    const spec = plan.audienceOf[route]
    if (!placed[route] && versionOf && spec && !skippedRoutes.has(route)) placed[route] = { version: versionOf(route), section: sectionTitleOf(access, route), spec, digest: null, records: 0 }
  }
  // Each index lists its pages in the data's order, whichever way each was placed.
  const order = new Map(data.routes.map((route, i) => [route, i]))
  for (const index of indexes.values()) index.pages.sort((a, b) => (order.get(a) ?? 0) - (order.get(b) ?? 0))
  // A placed page's route is its index key (the compile's routes are canonical), so it reads again as it read first.
  const recordsOf = (route: string) => {
    const page = data.read(route)
    if (!page) throw new Error(`search: ${route} had search data when it was placed, and has none now`)
    return pageRecords(route, page, sectionTitleOf(access, route))
  }
  const { stats, wrote } = await writeSearchIndexes([...indexes.values()], recordsOf, options.outRoot, options.cacheDir, options.shardPages ?? buildShardPages(), options.lanes ?? searchLanes())
  if (versionOf) writeAtomically(placedFile(options.cacheDir), JSON.stringify(placed))
  return { stats, skipped, wrote }
}

export function formatStats(stats: readonly IndexStats[]): string {
  const rows = stats.map((s) => [s.dir, String(s.pages), String(s.records), String(s.shards), String(s.indexed), String(s.files), String(s.bytes)])
  const header = ['index', 'pages', 'records', 'shards', 'indexed', 'files', 'bytes']
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i].length)))
  const line = (cells: string[]) => cells.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]) : cell.padStart(widths[i]))).join('  ')
  return [line(header), ...rows.map(line)].join('\n')
}
