/**
 * The two files Next's static export writes for a page, and the page a file of that name is: its
 * HTML (`/docs/x.html`) and its data (`/_next/data/<build>/docs/x.json`, which Next's router
 * fetches to move to the page). Both are named by the route as Next names a page's files
 * (next/dist/shared/lib/router/utils/get-asset-path-from-route.js): `/` is `/index`, and a route
 * that starts with an `/index` folder gets a second one (`/index/x` is `/index/index/x`), so that
 * the home page's files and that folder's never meet.
 *
 * Routes are canonical (./normalisePath.ts): decoded and lowercase, with no trailing `index`.
 * `/docs/x/index` is not a route but a spelling of `/docs/x`, whose files are `docs/x.*`; Next
 * would name its files `docs/x/index.*`, a name no request reaches, so it is refused.
 *
 * No Node or browser imports: the edge, the build and the page in the browser use it.
 */
import { normalisePath } from './normalisePath'
import { PAGE_DATA_PREFIX } from '../pathFormats'


/** A route given as a page's files' name is not canonical: a bug in the caller, not a reader's doing. */
export class NotCanonicalRouteError extends Error {
  constructor(route: string) {
    super(`page files: "${route}" is not a canonical route (it reads as ${JSON.stringify(normalisePath(route))}); name a page's files by its route from lib/access/normalisePath.ts`)
    this.name = 'NotCanonicalRouteError'
  }
}

/** A route that starts with an `/index` folder, which Next's file names set apart with a second one. */
const INDEX_FOLDER = /^\/index(\/|$)/

/** The name Next gives a page's files, without extension (`/` is `/index`). */
function fileNameOf(route: string): string {
  if (normalisePath(route) !== route) throw new NotCanonicalRouteError(route)
  return route === '/' ? '/index' : INDEX_FOLDER.test(route) ? `/index${route}` : route
}

/**
 * The page whose files (and client chunk) are named `name`, without extension, in any case and any
 * spelling that reads as that page (`/docs/x/index` is `/docs/x`'s), as a case-insensitive file
 * system would serve it; null when no page's are: Next names `/index/x`'s files `/index/index/x`.
 */
export function routeOfPageName(name: string): string | null {
  const lower = name.toLowerCase()
  if (lower === '/index') return '/'
  if (!lower.startsWith('/index/')) return normalisePath(lower)
  const route = lower.slice('/index'.length)
  return INDEX_FOLDER.test(route) ? normalisePath(route) : null
}

/** A page's HTML file, as an object key of out/ (`/index.html`, `/docs/x.html`). */
export const pageHtmlFile = (route: string) => `${fileNameOf(route)}.html`

/** A page's data file, as an object key of out/ and a path under the site's base path. */
export const pageDataFile = (buildId: string, route: string) => `${PAGE_DATA_PREFIX}${buildId}${fileNameOf(route)}.json`

const HTML_FILE = /^(\/.*)\.html$/i
const DATA_FILE = new RegExp(`^${PAGE_DATA_PREFIX}[^/]+(/.+)\\.json$`)

/** The page a `.html` key of out/ is (`/index.html` is `/`); null for any other key. */
export function routeOfHtmlFile(key: string): string | null {
  const name = HTML_FILE.exec(key)?.[1]
  return name === undefined ? null : routeOfPageName(name)
}

/** The page a data file's key is (`/_next/data/<build>/index.json` is `/`); null for any other key. */
export function routeOfDataFile(key: string): string | null {
  const name = DATA_FILE.exec(key)?.[1]
  return name === undefined ? null : routeOfPageName(name)
}
