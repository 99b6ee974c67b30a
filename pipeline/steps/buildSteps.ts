/**
 * The whole site build, in one process (`npm run build` runs it through ./buildSite.ts). Each step
 * takes what the steps before it made, as typed values, so no step can run before what it needs exists:
 *
 *   content   where pages are, their names, front matter and `_meta` files (./checkContent.ts),
 *             then every page's MDX compiled with Nextra's compiler in worker threads, or read
 *             from the compile cache (pipeline/compile/): a page that does not compile fails
 *             here with its file:line:column, before anything is bundled
 *   links     every page, once every internal link and image resolves
 *   plan      every rule decides some page or file (pipeline/steps/checkRules.ts); then which files
 *             built from several pages exist, what each holds and where it lives:
 *             one set per audience, the pages one rule governs (lib/access/planAggregates.ts);
 *             the page maps and route manifests follow the same plan
 *   pages     each page's props for the one docs route: its compiled document, its part of its
 *             audience's page map, its date (pipeline/render/pageProps.ts)
 *   render    out/ and its build id: one route renders every changed page from its props, with
 *             the server bundle of `next build` (run first when the code changed, rendering no
 *             docs page) or, when the code is the same, of the last one
 *   search    one Pagefind index per audience, written into out/; when out/ stays in place, from
 *             the moment the pages are compiled and planned, beside the pages and render steps
 *   markdown  each docs page as Markdown, and each audience's llms files and page catalog; like
 *             search, beside the render when out/ stays in place
 *   routes    postbuild: what must not ship removed, route manifests split, every build file
 *             mapped to its governing route (needs the search step's files)
 *   scripts   out/ listed once (./outFiles.ts), after the last step that writes into it, which
 *             proves the Markdown files a rebuild in place took as linked; the sha256
 *             of each inline script of its pages, for the Content-Security-Policy
 *   edge      the authorizer, with those routes baked in
 *   mcp       the AI tools' server for Lambda, with the same configuration baked in
 *   csp       out/'s pages, as the scripts step read them, against the policy as it ships: the
 *             build fails, naming the page, on an inline script the policy does not allow
 *             (pipeline/steps/inlineScriptHashes.ts)
 *   record    each file of out/ with its sha256 and size (and each page's scripts), for the deploy
 *             and the next build (./outRecord.ts): set aside when the build starts, written last,
 *             so only a finished build leaves one; a file is read only if its stamp changed, and
 *             when out/ stayed in place, stat'ed only if a step says it wrote it (./outFiles.ts)
 *
 * Each step prints a line when it starts (with its counts where they are known then) and one when
 * it ends; the build ends with the time of each step.
 */
import fs from 'node:fs'
import path from 'node:path'
import { setImmediate as nextTurn } from 'node:timers/promises'
import { access } from '../../lib/access'
import { objectKeyFor } from '../../lib/access/objectKey'
import accessConfig from '../../access.config'
import { aiToolsSettings } from '../../mcp/oauth/aiToolsSettings'
import type { PublicFile } from '../content/contentSource'
import { audienceSummaries, type AggregatePlan } from '../../lib/access/planAggregates'
import { writeAudiencesFile } from './audiencesFile'
import { buildEdge, describeEdgeBundle, setEdgeRecordsAside } from './buildEdge'
import { buildMcp, describeMcpBundle } from './buildMcp'
import { bakedSettings } from './bakedBundle'
import { readRulesFingerprint } from '../../edge/rulesFingerprint'
import { poolOf, readBuiltFor } from '../../lib/auth/builtFor'
import { writeMarkdown, type MarkdownReport } from './buildMarkdown'
import { buildSearchIndexes, formatStats, startPagefindAhead, type BuildResult as SearchResult } from './buildSearchIndexes'
import { searchDataOf } from '../compile/readDocuments'
import type { CompileWorkers } from '../compile/compileWorkers'
import type { PropsIndex } from '../../lib/render/propsFiles'
import { afterRender, audienceFoldersOf, beforeRender, inPlaceBuild, keptPagesFit, planRender, RENDER_ROUTES, whyRenderAll } from '../render/renderPlan'
import { renderPages, reuseLastBuild, whyNotReuse } from '../render/reuseLastBuild'
import { LastBuildRenderer } from '../render/lastBuildRenderer'
import { runInProduction } from '../render/runInProduction'
import type { PageStore } from '../store/pageStore'
import { siteBuildId } from '../buildId'
import { runContentSteps, type ContentRun } from './contentSteps'
import type { Warming } from './warming'
import { assertPoliciesAllowPages, describeInlineScripts, shippedPolicies, writeInlineScriptHashes } from './inlineScriptHashes'
import { readLastOutRecord, readOut, removeUnrecordedOut, restoreOutRecord, setOutRecordAside, type LastOutRecord, type OutReading } from './outRecord'
import type { OutWrites } from './outFiles'
import { CACHE_PATHS, type SitePaths } from './paths'
import { postbuild } from './routesStep'
import { RENDER_ROUTES_ENV } from '../../lib/pathFormats'

