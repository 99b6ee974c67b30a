/**
 * What the one docs route (pages/[[...slug]].tsx) renders: every page's route, and for one route
 * the props the page step wrote (pipeline/render/pageProps.ts). Bundled into the route's server code, so it
 * holds nothing but the reading of two files: the page maps, the compiler and git stay outside the
 * bundler, and the bundle is the same whatever the pages.
 */
import fs from 'node:fs'
import path from 'node:path'
import { PROPS_DIR, PROPS_INDEX, propsFileName, type DocsPageProps, type PropsIndex } from './propsFiles'
import { RENDER_ROUTES_ENV } from '../pathFormats'

export type { DocsPageProps } from './propsFiles'

export class DocsPageError extends Error {
  constructor(message: string) {
    super(`docs route: ${message}`)
    this.name = 'DocsPageError'
  }
}

const ROOT = process.cwd()

/**
 * Why the index may be missing. In `npm run dev` the page, shown before anything was written,
 * cannot hear of the first write (lib/render/useDevServerEvents.ts runs in a page that rendered).
 */
const MISSING_INDEX =
  process.env.NODE_ENV === 'development'
    ? 'npm run dev writes it when its first content check ends (the terminal prints `content check: …`); reload this page then'
    : "the build writes each page's props before `next build`; run `npm run build` or `npm run dev`, not `next build` alone"

let cached: { mtimeMs: number; index: PropsIndex } | null = null

/**
 * The index, read again only when the page step has written a new one: in `npm run dev`, where
 * getStaticProps runs on every request, after each content check, so a page's next request has
 * its new props (lib/render/useDevServerEvents.ts asks for them).
 */
function readIndex(): PropsIndex {
  const file = path.join(ROOT, PROPS_INDEX)
  if (!fs.existsSync(file)) throw new DocsPageError(`${PROPS_INDEX} is missing: ${MISSING_INDEX}`)
  const { mtimeMs } = fs.statSync(file)
  if (cached?.mtimeMs !== mtimeMs) cached = { mtimeMs, index: JSON.parse(fs.readFileSync(file, 'utf8')) as PropsIndex }
  return cached.index
}

/**
 * In `npm run dev`, Next would keep the paths it was given the first time a page was asked for, and
 * answer 404 for a page added since (or every page, when that first time came before the first
 * content check wrote them). There the route lists none and renders any path asked for, and a path
 * with no page is Next's 404. A build lists every page and renders only those (a static export allows no
 * other way).
 */
export const DOCS_FALLBACK: false | 'blocking' = process.env.NODE_ENV === 'development' ? 'blocking' : false

/**
 * Every page the route renders, as Next's `getStaticPaths` wants them: all of them, or the ones the
 * render-routes variable lists (in the build, none for `next build`, then the pages the renderer
 * renders: pipeline/render/renderPlan.ts). In `npm run dev`, none: every path renders on request
 * (DOCS_FALLBACK), and Next's dev server rewrites its prerender manifest in place whenever the
 * listed paths change, so a page added would fail any request that read the manifest mid-write.
 */
export function docsPaths(): Array<{ params: { slug: string[] } }> {
  if (DOCS_FALLBACK) return []
  const only = process.env[RENDER_ROUTES_ENV]
  const routes = only ? (JSON.parse(fs.readFileSync(only, 'utf8')) as string[]) : Object.keys(readIndex())
  return routes.sort().map((route) => ({ params: { slug: route === '/' ? [] : route.slice(1).split('/') } }))
}

/** The page's props; null, in `npm run dev` only, for a path with no page (see DOCS_FALLBACK). */
export function docsPageProps(slug: readonly string[] | undefined): DocsPageProps | null {
  const route = slug && slug.length ? `/${slug.join('/')}` : '/'
  const name = readIndex()[route]
  if (!name && DOCS_FALLBACK) return null
  if (!name) throw new DocsPageError(`no page for ${route} in ${PROPS_INDEX}`)
  const file = path.join(PROPS_DIR, name)
  try {
    const json = fs.readFileSync(path.join(ROOT, file), 'utf8')
    if (propsFileName(json) !== name) throw new Error('its bytes are not those the page step wrote under that name')
    return JSON.parse(json) as DocsPageProps
  } catch (error) {
    // The build's own file, damaged or removed by hand: the next build writes a missing one again.
    throw new DocsPageError(`${file}, the props of ${route}, cannot be read (${error instanceof Error ? error.message : String(error)}); remove it and build again`)
  }
}
