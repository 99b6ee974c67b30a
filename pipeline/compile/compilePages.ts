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
 */
import crypto from 'node:crypto'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { pathToFileURL } from 'node:url'
import { Worker } from 'node:worker_threads'
import type { transformSync as TransformSync } from 'esbuild'
import { ContentError, locate } from '../steps/contentError'
import { COMPILER_ROOT, compilerFingerprint, sha256 } from './fingerprint'
import type { PageDocument } from '../../lib/render/pageDocument'
import type { ContentPage, ContentSource } from '../content/contentSource'

export const CACHE_DIR = '.cache/mdx'

interface CompileFailure {
  reason: string
  line?: number
  column?: number
  /** A parser's message, the same for the same input: cached like a success. */
  deterministic: boolean
}

export type CacheEntry = { ok: true; output: PageDocument } | { ok: false; error: CompileFailure }

/** A page whose MDX does not compile: where the compiler stopped, and its message. */
export class MdxCompileError extends ContentError {
  constructor(file: string, readonly reason: string, readonly line?: number, readonly column?: number) {
    super(file, `${locate(file, line, column)}${reason}`)
    this.name = 'MdxCompileError'
  }
}

/** The one-line fix that follows the list of pages that do not compile. */
export const MDX_FIX_HINT =
  'fix the MDX at each place named: close every JSX tag (<Callout>…</Callout>, or <br />), close every { expression }, or write a literal {, } or < as \\{, \\} or \\<; docs/writing.md, "When a page does not compile"'

/** A worker that stopped: not the page's fault, so nothing is cached and the run fails. */
export class CompileWorkerError extends Error {
  constructor(reason: string) {
    super(`the MDX compile worker stopped: ${reason}`)
    this.name = 'CompileWorkerError'
  }
}

export interface CompileReport {
  pages: number
  compiled: number
  fromCache: number
  problems: MdxCompileError[]
  /** Route → source file and cache entry, as written to PAGE_INDEX: what the later steps read documents by. */
  index: PageIndex
  /** Wall time, ms. */
  ms: number
}

/** Writes whole, then renames: a reader (another build, the dev server) never sees half a file. */
export function writeAtomically(file: string, data: string): void {
  const partial = `${file}.${process.pid}.${crypto.randomBytes(4).toString('hex')}.partial`
  fs.writeFileSync(partial, data)
  fs.renameSync(partial, file)
}

function readEntry(file: string): CacheEntry | null {
  try {
    return JSON.parse(fs.readFileSync(file, 'utf8')) as CacheEntry
  } catch {
    return null // Absent, or unreadable: compiled again.
  }
}

/**
 * The site's highlighter as an ES module the workers can import: its TypeScript transpiled, kept
 * under its own hash in the compiler project's .cache/ (where its bare import, shiki, resolves).
 */
function highlighterModule(): string {
  // Loaded here, not with this module: esbuild cannot load in the browser-like environment of the
  // components' tests, which import the content check through the link check.
  const transformSync = (require('esbuild') as { transformSync: typeof TransformSync }).transformSync
  const source = fs.readFileSync(path.join(COMPILER_ROOT, 'pipeline/onDemandHighlighter.ts'), 'utf8')
  const dir = path.join(COMPILER_ROOT, '.cache/compiler')
  const file = path.join(dir, `onDemandHighlighter-${sha256(source).slice(0, 16)}.mjs`)
  if (!fs.existsSync(file)) {
    fs.mkdirSync(dir, { recursive: true })
    writeAtomically(file, transformSync(source, { loader: 'ts', format: 'esm', target: 'node20' }).code)
  }
  return file
}

interface Job {
  page: ContentPage
  resolve: (entry: CacheEntry) => void
}

/**
 * Compiles `jobs` in `size` workers; each worker takes the next page when it finishes one. A worker
 * that stops fails the run, and the others stop with it: none goes on writing to the cache after
 * the caller was told the compile failed.
 */
async function runPool(root: string, jobs: Job[], size: number): Promise<void> {
  const queue = [...jobs]
  const workers: Worker[] = []
  const stopAll = () => {
    queue.length = 0
    for (const worker of workers) void worker.terminate()
  }
  const highlighter = highlighterModule()
  const workerFile = path.join(COMPILER_ROOT, 'pipeline/compile/compileWorker.mjs')
  const runWorker = () =>
    new Promise<void>((resolve, reject) => {
      const worker = new Worker(workerFile, {
        workerData: { highlighter: pathToFileURL(highlighter).href },
        // As `next build` compiles: Nextra's compiler reads NODE_ENV for JSX's development runtime.
        env: { ...process.env, NODE_ENV: 'production' },
        // Nextra's own warnings ("`title` is not defined") are next build's to print; read and dropped.
        stdout: true,
        stderr: true,
      })
      workers.push(worker)
      worker.stdout.resume()
      worker.stderr.resume()
      let current: Job | undefined
      const next = () => {
        current = queue.shift()
        if (!current) return void worker.terminate().then(() => resolve())
        worker.postMessage({ id: 0, file: path.join(root, current.page.file), filePath: current.page.file, route: current.page.route, source: current.page.text })
      }
      worker.on('message', (message: { ready?: true; ok?: boolean; output?: PageDocument; error?: CompileFailure }) => {
        if (message.ready) return next()
        const job = current!
        job.resolve(message.ok ? { ok: true, output: message.output! } : { ok: false, error: message.error! })
        next()
      })
      worker.on('error', (error) => {
        stopAll()
        reject(new CompileWorkerError(error instanceof Error ? error.message : String(error)))
      })
      worker.on('exit', (code) => {
        if (current && code !== 0) {
          stopAll()
          reject(new CompileWorkerError(`exit code ${code} while compiling ${current.page.file}`))
        }
      })
    })
  await Promise.all(Array.from({ length: size }, runWorker))
}

