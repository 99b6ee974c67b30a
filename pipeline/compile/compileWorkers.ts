/**
 * The compile workers: each loads Nextra's compiler once (./compileWorker.mjs) and compiles one
 * page a message; ./compilePages.ts hands them the pages. Started, warmed and kept here: the build
 * warms one while it scans content/, and `npm run dev` keeps one between its checks.
 */
import fs from 'node:fs'
import path from 'node:path'
import { pathToFileURL } from 'node:url'
import { Worker } from 'node:worker_threads'
import type { transformSync as TransformSync } from 'esbuild'
import { COMPILER_ROOT, compilerFingerprint } from './fingerprint'
import { readChecked, sha256, writeChecked } from '../files'
import { CACHE_PATHS } from '../steps/paths'

/**
 * The site's highlighter as an ES module the workers can import: its TypeScript transpiled, kept
 * under its own hash in the compiler project's .cache/ (where its bare import, shiki, resolves),
 * and made again when it is not as it was written (damaged, it would fail every page's code blocks).
 */
export function highlighterModule(): string {
  const source = fs.readFileSync(path.join(COMPILER_ROOT, 'pipeline/onDemandHighlighter.ts'), 'utf8')
  const file = path.join(COMPILER_ROOT, CACHE_PATHS.compiler, `onDemandHighlighter-${sha256(source).slice(0, 16)}.mjs`)
  if (readChecked(file) !== null) return file
  // Loaded only to make it, not with this module: esbuild cannot load in the browser-like
  // environment of the components' tests, which import the content check through the link check.
  const transformSync = (require('esbuild') as { transformSync: typeof TransformSync }).transformSync
  writeChecked(file, transformSync(source, { loader: 'ts', format: 'esm', target: 'node20' }).code)
  return file
}

/**
 * What a compile worker (./compileWorker.mjs) is started with: the highlighter's module, and where
 * it finds the compiler's bundle (./compilerBundle.mjs), under the compiler's fingerprint (another
 * compiler, another bundle).
 */
export function compileWorkerData(highlighter: string, background = false) {
  return { highlighter: pathToFileURL(highlighter).href, compiler: { dir: path.join(COMPILER_ROOT, CACHE_PATHS.compiler), key: compilerFingerprint().slice(0, 16), root: COMPILER_ROOT }, background }
}

/** Workers that have said `ready` (loaded the compiler): a page's time limit counts from its post to one (./compilePages.ts). */
export const loadedWorkers = new WeakSet<Worker>()
/** Workers at the lowest priority (`npm run dev`'s): any busier process slows them many times over, so their limit is longer. */
export const backgroundWorkers = new WeakSet<Worker>()

/**
 * A compile worker: it loads the compiler once and says `ready`, then compiles one page a message.
 * A `background` one runs at the lowest priority (./compileWorker.mjs).
 */
export function startWorker(highlighter: string, background = false): Worker {
  const worker = new Worker(path.join(COMPILER_ROOT, 'pipeline/compile/compileWorker.mjs'), {
    workerData: compileWorkerData(highlighter, background),
    // Plain ES modules and the transpiled highlighter: no TypeScript loader (tsx's) hooks its imports.
    execArgv: [],
    // As `next build` compiles: Nextra's compiler reads NODE_ENV for JSX's development runtime.
    env: { ...process.env, NODE_ENV: 'production' },
    // Nextra's own warnings ("`title` is not defined") are next build's to print; read and dropped.
    stdout: true,
    stderr: true,
  })
  worker.stdout.resume()
  worker.stderr.resume()
  // Its first message is `ready`; a run that takes it still loading hears that itself.
  worker.once('message', () => loadedWorkers.add(worker))
  if (background) backgroundWorkers.add(worker)
  return worker
}

/** The name the rehearsal page is compiled under; no file is read or written. */
const REHEARSAL_FILE = 'content/rehearsal.mdx'

/** A page with one small code block in `language` (../content/pageLinks.ts codeLanguagesIn names them). */
const rehearsalPage = (language: string) => `\`\`\`${language}\nconst name = "value" // 1\n\`\`\`\n`

/**
 * Compile workers kept between runs, for `npm run dev`: an edit's compile then starts at once
 * instead of loading the compiler in a new worker first. It keeps one idle worker (the others of a
 * run end), loaded with the highlighter it was started with; a run with another one starts anew.
 * The build warms one while it scans content/ (../steps/warming.ts).
 */
export class CompileWorkers {
  private idle: { worker: Worker; highlighter: string } | null = null
  private closed = false
  /** Workers started so far. */
  started = 0

