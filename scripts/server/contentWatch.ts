/**
 * The content check for `npm run dev`: the build's first step (pipeline/steps/checkContent.ts
 * checkAndCompile) at start and again after each change of a page or `_meta` file, with the same
 * messages the build prints. The dev server keeps running whatever it finds; Next shows its own
 * overlay for a page that does not compile, and this names the file, line and column in the
 * terminal. Changed pages are compiled again; the others come from the compile cache. Then each
 * page's props are written again (pipeline/render/pageProps.ts), which the open page shows.
 */
import fs from 'node:fs'
import path from 'node:path'
import { describeCompile, type CompileReport } from '../../pipeline/compile/compilePages'
import { BadContentError, checkAndCompile } from '../../pipeline/steps/checkContent'
import { writePageProps } from '../../pipeline/render/pageProps'
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

/** One check, its result as the writer reads it: problems are a result, anything else is thrown. */
export async function checkContentOnce(root: string): Promise<ContentCheckResult> {
  try {
    const report = await checkAndCompile(root)
    // The docs route renders from the page step's props: written again, so the open page's props
    // change and Next refreshes them in the browser (pipeline/render/docsPages.ts).
    await writePageProps(root, access)
    return { ok: true, report }
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
  const run = (): Promise<ContentCheckResult> => {
    const check = checkContentOnce(root)
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