export interface CompileOptions {
  /** Pages to leave out: the content check already names a problem in each (front matter, name). */
  skip?: ReadonlySet<string>
  /**
   * These pages alone (`npm run dev` after an edit): the others' entries and places in the page
   * index stay as they are, and no entry is removed.
   */
  only?: ReadonlySet<string>
  /** Workers at most; os.availableParallelism() by default. */
  workers?: number
  /** Told once the cache has been read: how many pages are to compile and how many come from it. */
  onStart?: (counts: { pages: number; toCompile: number; fromCache: number }) => void
}

/**
 * Compiles every MDX page under `root` that is not in the cache; each page that does not compile is
 * one MdxCompileError, in path order. Entries no page of this run uses (older versions of pages,
 * another compiler's) are removed.
 */
export async function compilePages(source: ContentSource, options: CompileOptions = {}): Promise<CompileReport> {
  const started = Date.now()
  const root = source.root
  const cacheDir = path.join(root, CACHE_DIR)
  fs.mkdirSync(cacheDir, { recursive: true })
  const fingerprint = compilerFingerprint()
  const pages = source.pages.filter((page) => !options.skip?.has(page.file) && (!options.only || options.only.has(page.file)))
  // Only what the report names: a page's document is in the cache, and holding every page's would
  // make this step's memory follow the site's bytes.
  const failures = new Map<string, CompileFailure>()
  const jobs: Job[] = []
  const keys = new Map<string, string>()
  for (const page of pages) {
    const key = sha256(JSON.stringify([fingerprint, page.file, page.digest]))
    keys.set(page.file, key)
    const cached = readEntry(path.join(cacheDir, `${key}.json`))
    if (cached) {
      if (!cached.ok) failures.set(page.file, cached.error)
    } else {
      jobs.push({
        page,
        resolve: (entry) => {
          if (!entry.ok) failures.set(page.file, entry.error)
          if (entry.ok || entry.error.deterministic) writeAtomically(path.join(cacheDir, `${key}.json`), JSON.stringify(entry))
        },
      })
    }
  }
  options.onStart?.({ pages: pages.length, toCompile: jobs.length, fromCache: pages.length - jobs.length })
  if (jobs.length > 0) {
    const size = Math.max(1, Math.min(options.workers ?? os.availableParallelism(), jobs.length))
    await runPool(root, jobs, size)
  }
  if (!options.only) {
    const used = new Set([...keys.values()].map((key) => `${key}.json`))
    for (const name of fs.readdirSync(cacheDir)) {
      if (name.endsWith('.json') && !used.has(name)) fs.rmSync(path.join(cacheDir, name), { force: true })
    }
  }
  const index = writePageIndex(root, pages, keys, Boolean(options.only))
  const problems = pages.flatMap((page) => {
    const error = failures.get(page.file)
    return error ? [new MdxCompileError(page.file, error.reason, error.line, error.column)] : []
  })
  return { pages: pages.length, compiled: jobs.length, fromCache: pages.length - jobs.length, problems, index, ms: Date.now() - started }
}

/** Where the docs route finds each page's compiled document: route → source file and cache entry. */
export const PAGE_INDEX = '.cache/pages.json'

export type PageIndex = Record<string, { file: string; entry: string }>

/**
 * The index the docs route (pages/[[...slug]].tsx, through lib/render/docsPages.ts) reads:
 * it renders from this run's entries without computing the compiler's fingerprint again.
 */
function writePageIndex(root: string, pages: readonly ContentPage[], keys: Map<string, string>, merge: boolean): PageIndex {
  const file = path.join(root, PAGE_INDEX)
  const index: PageIndex = merge && fs.existsSync(file) ? (JSON.parse(fs.readFileSync(file, 'utf8')) as PageIndex) : {}
  for (const page of pages) index[page.route] = { file: page.file, entry: `${CACHE_DIR}/${keys.get(page.file)}.json` }
  writeAtomically(file, JSON.stringify(index))
  return index
}

/** One line of counts, for the build's progress and the dev server. */
export function describeCompile(report: CompileReport): string {
  const failed = report.problems.length ? `, ${report.problems.length} do not compile` : ''
  return `${report.pages} pages: ${report.compiled} compiled, ${report.fromCache} from cache${failed}`
}
