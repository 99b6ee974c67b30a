/**
 * Compiles every page's MDX before anything is bundled, so that a page that does not compile fails
 * the build (and shows in `npm run dev`) as `file:line:column: <the compiler's message>`, not deep
 * inside `next build` without a usable place.
 *
 * Each page is compiled with Nextra's own compiler and the options its loader uses
 * (./compileWorker.mjs), in a pool of worker threads, one per core. Results are kept on disk in
 * .cache/mdx/, one file per page version, keyed by the page's path and bytes and by the compiler's
 * fingerprint (./fingerprint.ts): an unchanged page is never compiled twice, and an entry that
 * other compiler inputs wrote is never read. A success keeps the page as data (lib/render/
 * pageDocument.ts: its elements, title, front matter and search data) for the steps that render it.
 * The page store (../store/pageStore.ts) records each page's entry and outcome, so an unchanged
 * page costs a lookup: its entry is not read.
 */
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import type { Worker } from 'node:worker_threads'
import { ContentError, locate, NamedError } from '../content/contentError'
import { documentAnchors, documentLinks } from './documentLinks'
import { compilerFingerprint } from './fingerprint'
import { jsonObjectOf, readChecked, sha256, writeChecked } from '../files'
import { CACHE_PATHS } from '../steps/paths'
import { backgroundWorkers, CompileWorkers, highlighterModule, loadedWorkers, startWorker } from './compileWorkers'
import type { PageDocument } from '../../lib/render/pageDocument'
import type { ContentPage, ContentSource } from '../content/contentSource'
import { PageStore, type HiddenRanges, type PageRecord } from '../store/pageStore'

export const CACHE_DIR = CACHE_PATHS.mdx

interface CompileFailure {
  reason: string
  line?: number
  column?: number
  /** A parser's message, the same for the same input: cached like a success. */
  deterministic: boolean
  /** The page was refused as data (what it may hold), not MDX that does not parse. */
  refused?: boolean
}

/** A compiled page, with its code blocks as coloured, by key (pipeline/onDemandHighlighter.ts), for its next compile, and what of its source it hides. */
export type CacheEntry = { ok: true; output: PageDocument; highlights?: Record<string, string>; hidden?: HiddenRanges } | { ok: false; error: CompileFailure }

/** A page whose MDX does not compile: where the compiler stopped, and its message. */
export class MdxCompileError extends ContentError {
  constructor(file: string, readonly reason: string, readonly line?: number, readonly column?: number, readonly refused = false) {
    super(file, `${locate(file, line, column)}${reason}`)
  }
}

/** The one-line fix that follows the list of pages that do not compile. */
export const MDX_FIX_HINT =
  'fix the MDX at each place named: close every JSX tag (<Callout>…</Callout>, or <br />), close every { expression }, or write a literal {, } or < as \\{, \\} or \\<; docs/writing.md, "When a page does not compile"'

/**
 * How long one page's compile may take, from its post to a loaded worker (or the worker's `ready`)
 * to its answer. A large page takes well under a second; this is for a page the compiler never ends.
 */
export const PAGE_TIMEOUT_MS = 60_000
/** How many times that a worker at the lowest priority (`npm run dev`'s) gets. */
const BACKGROUND_SLACK = 10

/** A worker that stopped: not the page's fault, so nothing is cached and the run fails. */
export class CompileWorkerError extends NamedError {
  constructor(reason: string) {
    super(`the MDX compile worker stopped: ${reason}`)
  }
}

export interface CompileReport {
  pages: number
  compiled: number
  fromCache: number
  problems: MdxCompileError[]
}


/**
 * The cache entry in `file`; null when there is none, or it is not one (damaged, or changed since
 * it was written, even where it still parses: writeChecked): the page is compiled again.
 */
export function readEntry(file: string): CacheEntry | null {
  const entry = jsonObjectOf(readChecked(file))
  const outcome = entry?.ok ? entry.output : entry?.error
  return entry && typeof entry.ok === 'boolean' && typeof outcome === 'object' && outcome !== null ? (entry as unknown as CacheEntry) : null
}

interface Job {
  page: ContentPage
  /** The page's last cache entry, absolute: its coloured code blocks are offered to the compile. */
  lastEntry?: string
  resolve: (entry: CacheEntry) => void
}

/**
 * Compiles `jobs` in `size` workers; each worker takes the next page when it finishes one. A worker
 * that stops fails the run, and the others stop with it: none goes on writing to the cache after
 * the caller was told the compile failed. With `kept`, a run takes its kept worker and leaves one.
 */
