/**
 * The content check for `npm run dev`: the build's content steps (pipeline/steps/contentSteps.ts:
 * the content check and compile, the links, the plan and the props) at start and again after each
 * change under content/ or public/, with the same messages the build prints. The dev server
 * keeps running whatever it finds; Next shows its own overlay for a page that does not compile,
 * and this names the file, line and column in the terminal. It is the build's own incremental path, on the same page store: changed pages are
 * checked and compiled again, and the props of the pages they change written again
 * (pipeline/render/pageProps.ts), which the open page shows. An edit of a page's text checks and
 * writes that page alone, so it shows in about a second whatever the size of the site.
 *
 * It also watches access.config.ts: after an edit the configuration is read again
 * (./accessRules.ts) and the whole site checked with it; once that passes, every page's props are
 * written with its page maps and the new rules handed to the dev server (`rules.apply`), so the next
 * page load shows the new navigation and access decisions. A configuration that does not pass is
 * named in the terminal with its own error, and everything keeps the last rules that passed: the
 * props and the reader's view always come from one configuration, never half of a new one. Keeping
 * them, rather than refusing every reader, is the safer choice here because the dev server guards
 * nothing (it serves every file to anyone) and a writer mid-edit still sees a working site.
 */
import fs from 'node:fs'
import path from 'node:path'
import { describeCompile, type CompileReport } from '../../pipeline/compile/compilePages'
import { CompileWorkers } from '../../pipeline/compile/compileWorkers'
import { BadContentError } from '../../pipeline/steps/checkContent'
import type { PagePropsReport } from '../../pipeline/render/pageProps'
import { CONTENT_DIR, PAGE_FILE, PageChangedError, routeOfContentFile } from '../../pipeline/content/contentSource'
import { BrokenLinksError, describeLinkProblem, UnservablePathError } from '../../pipeline/steps/checkLinks'
import { RuleCoverageError, SectionEntryError } from '../../pipeline/steps/checkRules'
import { watchTree } from './treeWatch'
import { runContentSteps, type LastRun } from '../../pipeline/steps/contentSteps'
import { readLastUpdated, type LastUpdated } from '../../pipeline/lastUpdated'
import { readStore } from '../../pipeline/store/pageStore'
import type { CompiledAccess } from '../../lib/access/compileAccess'
import { ACCESS_CONFIG_FILE, loadAccessRules, type AccessRules } from './accessRules'
import type { CheckProblem } from './propsEvents'

/**
 * A check's outcome; `rulesApplied` when the check applied an edit of access.config.ts. `problems`
 * are what the open pages are told: a content check that passed still carries the error of an
 * access.config.ts that does not load, until it does.
 */
export type ContentCheckResult =
  | { ok: true; report: CompileReport; props: PagePropsReport; rulesApplied?: boolean; problems?: readonly CheckProblem[] }
  | { ok: false; message: string; problems: readonly CheckProblem[] }

/** Said after a configuration's error: what the dev server does meanwhile. */
export const RULES_KEPT = `npm run dev: keeps the access rules of the last ${ACCESS_CONFIG_FILE} that passed until this one does`

/** A change worth checking again: a page or a `_meta` file. */
const WATCHED = /(\.mdx?|_meta\.[jt]sx?)$/

/**
 * Waits this long after a change for the next one, so an editor's several writes make one check
 * (webpack's watcher waits 20 ms). A write that comes later starts one more check after this one.
 */
const SETTLE_MS = 50

export interface ContentWatch {
  /** The first check's result. */
  first: Promise<ContentCheckResult>
  /** Stops watching; resolves once a check under way has ended and saved its store. */
  stop: () => Promise<void>
}

/**
 * What the last check of each project left: its run, so that a check reads again only the files
 * that changed since (../../pipeline/steps/contentSteps.ts LastRun); the pages' dates it used, or
 * read after it (afterWatchedCheck); and whether its store waits to be saved (a watched check's).
 */
interface LastCheck {
  run: LastRun
  dates: LastUpdated
  unsaved: boolean
}
const lastChecks = new Map<string, LastCheck>()

/**
 * One check, its result as the writer reads it: problems are a result, anything else is thrown.
 * It runs the build's own incremental path on the page store (pipeline/store/pageStore.ts): the
 * content check and compile of the pages that changed (pipeline/steps/checkContent.ts), then the
 * props of the pages whose document, page map or date changed (pipeline/render/pageProps.ts). An
 * edit of a page's text checks, compiles and writes that page alone, in a compile worker `kept`
 * from the last check when there is one.
 *
 * A `watched` check (the watcher's) leaves what its edit's way to the browser need not wait for
 * until the open pages were told (afterWatchedCheck): saving the store, and reading the pages'
 * dates from git, whose process start alone is about 50 ms. It takes the dates read after the last
 * check.
 */
