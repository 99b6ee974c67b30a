/**
 * The content check for `npm run dev`: the build's first step (pipeline/steps/checkContent.ts
 * checkAndCompile) at start and again after each change of a page or `_meta` file, with the same
 * messages the build prints. The dev server keeps running whatever it finds; Next shows its own
 * overlay for a page that does not compile, and this names the file, line and column in the
 * terminal. Changed pages are compiled again; the others come from the compile cache. Then each
 * page's props are written again (pipeline/render/pageProps.ts), which the open page shows. An
 * edit of a page checks and renders that page alone, so it shows in about a second whatever the
 * size of the site.
 */
import fs from 'node:fs'
import path from 'node:path'
import { describeCompile, type CompileReport } from '../../pipeline/compile/compilePages'
import { BadContentError, checkAndCompile, checkAndCompilePages } from '../../pipeline/steps/checkContent'
import { updatePageProps, writePageProps } from '../../pipeline/render/pageProps'
import { readPageIndex } from '../../pipeline/compile/compiledPages'
import { access } from '../../lib/access'

export type ContentCheckResult = { ok: true; report: CompileReport } | { ok: false; message: string }

/** A change worth checking again: a page or a `_meta` file. */
const WATCHED = /(\.mdx?|_meta\.[jt]sx?)$/

/** Waits this long after a change for the next one, so an editor's several writes make one check. */
const SETTLE_MS = 150

export interface ContentWatch {
  /** The first check's result. */
  first: Promise<ContentCheckResult>
  stop: () => void
}

/**
 * The edited pages alone (their files, as `content/...`, and their routes), when every change since
 * the last check was an edit of a page that was already there: null when a change was anything
 * else (a page added, removed or renamed, a `_meta` file), which the whole check handles.
 */
function editedPages(root: string, changes: ReadonlySet<string>): { files: string[]; routes: string[] } | null {
  if (changes.size === 0) return null
  let routeOf: Map<string, string>
  try {
    routeOf = new Map(Object.entries(readPageIndex(root)).map(([route, page]) => [page.file, route]))
  } catch {
    return null
  }
  const files = [...changes].map((name) => `content/${name.split(path.sep).join('/')}`)
  if (!files.every((file) => /\.mdx?$/.test(file) && routeOf.has(file) && fs.existsSync(path.join(root, file)))) return null
  return { files, routes: files.map((file) => routeOf.get(file) as string) }
}

/**
 * One check, its result as the writer reads it: problems are a result, anything else is thrown.
 * After edits to existing pages only (`changes`, names under content/), those pages alone are
 * checked and compiled, and their props written from their last ones, when their titles and front
 * matter stayed; otherwise, and at start, the whole site.
 */
export async function checkContentOnce(root: string, changes: ReadonlySet<string> = new Set()): Promise<ContentCheckResult> {
  try {
    const edited = editedPages(root, changes)
    let compiled = 0
    if (edited) {
      const report = await checkAndCompilePages(root, edited.files)
      if (updatePageProps(root, edited.routes)) return { ok: true, report }
      compiled = report.compiled
    }
    const whole = await checkAndCompile(root)
    // The docs route renders from the page step's props: written again, so the open page's props
    // change and Next refreshes them in the browser (pipeline/render/docsPages.ts).
    await writePageProps(root, access)
    // The pages compiled for the edit count as this check's, not as the cache's.
    return { ok: true, report: { ...whole, compiled: whole.compiled + compiled, fromCache: whole.fromCache - compiled } }
  } catch (error) {
    if (error instanceof BadContentError) return { ok: false, message: error.message }
    throw error
  }
}

/**
 * Checks `root`'s content now and after every change under content/,
 * reporting each result through `report`. Checks never overlap: a change during a check starts one
 * more after it.
 */
export function watchContent(root: string, report: (result: ContentCheckResult) => void, onError: (error: Error) => void = () => {}): ContentWatch {
  let running: Promise<unknown> | null = null
  let again = false
  let timer: NodeJS.Timeout | undefined
  // What changed since the last check began; null until the first check, which checks everything.
  let changes: Set<string> | null = null
  const run = (): Promise<ContentCheckResult> => {
    const check = checkContentOnce(root, changes ?? new Set())
    changes = new Set()
    running = check
      .then(report, onError)
      .finally(() => {
        running = null
        if (again) {
          again = false
          void run()
        }
      })
    return check
  }
  const changed = (name: string | null) => {
    if (name !== null && !WATCHED.test(name)) return
    // A change whose name the platform does not give is checked with the whole site.
    if (name === null) changes = null
    else changes?.add(name)
    clearTimeout(timer)
    timer = setTimeout(() => {
      if (running) again = true
      else void run()
    }, SETTLE_MS)
  }
  const watchers = [
    fs.watch(path.join(root, 'content'), { recursive: true }, (_event, name) => changed(name)),
  ]
  return {
    first: run(),
    stop: () => {
      clearTimeout(timer)
      watchers.forEach((watcher) => watcher.close())
    },
  }
}

/** The dev server's line for a result: the build's own message, or what was checked. */
export function formatContentCheck(result: ContentCheckResult): string {
  return result.ok ? `content check: ${describeCompile(result.report)}; no problems` : result.message
}
