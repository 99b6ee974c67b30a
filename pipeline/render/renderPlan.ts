/**
 * Which pages the build step renders, which it keeps from the last build's out/, and whether it
 * needs `next build` at all.
 *
 * A page's HTML and data file are a function of the site's code (the build ID: what `next build`
 * reads, the environment and the versions, pipeline/buildId.ts) and of its props (the page step's
 * file, named by its hash, pipeline/render/pageProps.ts). So when the build ID is the last
 * build's, a page whose props file is the one it was rendered from would render to the same bytes:
 * it is kept, and only the others are rendered. Anything else, or any doubt (no record, another
 * build ID, a file missing from out/), renders every page. What out/ holds is kept in the page
 * store (../store/pageStore.ts): the build's ID, `next build`'s own files with their digests, and
 * each page's props file it was rendered from.
 *
 * With the same build ID, the code is the same, so the last `next build`'s server bundle (.next/)
 * renders the changed pages as a new one would, and its other files of out/ are the ones a new one
 * would write: they come back from the last out/ and .next/, checked against their digests, and
 * nothing is compiled (./renderWithNext.cjs). Any file changed or missing runs `next build`.
 */
import fs from 'node:fs'
import path from 'node:path'
import { listFiles, presentUnder, removeEmptyFolders, sha256 } from '../files'
import { openKeptFiles } from '../steps/keptFiles'
import { CACHE_PATHS, sitePaths } from '../steps/paths'
import { pageDataFile, pageHtmlFile } from '../../lib/access/pageFiles'
import type { AggregatePlan } from '../../lib/access/planAggregates'
import type { PropsIndex } from '../../lib/render/propsFiles'
import type { PageStore, RenderedBuild } from '../store/pageStore'
import type { PublicFile } from '../content/contentSource'
import { BUILD_FILE_FOLDERS } from '../../lib/pathFormats'
import type { OutWrites } from '../steps/outFiles'

/**
 * The routes the render step renders, for `next build`'s getStaticPaths (lib/render/docsPages.ts,
 * through DOCS_RENDER_ROUTES: none) and then the renderer (./renderWithNext.cjs): a file, because both run in
 * their own process and the route, which is runtime code, never reads the page store. Removed once
 * the build is done.
 */
export const RENDER_ROUTES = CACHE_PATHS.renderRoutes
/** The last build's out/, set aside while the render step makes a new one. */
export const PREVIOUS_OUT = CACHE_PATHS.previousOut

export interface RenderPlan {
  buildId: string
  /** Routes the render step renders. */
  render: string[]
  /** Routes whose files come from the last build's out/. */
  keep: string[]
  /** Why every page renders, when it does. */
  whyAll: string | null
  /** The client's files the kept pages name (the last build's). */
  keptClientFiles: string[]
}

/** Whether an out/ key is one of the client's files (`_next/static/chunks/…`, `_next/static/css/…`), which every page names. */
const isClientFile = (key: string) => key.startsWith(BUILD_FILE_FOLDERS.chunks) || key.startsWith(BUILD_FILE_FOLDERS.css)

/**
 * Whether the pages kept from the last build name the files this build's client has: the same
 * build ID should give the same files, and when it did not, the kept pages would load scripts
 * that are gone. Then every page must be rendered again.
 */
export function keptPagesFit(out: string, plan: RenderPlan): boolean {
  const clientFiles = fs.existsSync(out) ? listFiles(out).filter(isClientFile) : []
  return JSON.stringify(plan.keptClientFiles) === JSON.stringify(clientFiles)
}

/** A page's two files under out/: its HTML and its data (what the router fetches to move to it). */
export function pageFilesOf(route: string, buildId: string): [html: string, data: string] {
  return [pageHtmlFile(route).slice(1), pageDataFile(buildId, route).slice(1)]
}

/** `next build`'s own files of out/: every file but the docs pages' (of `routes`) and the public files (`publicKeys`), with its sha256. */
export function nextFilesOf(out: string, buildId: string, routes: readonly string[], publicKeys: ReadonlySet<string> = new Set()): Record<string, string> {
  const pageFiles = new Set(routes.flatMap((route) => pageFilesOf(route, buildId).map((file) => `/${file}`)))
  return Object.fromEntries(listFiles(out).filter((key) => !pageFiles.has(key) && !publicKeys.has(key)).map((key) => [key, sha256(fs.readFileSync(path.join(out, key)))]))
}

/**
 * The server bundle `next build` left in `next` (.next/): each file of its server/ folder, by its
 * path there, with its sha256. The renderer of a rebuild loads them, so one damaged since (a disk
 * fault, a hand's edit) would fail the build; recorded, it runs `next build` instead (./reuseLastBuild.ts).
 */
export function serverFilesOf(next: string): Record<string, string> {
  const server = path.join(next, 'server')
  if (!fs.existsSync(server)) return {}
  return Object.fromEntries(listFiles(server).map((key) => [`server${key}`, sha256(fs.readFileSync(path.join(server, key)))]))
}

/**
 * The public files into out/, each as the content source read and checked it: `next build` copies
 * the folder itself (which the source has checked), the renderer does not, and a file that changed
 * since must not be kept. Each is linked from its kept copy (../steps/keptFiles.ts), so an
 * unchanged one keeps its inode and the build's record of its hash (../steps/outRecord.ts). A file
 * whose stamp names it (its `version`) as when its copy was kept is not read.
 */