export async function checkContentOnce(root: string, access: CompiledAccess, kept?: CompileWorkers, watched = false): Promise<ContentCheckResult> {
  try {
    // The build's own content steps (pipeline/steps/contentSteps.ts), links and plan included.
    const last = lastChecks.get(root)
    // A check that does not end keeps no store: it may have changed records it did not save.
    if (last) lastChecks.set(root, { run: { source: last.run.source }, dates: last.dates, unsaved: false })
    const run = await runContentSteps(root, { access, previous: last?.run, kept, callerSaves: watched, lastUpdated: watched ? last?.dates : undefined })
    lastChecks.set(root, { run: { source: run.source, store: run.store }, dates: run.lastUpdated, unsaved: watched })
    // The docs route renders from the page step's props: written again, so the open page's props
    // change, and the dev server tells the open page to fetch them again (./dev.ts).
    return { ok: true, report: run.compile, props: run.props }
  } catch (error) {
    // A page saved again while the check ran is a result too: the watcher sees that save and checks again.
    const problems = problemsOf(error)
    if (problems) return { ok: false, message: (error as Error).message, problems }
    throw error
  }
}

/** The route of the page a problem is in: a new page's too, so that its not-found page says why. */
const routeOfProblem = (file: string) => (file.startsWith(`${CONTENT_DIR}/`) && PAGE_FILE.test(file) ? routeOfContentFile(file) : null)

/** A check's problems, each with its page's route, as the open pages are told them; null for an error that is not a result. */
function problemsOf(error: unknown): CheckProblem[] | null {
  const inFile = (file: string, message: string) => ({ route: routeOfProblem(file), message })
  if (error instanceof BadContentError) return error.problems.map(({ path: file, message }) => inFile(file, message))
  if (error instanceof BrokenLinksError) return error.problems.map((problem) => inFile(problem.file, describeLinkProblem(problem)))
  if (error instanceof UnservablePathError || error instanceof PageChangedError) return [inFile(error.file, error.message)]
  if (error instanceof RuleCoverageError || error instanceof SectionEntryError) return [{ route: null, message: error.message }]
  return null
}

const sameDates = (a: LastUpdated, b: LastUpdated) => Object.keys(a).length === Object.keys(b).length && Object.entries(a).every(([file, time]) => b[file] === time)

/**
 * After a watched check was reported: its store saved (a check that threw left none), and the
 * pages' dates read again. True when they changed since the check used them (a commit since):
 * the next check writes them into the pages' props.
 */
async function afterWatchedCheck(root: string): Promise<boolean> {
  const last = lastChecks.get(root)
  if (!last) return false
  if (last.unsaved) last.run.store?.save()
  const dates = await readLastUpdated(root)
  lastChecks.set(root, { ...last, dates, unsaved: false })
  return !sameDates(dates, last.dates)
}

/** At most this many languages are loaded ahead: the site's most used. */
const LANGUAGES_AHEAD = 24

/**
 * The languages of the pages' code blocks, the most used first: the kept compile worker loads them
 * before the first edit (pipeline/compile/compileWorkers.ts warm). None when a page cannot be read
 * now; the check that follows says why.
 */
export function siteCodeLanguages(pages: Iterable<{ readonly codeLanguages?: readonly string[] }>): string[] {
  const used = new Map<string, number>()
  try {
    for (const page of pages) for (const language of page.codeLanguages ?? []) used.set(language, (used.get(language) ?? 0) + 1)
  } catch {
    return []
  }
  return [...used].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).slice(0, LANGUAGES_AHEAD).map(([language]) => language)
}

/**
 * A compile worker loading for `root`'s first check and edits, with the code languages of the
 * pages the last run's scan recorded (none on a first start): known before the first check.
 */
export function warmCompiler(root: string): CompileWorkers {
  const workers = new CompileWorkers()
  void workers.warm(siteCodeLanguages(Object.values(readStore(root).scan?.pages ?? {})))
  return workers
}

export interface WatchRules {
  /** The rules the dev server serves now (its page props were made with them, or the first check makes them). */
  served: AccessRules
  /** Serves new rules, after every page's props were written with them; the next check waits for it. */
  apply: (rules: AccessRules) => Promise<void>
  /** Reads access.config.ts again and checks it, throwing what is wrong (./accessRules.ts by default). */
  load?: () => AccessRules
}

/**
 * Checks `root`'s content now and after every change under content/ or of access.config.ts,
 * reporting each result through `report`. Checks never overlap: a change during a check starts one
 * more after it.
 */