export interface NextBuild {
  buildId: string
  /** Pages rendered, and pages kept from the last build. */
  rendered: number
  kept: number
  whyAll: string | null
  /** Why `next build` ran; null when the last build's server bundle rendered the pages (../render/reuseLastBuild.ts). */
  whyNextBuild: string | null
  /** What a render in place wrote into out/ (./outFiles.ts); null when out/ was made anew. */
  wrote: OutWrites[] | null
}

/**
 * `next build`'s JavaScript heap. Node lets it grow far past what the build keeps alive before
 * collecting; capped, it needs less memory at the same speed (docs/benchmarks.md). It renders no
 * docs page (runNextBuild), so its work does not grow with the site.
 */
const NEXT_BUILD_HEAP_MB = 768

/**
 * Renders the pages whose props changed since the last build of the same code, and keeps the last
 * build's files of the others (pipeline/render/renderPlan.ts). With the same code, the last
 * `next build`'s files and server bundle serve again and nothing is compiled
 * (pipeline/render/reuseLastBuild.ts); otherwise `next build` runs, in its own process (Next owns
 * its process: workers, exit codes, signals), and its server bundle then renders the pages.
 */
export async function nextBuild(
  paths: SitePaths,
  store: PageStore,
  props: PropsIndex,
  publicFiles: readonly PublicFile[],
  aggregates: Pick<AggregatePlan, 'audiences' | 'search'>,
  renderer: LastBuildRenderer,
  course: RenderCourse = renderCourse(paths, store, aggregates),
  whileInPlace?: (buildId: string) => void
): Promise<NextBuild> {
  let plan = planRender(store, paths.out, course.buildId, props)
  const last = store.render
  const audienceFolders = audienceFoldersOf(aggregates)
  const { whyNextBuild } = course
  if (whyNextBuild === null && last) {
    beforeRender(paths.root, paths.out, plan, store, 'in place')
    const rendering = reuseLastBuild(paths, plan, last, renderer)
    // Next's process has its routes, and out/ stays where it is: work that writes beside the pages may run meanwhile.
    whileInPlace?.(plan.buildId)
    // What out/ will hold is known: the store is written while Next renders, its render marker kept until the end.
    const recording = nextTurn().then(() => store.recordRender(props, inPlaceBuild(plan, props, last, audienceFolders)))
    const [rendered] = await Promise.all([rendering, recording])
    const placed = afterRender(paths.root, paths.out, plan, store, props, publicFiles, last, audienceFolders, true)
    return { buildId: plan.buildId, rendered: plan.render.length, kept: plan.keep.length, whyAll: null, whyNextBuild, wrote: [rendered, placed] }
  }
  // The warm renderer loaded the last build's server bundle, which `next build` replaces.
  await renderer.close()
  beforeRender(paths.root, paths.out, plan, store)
  await runNextBuild(paths)
  const buildId = fs.readFileSync(path.join(paths.next, 'BUILD_ID'), 'utf8').trim()
  if (buildId !== plan.buildId) throw new Error(`next build made build ${buildId}, not ${plan.buildId} as planned; the build ID's inputs changed during the build`)
  if (plan.keep.length > 0 && !keptPagesFit(paths.out, plan)) {
    // The kept pages would name scripts this build no longer has: render them all after all.
    plan = { ...plan, render: [...plan.render, ...plan.keep].sort(), keep: [], whyAll: "the client's files changed though the build ID did not" }
  }
  await renderPages(paths, plan, new LastBuildRenderer(paths))
  afterRender(paths.root, paths.out, plan, store, props, publicFiles, undefined, audienceFolders)
  return { buildId, rendered: plan.render.length, kept: plan.keep.length, whyAll: plan.whyAll, whyNextBuild, wrote: null }
}

