/**
 * Which pages `next build` renders, and which it keeps from the last build's out/.
 *
 * A page's HTML and data file are a function of the site's code (the build ID: every file but the
 * pages, the environment and the versions, pipeline/buildId.ts) and of its props (the page step's
 * file, named by its hash, pipeline/render/pageProps.ts). So when the build ID is the last
 * build's, a page whose props file is the one it was rendered from would render to the same bytes:
 * it is kept, and only the others are rendered. Anything else, or any doubt (no record, another
 * build ID, a file missing from out/), renders every page.
 */
import fs from 'node:fs'
import path from 'node:path'
import { listFiles } from '../steps/siteFiles'
import { pageDataFile, pageHtmlFile } from '../../lib/access/pageFiles'
import type { PropsIndex } from '../../lib/render/propsFiles'

/** What out/'s pages were rendered from, written once `next build` has succeeded. */
export const RENDERED_STATE = '.cache/rendered.json'
/** The routes this `next build` renders (its getStaticPaths, through DOCS_RENDER_ROUTES). */
export const RENDER_ROUTES = '.cache/render-routes.json'
/** The last build's out/, set aside while `next build` writes a new one. */
export const PREVIOUS_OUT = '.cache/out-previous'

interface RenderedState {
  buildId: string
  props: PropsIndex
  /** The client's files (chunks and style sheets, named by their hashes) the pages name. */
  clientFiles: string[]
}

export interface RenderPlan {
  buildId: string
  /** Routes `next build` renders. */
  render: string[]
  /** Routes whose files come from the last build's out/. */
  keep: string[]
  /** Why every page renders, when it does. */
  whyAll: string | null
}

/** The client's files of out/ (`_next/static/chunks/…`, `_next/static/css/…`), which every page names. */
export function clientFilesOf(out: string): string[] {
  return ['_next/static/chunks', '_next/static/css']
    .filter((dir) => fs.existsSync(path.join(out, dir)))
    .flatMap((dir) => listFiles(path.join(out, dir)).map((key) => dir + key))
    .sort()
}

/**
 * Whether the pages kept from the last build name the files this build's client has: the same
 * build ID should give the same files, and when it did not, the kept pages would load scripts
 * that are gone. Then every page must be rendered again.
 */
export function keptPagesFit(root: string, out: string): boolean {
  const state = readState(root, PREVIOUS_STATE)
  return state !== null && JSON.stringify(state.clientFiles) === JSON.stringify(clientFilesOf(out))
}

/** A page's two files under out/: its HTML and its data (what the router fetches to move to it). */
export function pageFilesOf(route: string, buildId: string): [html: string, data: string] {
  return [pageHtmlFile(route).slice(1), pageDataFile(buildId, route).slice(1)]
}

/** The record of the out/ set aside, while `next build` writes the new one. */
const PREVIOUS_STATE = `${PREVIOUS_OUT}.json`

function readState(root: string, file = RENDERED_STATE): RenderedState | null {
  try {
    return JSON.parse(fs.readFileSync(path.join(root, file), 'utf8')) as RenderedState
  } catch {
    return null
  }
}

export function planRender(root: string, out: string, buildId: string, props: PropsIndex): RenderPlan {
  const routes = Object.keys(props).sort()
  const all = (whyAll: string): RenderPlan => ({ buildId, render: routes, keep: [], whyAll })
  const state = readState(root)
  if (!state?.clientFiles) return all('no record of an earlier build')
  if (state.buildId !== buildId) return all("the site's code, settings or dependencies changed")
  const keep = routes.filter((route) => state.props[route] === props[route] && pageFilesOf(route, buildId).every((file) => fs.existsSync(path.join(out, file))))
  const kept = new Set(keep)
  return { buildId, render: routes.filter((route) => !kept.has(route)), keep, whyAll: null }
}

/**
 * Before `next build` (which empties out/): forgets the record, so a build that stops half way
 * renders everything next time, and sets the pages to keep aside with the rest of the last out/.
 */
export function beforeRender(root: string, out: string, plan: RenderPlan): void {
  const previous = path.join(root, PREVIOUS_OUT)
  fs.mkdirSync(path.dirname(previous), { recursive: true })
  fs.rmSync(previous, { recursive: true, force: true })
  fs.rmSync(path.join(root, PREVIOUS_STATE), { force: true })
  if (plan.keep.length > 0) {
    fs.renameSync(out, previous)
    fs.renameSync(path.join(root, RENDERED_STATE), path.join(root, PREVIOUS_STATE))
  } else fs.rmSync(path.join(root, RENDERED_STATE), { force: true })
  fs.writeFileSync(path.join(root, RENDER_ROUTES), JSON.stringify(plan.render))
}

/** After `next build`: the kept pages' files back into out/, and the record of what out/ holds. */
export function afterRender(root: string, out: string, plan: RenderPlan, props: PropsIndex): void {
  const previous = path.join(root, PREVIOUS_OUT)
  for (const route of plan.keep) {
    for (const file of pageFilesOf(route, plan.buildId)) {
      fs.mkdirSync(path.dirname(path.join(out, file)), { recursive: true })
      fs.renameSync(path.join(previous, file), path.join(out, file))
    }
  }
  fs.rmSync(previous, { recursive: true, force: true })
  fs.rmSync(path.join(root, PREVIOUS_STATE), { force: true })
  fs.rmSync(path.join(root, RENDER_ROUTES), { force: true })
  fs.writeFileSync(path.join(root, RENDERED_STATE), JSON.stringify({ buildId: plan.buildId, props, clientFiles: clientFilesOf(out) } satisfies RenderedState))
}