export function watchContent(root: string, rules: WatchRules, report: (result: ContentCheckResult) => void, onError: (error: Error) => void = () => {}, kept = warmCompiler(root)): ContentWatch {
  const load = rules.load ?? (() => loadAccessRules(root))
  let served = rules.served
  // The newest configuration that loaded: served once a whole check with it passes.
  let wanted = served
  let running: Promise<unknown> | null = null
  let again = false
  let stopped = false
  let timer: NodeJS.Timeout | undefined
  let contentChanged = true
  let configChanged = false
  // The error of an access.config.ts that does not load: told the open pages with every check until it loads.
  let refusedConfig: CheckProblem | null = null
  const withRefusedConfig = (result: ContentCheckResult): ContentCheckResult =>
    refusedConfig === null || result.problems?.includes(refusedConfig) ? result : { ...result, problems: [...(result.problems ?? []), refusedConfig] }
  // A compiler loaded and waiting (`kept`, warmed by the caller or here): an edit's compile starts
  // at once, not after a second of loading, with the site's code languages loaded. The first
  // check takes it if it compiles.
  const checkOnce = async (): Promise<ContentCheckResult> => {
    const content = contentChanged
    const config = configChanged
    contentChanged = false
    configChanged = false
    if (config) {
      try {
        wanted = load()
        refusedConfig = null
      } catch (error) {
        // The file as it is now does not pass: a configuration loaded before it and not yet applied is dropped too.
        wanted = served
        const message = `${error instanceof Error ? error.message : String(error)}\n${RULES_KEPT}`
        refusedConfig = { route: null, message }
        const refused: ContentCheckResult = { ok: false, message, problems: [refusedConfig] }
        if (!content) return refused
        report(refused)
      }
    }
    if (wanted === served) return checkContentOnce(root, served.access, kept, true)
    // New rules change page maps anywhere, so the props of every page they reach are written again.
    const result = await checkContentOnce(root, wanted.access, kept, true)
    if (!result.ok) return { ...result, message: `${result.message}\n${RULES_KEPT}` }
    const applying = wanted
    await rules.apply(applying)
    served = applying
    return { ...result, rulesApplied: true }
  }
  const run = (): Promise<ContentCheckResult> => {
    const check = checkOnce()
    running = check
      .then(async (result) => {
        try {
          report(withRefusedConfig(result))
        } finally {
          // What the report wrote to the open pages leaves at the end of this turn (Node corks a
          // response's writes until then): the store's save and git wait for the next.
          await new Promise((resolve) => setImmediate(resolve))
          if (await afterWatchedCheck(root)) {
            contentChanged = true
            schedule()
          }
        }
      }, onError)
      .finally(() => {
        running = null
        // After stop, the workers are closed and this does nothing.
        void kept.warm(siteCodeLanguages(lastChecks.get(root)?.run.source.pages ?? []))
        if (again && !stopped) {
          again = false
          void run()
        }
      })
    return check
  }
  const schedule = () => {
    // A check that ends after stop (its dates read again) starts none.
    if (stopped) return
    clearTimeout(timer)
    timer = setTimeout(() => {
      if (running) again = true
      else void run()
    }, SETTLE_MS)
  }
  const changed = (event: 'rename' | 'change', name: string | null) => {
    // A change whose name the platform does not give is checked too, and every entry made, moved or
    // removed (a folder, an editor's save by rename): the page store finds what changed.
    if (event === 'change' && name !== null && !WATCHED.test(name)) return
    contentChanged = true
    schedule()
  }
  const configEdited = (name: string | null) => {
    // The project's folder itself is watched, so an editor that saves by replacing the file is seen.
    if (name !== ACCESS_CONFIG_FILE) return
    configChanged = true
    schedule()
  }
  const watchers = [
    watchTree(path.join(root, 'content'), changed),
    // public/ is the content source's too: a new link or file type there fails the check, as in a build.
    ...(fs.existsSync(path.join(root, 'public')) ? [watchTree(path.join(root, 'public'), (event) => changed(event, null))] : []),
    fs.watch(root, (_event, name) => configEdited(name)),
  ]
  return {
    first: run(),
    stop: async () => {
      stopped = true
      clearTimeout(timer)
      watchers.forEach((watcher) => watcher.close())
      // Its store is saved after its report: nothing writes into the project once stop has resolved.
      await running
      await kept.close()
    },
  }
}

/** The dev server's line for a result: the build's own message, or what was checked. */
export function formatContentCheck(result: ContentCheckResult): string {
  if (!result.ok) return result.message
  const props = result.props.changed.length
  return `content check: ${describeCompile(result.report)}; no problems${result.rulesApplied ? `; the access rules of ${ACCESS_CONFIG_FILE} applied` : ''}; ${props} page${props === 1 ? "'s" : "s'"} props written`
}