  /**
   * A worker for a run: the kept one, the one warming (taken as it loads, unless it rehearses), or
   * a new one. The run may post its first page at once: a worker still loading queues it, and
   * compiles it as soon as it has loaded, though the build's thread is busy with its other steps
   * then and would hear the worker's `ready` only once they end.
   */
  async take(highlighter: string): Promise<Worker> {
    const loading = this.warmingWorker
    if (loading && !loading.rehearses && loading.highlighter === highlighter) {
      this.warmingWorker = null
      loading.worker.removeAllListeners('message').removeAllListeners('error').removeAllListeners('exit')
      loading.taken()
      return loading.worker
    }
    // A warming may be followed by a rehearsal of the same worker, at the lowest priority: it stops
    // after the language it is compiling, and the run waits for that, not for the other languages.
    this.warmingWorker?.cut()
    while (this.warming) await this.warming
    const kept = this.idle
    this.idle = null
    if (kept && kept.highlighter === highlighter) {
      kept.worker.ref()
      return kept.worker
    }
    if (kept) void kept.worker.terminate()
    this.started++
    return startWorker(highlighter)
  }

  /** Keeps `worker` for the next run, or ends it when one is kept already. */
  give(worker: Worker, highlighter: string): Promise<void> {
    worker.removeAllListeners('message').removeAllListeners('error').removeAllListeners('exit')
    if (this.idle || this.closed) return worker.terminate().then(() => undefined)
    const kept = { worker, highlighter }
    this.idle = kept
    // Waiting, it holds no process open.
    worker.on('error', () => undefined)
    worker.unref()
    // A kept worker that stops is simply not there next time.
    worker.once('exit', () => {
      if (this.idle === kept) this.idle = null
    })
    return Promise.resolve()
  }

  /** A worker loading for the next run: a run takes it as it loads, or waits for its rehearsal, rather than start its own beside it. */
  private warming: Promise<void> | null = null
  /** The worker warming, until it is kept or a run takes it (`taken` ends the warming). */
  private warmingWorker: { worker: Worker; highlighter: string; rehearses: boolean; taken: () => void; cut: () => void } | null = null

  /** The code languages each worker compiled its whole rehearsal in. */
  private rehearsed = new WeakMap<Worker, string>()

  /**
   * Starts the worker the next run takes, so the compiler loads while the caller does other work
   * (the build scans content/ meanwhile; the dev server waits for an edit); resolves once it is kept.
   *
   * With `codeLanguages` (`npm run dev`), the worker, new or kept, then compiles a page with a code
   * block of each in turn, once per set of languages: a language's grammar loads, and its
   * expressions compile, on its first block, which made the first edit after a start the slowest
   * (docs/benchmarks.md). A new one runs in the background then. A run that wants the worker cuts
   * the rehearsal short, and a later warm rehearses the set again. The build's compile waits for
   * its worker, so it gives none.
   */
  warm(codeLanguages: readonly string[] = []): Promise<void> {
    if (this.closed) return Promise.resolve()
    if (this.warming) return this.warming.then(() => this.warm(codeLanguages))
    const languages = codeLanguages.join(' ')
    const kept = this.idle
    if (kept) {
      if (languages === '' || this.rehearsed.get(kept.worker) === languages) return Promise.resolve()
      this.idle = null
      kept.worker.removeAllListeners('exit').ref()
      return this.whileWarming(kept.worker, kept.highlighter, languages, true)
    }
    const highlighter = highlighterModule()
    this.started++
    return this.whileWarming(startWorker(highlighter, languages !== ''), highlighter, languages, false)
  }

  /** Holds `worker` as the warming one until it has loaded (unless `loaded`) and rehearsed `languages`, then keeps it. */
  private whileWarming(worker: Worker, highlighter: string, languages: string, loaded: boolean): Promise<void> {
    this.warming = new Promise<void>((resolve) => {
      let cut = false
      this.warmingWorker = { worker, highlighter, rehearses: languages !== '', taken: resolve, cut: () => (cut = true) }
      // One that cannot load (or is ended by close) says so when a run takes its place and starts its own.
      worker.on('error', () => resolve())
      worker.once('exit', () => resolve())
      const keep = () => void this.give(worker, highlighter).then(resolve)
      const rehearse = () => {
        const queue = languages === '' ? [] : languages.split(' ')
        // Each page's result, a success or a problem, is dropped: only what the worker loaded for it stays.
        const next = () => {
          if (cut) return keep()
          const language = queue.shift()
          if (language === undefined) {
            this.rehearsed.set(worker, languages)
            return keep()
          }
          worker.once('message', next)
          worker.postMessage({ id: 0, file: path.join(COMPILER_ROOT, REHEARSAL_FILE), filePath: REHEARSAL_FILE, route: '/', source: rehearsalPage(language) })
        }
        next()
      }
      if (loaded) rehearse()
      else worker.once('message', rehearse)
    }).finally(() => {
      this.warming = null
      if (this.warmingWorker?.worker === worker) this.warmingWorker = null
    })
    return this.warming
  }

  /** Ends the kept worker and one still loading (a build with nothing to compile does not wait for it), and any a run still holds when it ends. */
  async close(): Promise<void> {
    this.closed = true
    const kept = this.idle
    this.idle = null
    // One still loading is ended, not waited for: under tsx its end can wait on the module loader's
    // thread, and while it does nothing holds the process open, so Node would exit (code 0) in the
    // middle of the build. A kept one is unref'd; it is held while it ends for the same reason.
    void this.warmingWorker?.worker.terminate()
    kept?.worker.ref()
    await kept?.worker.terminate()
  }
}