async function runPool(root: string, jobs: Job[], size: number, kept: CompileWorkers | undefined, pageTimeoutMs: number): Promise<void> {
  const queue = [...jobs]
  const workers: Worker[] = []
  const stopAll = () => {
    queue.length = 0
    for (const worker of workers) void worker.terminate()
  }
  const highlighter = highlighterModule()
  const runWorker = async () => {
    const worker = kept ? await kept.take(highlighter) : startWorker(highlighter)
    return new Promise<void>((resolve, reject) => {
      workers.push(worker)
      let current: Job | undefined
      let watchdog: NodeJS.Timeout | undefined
      const next = () => {
        clearTimeout(watchdog)
        current = queue.shift()
        if (!current) return void (kept ? kept.give(worker, highlighter) : worker.terminate()).then(() => resolve())
        try {
          const last = current.lastEntry ? readEntry(current.lastEntry) : null
          worker.postMessage({ id: 0, file: path.join(root, current.page.file), filePath: current.page.file, route: current.page.route, source: current.page.text, frontMatter: current.page.frontMatter, bodyStart: current.page.text.length - current.page.body.length, lastHighlights: (last?.ok && last.highlights) || {} })
        } catch (error) {
          // The page's text could not be had (PageChangedError: written since the scan): the run fails with it.
          current = undefined
          stopAll()
          return reject(error)
        }
        arm()
      }
      // A page that holds a loaded worker this long would hold the build for ever: the run fails, naming it.
      const arm = () => {
        clearTimeout(watchdog)
        const job = current
        if (!job || !loadedWorkers.has(worker)) return
        const limit = backgroundWorkers.has(worker) ? pageTimeoutMs * BACKGROUND_SLACK : pageTimeoutMs
        watchdog = setTimeout(() => {
          // An answer that came while this thread was busy is read first: timers run before it.
          setImmediate(() => {
            if (current !== job) return
            stopAll()
            reject(
              new CompileWorkerError(
                `${job.page.file} did not finish compiling in ${limit / 1000} s: a page this slow is too large (a code block of tens of thousands of lines takes minutes), or the compiler loops on something in it; split it into pages, or take parts out to find what`
              )
            )
          })
        }, limit)
        // The worker keeps the process up while it runs; this alone must not after the run stops.
        watchdog.unref()
      }
      const answer = (entry: CacheEntry) => {
        current!.resolve(entry)
        next()
      }
      worker.on('message', (message: { ready?: true; ok?: boolean; output?: PageDocument; highlights?: Record<string, string>; hidden?: HiddenRanges; error?: CompileFailure }) => {
        // Its first page was posted with it: a worker that has loaded says so, and takes it then.
        if (message.ready) {
          loadedWorkers.add(worker)
          return arm()
        }
        answer(message.ok ? { ok: true, output: message.output!, highlights: message.highlights, ...(message.hidden && { hidden: message.hidden }) } : { ok: false, error: message.error! })
      })
      // The answer could not be read on this thread: a page nested deeper than its stack (it would
      // not render either). Dropped without this, the run waited for it for ever.
      worker.on('messageerror', (error) => {
        answer({ ok: false, error: { reason: `its compiled page could not be read back from the compile worker (${error.message}); a page nested this deep cannot be rendered: flatten it`, deterministic: false } })
      })
      worker.on('error', (error) => {
        clearTimeout(watchdog)
        stopAll()
        reject(new CompileWorkerError(error instanceof Error ? error.message : String(error)))
      })
      worker.on('exit', (code) => {
        clearTimeout(watchdog)
        if (current && code !== 0) {
          stopAll()
          reject(new CompileWorkerError(`exit code ${code} while compiling ${current.page.file}`))
        }
      })
      next()
    })
  }
  await Promise.all(Array.from({ length: size }, runWorker))
}

export interface CompileOptions {
  /** Pages to leave out: the content check already names a problem in each (front matter, name). */
  skip?: ReadonlySet<string>
  /** Workers at most; os.availableParallelism() by default. */
  workers?: number
  /** Workers to take from and leave for the next run (npm run dev, and the build's warmed one); each run starts its own by default. */
  kept?: CompileWorkers
  /** How long one page may take before the run fails, naming it; PAGE_TIMEOUT_MS by default. */
  pageTimeoutMs?: number
  /** Told once the store has been read: how many pages are to compile and how many come from the cache. */
  onStart?: (counts: { pages: number; toCompile: number; fromCache: number }) => void
}

/** A page's compile cache entry, relative to the project: named by its path, its bytes and the compiler's fingerprint. */
function entryOf(fingerprint: string, page: Pick<ContentPage, 'file' | 'digest'>): string {
  return `${CACHE_DIR}/${sha256(JSON.stringify([fingerprint, page.file, page.digest]))}.json`
}