/** The build ID, and why `next build` runs (null: out/ stays in place, and the last build's server bundle renders). */
export interface RenderCourse {
  buildId: string
  whyNextBuild: string | null
}

/** The render's course, known once the store and the plan are: nothing the pages step makes changes it. */
export function renderCourse(paths: SitePaths, store: PageStore, aggregates: Pick<AggregatePlan, 'audiences' | 'search'>): RenderCourse {
  const buildId = siteBuildId(paths.root)
  const last = store.render
  const whyNextBuild =
    whyRenderAll(store, buildId) ??
    whyNotReuse(paths, buildId, last) ??
    (last?.audienceFolders === audienceFoldersOf(aggregates) ? null : "the audiences changed, and out/ kept in place would keep an old one's files")
  return { buildId, whyNextBuild }
}

/**
 * `next build` compiles the site and renders its own pages (sign-in, the status pages), but no docs
 * page: its export would hold its compile's memory, its static-check processes and its own export
 * processes at once, the build's peak. The docs pages are rendered after it has exited, by the
 * renderer a rebuild uses, from the bundle it left (../render/renderWithNext.cjs).
 */
function runNextBuild(paths: SitePaths): Promise<void> {
  const routes = path.join(paths.root, RENDER_ROUTES)
  fs.writeFileSync(routes, '[]')
  return runInProduction('next build', [path.join(paths.root, 'node_modules/.bin/next'), 'build'], {
    cwd: paths.root,
    heapMb: NEXT_BUILD_HEAP_MB,
    env: { NEXT_IGNORE_INCORRECT_LOCKFILE: '1', [RENDER_ROUTES_ENV]: routes },
  })
}

/** The time each step of one build took, in the order they started, and the build's own (steps that run beside another overlap it). */
export interface PhaseTimes {
  phases: { name: string; seconds: number }[]
  /** From the first step's start to the last one's end; left out, the steps' sum. */
  seconds?: number
}

/** Runs one build step: a line when it starts, one when it ends with what it made, and its time kept in `times`. */
async function runStep<T>(times: PhaseTimes, name: string, run: () => T | Promise<T>, describe: (result: T) => string, starting = ''): Promise<T> {
  console.log(`build: ${name}${starting ? `: ${starting}` : ''}…`)
  const started = Date.now()
  const phase = { name, seconds: 0 }
  times.phases.push(phase)
  try {
    const result = await run()
    console.log(`build: ${name} (${((Date.now() - started) / 1000).toFixed(1)} s): ${describe(result)}`)
    return result
  } finally {
    phase.seconds = (Date.now() - started) / 1000
  }
}

/** The build's last lines: each step's time and share, and the total. */
export function formatPhaseTimes(times: PhaseTimes): string {
  const total = times.seconds ?? times.phases.reduce((sum, phase) => sum + phase.seconds, 0)
  const width = Math.max(5, ...times.phases.map((phase) => phase.name.length))
  const row = (name: string, seconds: number, share: string) => `  ${name.padEnd(width)}  ${seconds.toFixed(1).padStart(7)} s  ${share.padStart(4)}`
  return [
    'build: time per step',
    ...times.phases.map((phase) => row(phase.name, phase.seconds, total > 0 ? `${Math.round((phase.seconds / total) * 100)}%` : '')),
    row('total', total, ''),
  ].join('\n')
}