export function placePublicFiles(root: string, out: string, files: readonly PublicFile[]): OutWrites {
  const kept = openKeptFiles(root, out, CACHE_PATHS.publicFiles)
  for (const file of files) {
    if (file.version === null) kept.write(file.key, file.bytes())
    else kept.writeFrom(file.key, file.version, file.bytes)
  }
  kept.prune()
  return { files: kept.written() }
}

export function planRender(store: PageStore, out: string, buildId: string, props: PropsIndex): RenderPlan {
  const routes = Object.keys(props).sort()
  const whyAll = whyRenderAll(store, buildId)
  if (whyAll !== null) return { buildId, render: routes, keep: [], whyAll, keptClientFiles: [] }
  const state = store.render!
  const present = presentUnder(out)
  const keep = routes.filter((route) => store.pages[route]?.rendered === props[route] && pageFilesOf(route, buildId).every(present))
  const kept = new Set(keep)
  return { buildId, render: routes.filter((route) => !kept.has(route)), keep, whyAll: null, keptClientFiles: Object.keys(state.nextFiles).filter(isClientFile) }
}

/** Why every page renders under `buildId`, whatever changed; null when pages may be kept from the last build. */
export function whyRenderAll(store: PageStore, buildId: string): string | null {
  if (!store.render) return 'no record of an earlier build'
  return store.render.buildId === buildId ? null : "the site's code, settings or dependencies changed"
}

/**
 * The audiences' own files out/ holds besides the pages (search folders, route manifests, page-map
 * fragments): a rebuild in place keeps out/, so it may only when these are the last build's, or
 * the files of an audience no longer planned would stay and ship.
 */
export function audienceFoldersOf(plan: Pick<AggregatePlan, 'audiences' | 'search'>): string {
  return sha256(JSON.stringify({ audiences: plan.audiences.map((audience) => audience.id).sort(), search: plan.search.map((spec) => spec.outDir).sort() }))
}

/**
 * Before rendering: forgets what out/ held, so a build that stops half way renders everything next
 * time (with `next build`, which empties out/). For `next build`, sets the pages to keep aside with
 * the rest of the last out/; `inPlace` (the last build's files serve again, ./reuseLastBuild.ts)
 * leaves out/ where it is, for the renderer to write the changed pages into.
 */
export function beforeRender(root: string, out: string, plan: Pick<RenderPlan, 'keep'>, store: PageStore, mode: 'set aside' | 'in place' = plan.keep.length > 0 ? 'set aside' : 'in place'): void {
  const previous = path.join(root, PREVIOUS_OUT)
  fs.mkdirSync(path.dirname(previous), { recursive: true })
  fs.rmSync(previous, { recursive: true, force: true })
  store.startRender()
  if (mode === 'set aside') fs.renameSync(out, previous)
}

/**
 * What out/ holds after a render in place (./reuseLastBuild.ts): the last build's Next files (it
 * checked them), and the pages of `props`. Known before the render ends, so the store can record it meanwhile.
 */
export function inPlaceBuild(plan: RenderPlan, props: PropsIndex, last: Readonly<RenderedBuild>, audienceFolders?: string): RenderedBuild {
  return { buildId: plan.buildId, nextFiles: last.nextFiles, serverFiles: last.serverFiles, routes: Object.keys(props).sort(), audienceFolders }
}

/**
 * After rendering: the public files and the kept pages' files into out/, and the record of what
 * out/ holds. With `inPlace`, the last build's record (out/ stayed where it was): the kept pages
 * are already there, the files of pages the site no longer has are removed, and Next's files are
 * the ones that build recorded (./reuseLastBuild.ts checked them). `recorded`: the store recorded
 * the outcome while the render ran (PageStore.recordRender), and only ends its render. The public
 * files it put into out/.
 */
export function afterRender(root: string, out: string, plan: RenderPlan, store: PageStore, props: PropsIndex, publicFiles: readonly PublicFile[], inPlace?: Readonly<RenderedBuild>, audienceFolders?: string, recorded = false): OutWrites {
  const previous = path.join(root, PREVIOUS_OUT)
  const placed = placePublicFiles(root, out, publicFiles)
  const routes = Object.keys(props).sort()
  if (inPlace) {
    const now = new Set(routes)
    const gone = (inPlace.routes ?? []).filter((route) => !now.has(route)).flatMap((route) => pageFilesOf(route, plan.buildId))
    for (const file of gone) fs.rmSync(path.join(out, file), { force: true })
    // Its folders go with a removed page's last file, whichever step removes that (the Markdown step its `.md`).
    removeEmptyFolders(out, gone)
  } else {
    for (const route of plan.keep) {
      for (const file of pageFilesOf(route, plan.buildId)) {
        fs.mkdirSync(path.dirname(path.join(out, file)), { recursive: true })
        fs.renameSync(path.join(previous, file), path.join(out, file))
      }
    }
    fs.rmSync(previous, { recursive: true, force: true })
  }
  fs.rmSync(path.join(root, RENDER_ROUTES), { force: true })
  if (recorded) store.endRender()
  else store.finishRender(props, inPlace ? inPlaceBuild(plan, props, inPlace, audienceFolders) : { buildId: plan.buildId, nextFiles: nextFilesOf(out, plan.buildId, routes, new Set(publicFiles.map((file) => file.key))), serverFiles: serverFilesOf(sitePaths(root).next), routes, audienceFolders })
  return placed
}