/** What the store keeps of a compiled page: its outcome, and the title and description it shows. */
function recordOf(page: ContentPage, entryFile: string, entry: CacheEntry): PageRecord {
  const base = { file: page.file, digest: page.digest, entry: entryFile }
  if (!entry.ok) return { ...base, problem: { reason: entry.error.reason, line: entry.error.line, column: entry.error.column, ...(entry.error.refused ? { refused: true } : {}) }, title: '', description: null, links: [] }
  const description = entry.output.frontMatter.description
  return {
    ...base,
    problem: null,
    title: entry.output.title || page.route,
    description: typeof description === 'string' && description ? description : null,
    links: documentLinks(entry.output.tree, page.text, page.route),
    anchors: documentAnchors(entry.output.tree),
    ...(entry.hidden && { hidden: entry.hidden }),
  }
}

/**
 * Compiles every page of `source` whose record in `store` is not of its bytes and this compiler:
 * a page whose record is, and whose entry is in the cache, is taken as the record says, without
 * reading its entry. Each page that does not compile is one MdxCompileError, in path order. The
 * records are updated (a skipped page's removed, so it is checked again next time), and entries no
 * page uses any more (older versions of pages, another compiler's) are removed.
 */
export async function compilePages(source: ContentSource, store: PageStore = new PageStore(null), options: CompileOptions = {}): Promise<CompileReport> {
  const root = source.root
  const cacheDir = path.join(root, CACHE_DIR)
  fs.mkdirSync(cacheDir, { recursive: true })
  const cached = new Set(fs.readdirSync(cacheDir).map((name) => `${CACHE_DIR}/${name}`))
  const fingerprint = compilerFingerprint()
  const pages = source.pages.filter((page) => !options.skip?.has(page.file))
  const records: Record<string, PageRecord> = {}
  // Failures that are not the page's (a plugin that threw): reported, never recorded, so compiled again next time.
  const problems = new Map<string, CompileFailure>()
  const jobs: Job[] = []
  let fromCache = 0
  for (const page of pages) {
    const entryFile = entryOf(fingerprint, page)
    const last = store.pages[page.route]
    if (last?.entry === entryFile && cached.has(entryFile) && last.links) {
      records[page.route] = last
      fromCache++
      continue
    }
    const entry = cached.has(entryFile) ? readEntry(path.join(root, entryFile)) : null
    if (entry) {
      records[page.route] = { ...recordOf(page, entryFile, entry), props: last?.props, rendered: last?.rendered }
      fromCache++
      continue
    }
    jobs.push({
      page,
      // Only an entry of this compiler: another's blocks were coloured by another Shiki, and none would be taken.
      lastEntry: last && last.entry === entryOf(fingerprint, last) && cached.has(last.entry) ? path.join(root, last.entry) : undefined,
      resolve: (compiled) => {
        if (compiled.ok || compiled.error.deterministic) {
          writeChecked(path.join(root, entryFile), JSON.stringify(compiled))
          records[page.route] = { ...recordOf(page, entryFile, compiled), props: last?.props, rendered: last?.rendered }
        } else problems.set(page.file, compiled.error)
      },
    })
  }
  options.onStart?.({ pages: pages.length, toCompile: jobs.length, fromCache })
  if (jobs.length > 0) {
    const size = Math.max(1, Math.min(options.workers ?? os.availableParallelism(), jobs.length))
    await runPool(root, jobs, size, options.kept, options.pageTimeoutMs ?? PAGE_TIMEOUT_MS)
  }
  store.recordCompile(Object.fromEntries(pages.flatMap((page) => (records[page.route] ? [[page.route, records[page.route]]] : []))))
  const used = new Set(Object.values(store.pages).map((record) => record.entry))
  for (const entryFile of cached) if (entryFile.endsWith('.json') && !used.has(entryFile)) fs.rmSync(path.join(root, entryFile), { force: true })
  const failures = pages.flatMap((page) => {
    const problem = records[page.route]?.problem ?? problems.get(page.file)
    return problem ? [new MdxCompileError(page.file, problem.reason, problem.line, problem.column, problem.refused)] : []
  })
  return { pages: pages.length, compiled: jobs.length, fromCache, problems: failures }
}

/** Route → source file and cache entry: what the later steps read documents by (the store's records are such an index). */
export type PageIndex = Record<string, { file: string; entry: string }>

/** One line of counts, for the build's progress and the dev server. */
export function describeCompile(report: CompileReport): string {
  const failed = report.problems.length ? `, ${report.problems.length} do not compile` : ''
  return `${report.pages} pages: ${report.compiled} compiled, ${report.fromCache} from cache${failed}`
}