/** The build of the site at `paths`, with what ./warming.ts started loading (./buildSite.ts starts it first). */
export async function buildSite(paths: SitePaths, warming: Warming): Promise<void> {
  const times: PhaseTimes = { phases: [] }
  const started = Date.now()
  try {
    await buildSteps(paths, times, warming)
  } finally {
    times.seconds = (Date.now() - started) / 1000
    console.log(formatPhaseTimes(times))
  }
}

type Step = <T>(name: string, run: () => T | Promise<T>, describe: (result: T) => string, starting?: string) => Promise<T>

async function buildSteps(paths: SitePaths, times: PhaseTimes, { compileWorkers, renderer }: Warming): Promise<void> {
  const step: Step = (name, run, describe, starting) => runStep(times, name, run, describe, starting)
  // Whether the last build left its record of out/ (it did not stop half way).
  const lastBuildFinished = setOutRecordAside(paths.out)
  removeUnrecordedOut(paths.out, lastBuildFinished)
  setEdgeRecordsAside(paths.edgeDist)
  let outTouched = false
  try {
    await buildAfterWarming(paths, step, compileWorkers, renderer, lastBuildFinished, () => (outTouched = true))
  } catch (error) {
    // Stopped before writing into out/ (a page that does not compile, a broken link): out/ is the last build's still.
    if (lastBuildFinished && !outTouched) restoreOutRecord(paths.out)
    throw error
  } finally {
    await renderer.close()
  }
}

