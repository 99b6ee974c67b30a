/**
 * The content steps, one function that `npm run build` and `npm run dev` both run: from content/
 * to the page store, the links, the plan, the page map and each page's props. The build goes on
 * to render; dev tells the open pages to fetch their props again. One path, so a page that passes
 * one passes the other, and the plan is made once per run.
 */
import { setImmediate as nextTurn } from 'node:timers/promises'
import type { CompiledAccess } from '../../lib/access/compileAccess'
import type { AggregatePlan } from '../../lib/access/planAggregates'
import { describeCompile, type CompileReport } from '../compile/compilePages'
import type { CompileWorkers } from '../compile/compileWorkers'
import { scanContent, type ContentPage, type ContentSource } from '../content/contentSource'
import { readLastUpdated, type LastUpdated } from '../lastUpdated'
import { pageMapInputs } from '../pageMaps'
import { openNavigation, type Navigation } from '../navigationRecord'
import { describePageProps, writePageProps, type PagePropsReport } from '../render/pageProps'
import { readStore, type PageStore } from '../store/pageStore'
import { checkAndCompile } from './checkContent'
import { assertLinks } from './checkLinks'
import { assertRulesDecide, codePageRoutes, siteRoutes } from './checkRules'
import { access as shippedAccess } from '../../lib/access'
import { planAggregates } from '../../lib/access/planAggregates'

/** Runs one named step: the build times and prints each; dev runs them as they are. */
export type StepRunner = <T>(name: string, run: () => T | Promise<T>, describe: (result: T) => string) => Promise<T>

const untimed: StepRunner = async (_name, run) => run()

export interface ContentRun {
  source: ContentSource
  store: PageStore
  compile: CompileReport
  /** Every page, once its links resolve. */
  pages: readonly ContentPage[]
  plan: AggregatePlan
  /** Each audience's page map and fragment, made when asked for or taken from the last build's (../navigationRecord.ts). */
  navigation: Navigation
  lastUpdated: LastUpdated
  props: PagePropsReport
}

/**
 * What a run in this process left for the next: its source, whose unchanged pages are not read
 * again, and its store, not parsed again while its file is unchanged (none after a run that threw).
 */
export interface LastRun {
  source: ContentSource
  store?: PageStore
}

export interface ContentRunOptions {
  access: CompiledAccess
  /** The last run's (`npm run dev`). */
  previous?: LastRun
  /** A compile worker kept loaded between runs. */
  kept?: CompileWorkers
  /** The pages' dates from git, when the caller has them (`npm run dev` reads them after a check, off an edit's way); read here otherwise. */
  lastUpdated?: LastUpdated
  step?: StepRunner
  onCompileStart?: (counts: { pages: number; toCompile: number; fromCache: number }) => void
  /** Every page compiled into the store, and the plan made: what needs nothing later may start. */
  onCompiled?: (run: Pick<ContentRun, 'store' | 'plan'>) => void
  /** Drops the pages' MDX once the checks have had it (the build: its memory follows the page count). */
  releaseTexts?: boolean
  /**
   * The caller saves the store: the build before its render touches out/, `npm run dev` once the
   * open pages were told, so an edit's way to the browser waits on no write of the whole store.
   * Otherwise the run saves it at its end.
   */
  callerSaves?: boolean
}

/**
 * The content, links, plan and pages steps for the project at `root`, under `access`. Throws the
 * checks' typed errors (BadContentError, BrokenLinksError, UnservablePathError, RuleCoverageError).
 */
export async function runContentSteps(root: string, options: ContentRunOptions): Promise<ContentRun> {
  const { access } = options
  const step = options.step ?? untimed
  // Not waited for: git answers while the steps below hold the thread. Its failure is met where it
  // is awaited; a step that throws first leaves it unawaited.
  const dating = options.lastUpdated ? Promise.resolve(options.lastUpdated) : readLastUpdated(root)
  dating.catch(() => {})
  // What the last run knew of each page: every step below reads it, and changes it through its methods.
  const store = readStore(root, options.previous?.store)
  // content/ and public/ scanned once: every step below takes this source, and each changed file is read once.
  const source = scanContent(root, options.previous?.source, store.scan)
  // The checks run at once; the compile then waits on its worker, and the plan and the navigation,
  // which need nothing it makes, are made meanwhile.
  const compiling = step('content', () => checkAndCompile(source, store, { sections: access.sections.map((section) => section.id), kept: options.kept, onStart: options.onCompileStart }), describeCompile)
  compiling.catch(() => {})
  let meanwhile: Pick<ContentRun, 'plan' | 'lastUpdated' | 'navigation'>
  try {
    const plan = await step('plan', () => {
      assertRulesDecide(access, siteRoutes(source), codePageRoutes())
      return planFor(source.pages, access, true)
    }, describePlan)
    const navigation = openNavigation(root, source, source.pageMap(), plan, pageMapInputs(source, access))
    meanwhile = { plan, navigation, lastUpdated: await dating }
  } catch (error) {
    // A page that breaks a content rule or does not compile is named first, as when the steps ran in turn.
    await compiling
    throw error
  }
  const { plan, lastUpdated, navigation } = meanwhile
  const compile = await compiling
  // After the compile: the links its documents hold are checked with those the scan read.
  const pages = await step('links', () => assertLinks(source, access, store.pages), (found) => `${found.length} pages, all internal links and images resolve`)
  // First what it starts (the build's search step, which sends Pagefind its first shard), then what waits.
  options.onCompiled?.({ store, plan })
  // The search step's first shard is sent (its documents read, a few promise turns on) before the
  // steps below hold the thread: Pagefind's work on it is a rebuild's longest path.
  if (options.onCompiled) await nextTurn()
  // The compile has read the MDX of every page it compiled.
  if (options.releaseTexts) source.releaseTexts()
  store.recordScan(source.scanRecord())
  const props = await step('pages', () => writePageProps(root, store, { audienceOf: plan.audienceOf, navigation, lastUpdated }), describePageProps)
  if (!options.callerSaves) store.save()
  return { source, store, compile, pages, plan, navigation, lastUpdated, props }
}

/**
 * The plan of this run's derived files, from the content source's pages, by `rules` (the shipped
 * ones by default); with `sized`, each audience's full text cut into parts by its pages' body sizes.
 */
export function planFor(pages: readonly Pick<ContentPage, 'route' | 'bodyBytes'>[], rules: CompiledAccess = shippedAccess, sized = false): AggregatePlan {
  const sizes = new Map(pages.map((page) => [page.route, page]))
  const bodyBytes = (route: string) => sizes.get(route)?.bodyBytes ?? 0
  return planAggregates({ access: rules, routes: pages.map((page) => page.route), bodyBytes: sized ? bodyBytes : undefined })
}

/** The plan in a writer's words: one line per audience that a rule finer than a section makes. */
export function describePlan(plan: AggregatePlan): string {
  const finer = plan.audiences.filter((audience) => audience.kind === 'rule' && audience.sections.length > 0)
  return [`${plan.audiences.length} audiences, ${plan.search.length} search indexes, ${plan.llms.length} llms files`, ...finer.map((audience) => `  ${audience.rule}: ${audience.pages.length} page${audience.pages.length === 1 ? '' : 's'}`)].join('\n')
}