async function buildAfterWarming(paths: SitePaths, step: Step, compileWorkers: CompileWorkers, renderer: LastBuildRenderer, lastBuildFinished: boolean, writingOut: () => void): Promise<void> {
  // What the bundles bake from the environment and the AI tools' sign-in settings: a bad one fails here, named.
  aiToolsSettings(accessConfig.aiTools)
  const settings = await bakedSettings()
  // The record of out/ set aside is as large as out/: it is read once the Markdown step is done,
  // while this thread waits on search and the render, not on the path to the page props and the render.
  let lastRecord: LastOutRecord | undefined
  const readLastRecord = () => (lastRecord ??= readLastOutRecord(paths.out))
  // The search and Markdown steps need nothing the render makes. When out/ stays in place, search
  // starts once the pages are compiled and planned, beside the pages and render steps, and Markdown
  // while the render waits on Next's process; when `next build` makes out/ anew, both run after it.
  let course: RenderCourse | undefined
  let searching: Promise<SearchResult> | undefined
  const searchStep = ({ store, plan }: Pick<ContentRun, 'store' | 'plan'>) => {
    writingOut()
    searching ??= step(
      'search',
      () => buildSearchIndexes({ data: searchDataOf(paths.root, store.pages), outRoot: paths.out, access, plan, cacheDir: path.join(paths.root, CACHE_PATHS.search) }),
      ({ stats, skipped }) => [`${stats.length} indexes`, formatStats(stats), ...skipped.map((page) => `not indexed: ${page.route} (${page.reason})`)].join('\n')
    )
    // Awaited below, after the render: a failure meanwhile must not end the process unhandled.
    searching.catch(() => {})
    return searching
  }
  const run = await runContentSteps(paths.root, {
    access,
    kept: compileWorkers,
    step,
    releaseTexts: true,
    callerSaves: true,
    onCompileStart: ({ pages, toCompile, fromCache }) => {
      console.log(`build: content: ${pages} pages to check, ${toCompile} to compile, ${fromCache} from cache`)
      // A changed page is a search shard to index again: Pagefind starts while the compile is waited for.
      if (toCompile > 0) void startPagefindAhead()
    },
    onCompiled: (compiled) => {
      course = renderCourse(paths, compiled.store, compiled.plan)
      if (course.whyNextBuild === null) void searchStep(compiled)
    },
  }).finally(() => compileWorkers.close())
  const { source, store, pages, plan, lastUpdated, props } = run
  const pageMaps = run.navigation.fragments()
  let markdown: Promise<MarkdownReport> | undefined
  const markdownStep = (buildId: string) => {
    markdown ??= step(
      'markdown',
      () => writeMarkdown(paths, source, store.pages, plan, { pageMaps, lastUpdated }, { version: buildId }),
      ({ pages: count, files, rewritten }) => `${count} pages as Markdown, ${files - count} llms and catalog files; ${rewritten} of ${files} changed since the last build`
    )
    markdown.then(() => setImmediate(readLastRecord)).catch(() => {})
    return markdown
  }
  writingOut()
  const next = await step(
    'render',
    () =>
      nextBuild(paths, store, props.index, source.publicFiles, plan, renderer, course, (buildId) => {
        void searchStep(run)
        void markdownStep(buildId)
      }),
    (built) =>
      [
        `build ${built.buildId}, ${built.rendered} pages rendered, ${built.kept} kept from the last build${built.whyAll ? ` (all rendered: ${built.whyAll})` : ''}`,
        built.whyNextBuild ? `next build ran: ${built.whyNextBuild}` : "nothing compiled: the last next build's server bundle rendered them",
      ].join('; '),
    `${pages.length} pages`
  )
  // The routes step maps the search step's files too, so it waits for them.
  const search = await searchStep(run)
  const markdownFiles = await markdownStep(next.buildId)
  const routes = await step(
    'routes',
    () => postbuild(paths, { access, buildId: next.buildId, plannedRoutes: plan.routes, pageMaps, audiences: plan.audiences }),
    ({ files, routes: mapped }) => `${files.length} files in out/, ${Object.keys(mapped).length} build files mapped to routes`
  )
  // Every page rendered from a writer's MDX: only the site's own inline scripts may be on them.
  const docsPages = new Set(pages.flatMap((page) => objectKeyFor(page.route) ?? []))
  // Out/ stayed in place since the last build's record: only what this build's steps wrote is stat'ed.
  const wrote = lastBuildFinished && next.wrote ? [...next.wrote, markdownFiles.wrote, routes.wrote, search.wrote] : undefined
  // No step from here on writes into out/ (edge and mcp write their own folders): the scripts, csp and record steps share one listing.
  let out!: OutReading
  const scripts = await step(
    'scripts',
    () => {
      out = readOut(paths.out, routes.files, readLastRecord(), wrote)
      return writeInlineScriptHashes(paths, docsPages, out.pages())
    },
    describeInlineScripts
  )
  // The indexes the search step wrote: an audience whose pages all stay out of search has none.
  // Their files, whatever Pagefind names them, are decided by their audience's folder (plan.routes).
  const searched: AggregatePlan = { ...plan, search: plan.search.filter((spec) => search.stats.some((stats) => stats.id === spec.id)) }
  const audiences = audienceSummaries(searched)
  writeAudiencesFile(paths.audiences, access, audiences)
  const baked = { paths, scriptHashes: scripts.hashes, assetRoutes: routes.routes, audiences, settings }
  await step('edge', () => buildEdge(baked), describeEdgeBundle)
  await step('mcp', () => buildMcp(baked), describeMcpBundle)
  await step('csp', async () => assertPoliciesAllowPages(out.pages(), await shippedPolicies(paths)), ({ pages, policies }) => `${pages} pages: every inline script allowed by hash, by the ${policies} policies that ship`)
  // The record names the rules out/ was built under, as the edge step wrote them: a deploy takes out/ only beside an authorizer of those rules.
  await step('record', () => out.write(next.buildId, readRulesFingerprint(paths.edgeDist), poolOf(readBuiltFor(paths.edgeDist)!)), ({ files, hashed, buildId }) => `${files} files of out/ recorded for build ${buildId}, ${hashed} of them hashed (the others unchanged since the last record)`)
}
