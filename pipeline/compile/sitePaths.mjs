/**
 * A page's (and a `_meta` file's) relative URLs as site paths: one rule for the link check
 * (../steps/checkLinks.ts), which judges a link by the path it names, and for the compile
 * (./compileWorker.mjs), which writes that path into the page. The page must hold the path that
 * was checked: a relative `href` left as written is resolved by Next's router against its route
 * pattern (`/[[...slug]]`), not the page's address, and `../intro` went out as `/intro`.
 */
import path from 'node:path'

/** A path segment as a browser reads its dots (`%2e` is a dot there too). */
const dotsOf = (segment) => segment.replace(/%2e/gi, '.')

/**
 * A site path with its `.` and `..` segments resolved as a browser resolves them.
 * @param {string} pathname
 */
export function withoutDotSegments(pathname) {
  const segments = []
  for (const segment of pathname.split('/').slice(1)) {
    const dots = dotsOf(segment)
    if (dots === '..') segments.pop()
    else if (dots !== '.') segments.push(segment)
  }
  return `/${segments.join('/')}`
}

/**
 * Whether a written path names a folder and then climbs out of it (`a/../b`); a relative path's leading `../` names none.
 * @param {string} written
 */
export function climbsOut(written) {
  let named = false
  for (const segment of written.split('/')) {
    const dots = dotsOf(segment)
    if (dots === '..' && named) return true
    if (segment !== '' && dots !== '.' && dots !== '..') named = true
  }
  return false
}

/**
 * The site path a link's path (no query or fragment) names on the page at `route`, as a browser at
 * that address resolves it: from the page's folder, the route without its last segment; an empty
 * one (a link that is only a query) names the page itself.
 * @param {string} route
 * @param {string} written
 */
export function sitePathOf(route, written) {
  if (written === '') return route
  return withoutDotSegments(written.startsWith('/') ? written : path.posix.join(route, '..', written))
}

/** A URL that a page writes relative to its own address (a query alone too): not a site path, a fragment, or another site's. */
const RELATIVE = /^(?![/#]|[a-z][a-z0-9+.-]*:)/i

/**
 * `url` as the site path it names from the page at `route`, its query and fragment kept (a query
 * alone names the page itself, as the link check reads it); any other URL as it is.
 * @param {string} route
 * @param {string} url
 */
export function absoluteUrl(route, url) {
  if (url === '' || !RELATIVE.test(url)) return url
  const at = url.search(/[?#]/)
  return at < 0 ? sitePathOf(route, url) : sitePathOf(route, url.slice(0, at)) + url.slice(at)
}

/**
 * The document `tree` of the page at `route` with every relative URL as its site path: each URL
 * attribute of a tag (`urlAttributes`, lib/render/codeInPages.json), and a component's `href`, as
 * ./documentLinks.ts reads them. Changes it in place.
 * @param {import('../../lib/render/pageDocument').TreeNode[]} tree
 * @param {string} route
 * @param {ReadonlySet<string>} urlAttributes
 */
export function withSitePaths(tree, route, urlAttributes) {
  for (const node of tree) {
    if (node.type !== 'element') continue
    for (const [name, value] of Object.entries(node.properties)) {
      if (typeof value !== 'string' || !isUrlProperty(node.tagName, name, urlAttributes)) continue
      node.properties[name] = name.toLowerCase() === 'srcset' ? value.replace(/(^|,)([\t\n\f\r ]*)([^\t\n\f\r ,]+)/g, (_, comma, space, url) => comma + space + absoluteUrl(route, url)) : absoluteUrl(route, value)
    }
    for (const drawn of Object.values(node.componentProps ?? {})) withSitePaths([drawn], route, urlAttributes)
    withSitePaths(node.children, route, urlAttributes)
  }
  return tree
}

/**
 * Whether an element's property holds a URL: a component's `href` (a card's `icon` is a picture,
 * not an address); a tag's, any URL attribute (`urlAttributes`, lowercase).
 * @param {string} tagName
 * @param {string} name
 * @param {ReadonlySet<string>} urlAttributes
 */
export function isUrlProperty(tagName, name, urlAttributes) {
  const lower = name.toLowerCase()
  return /^[A-Z]/.test(tagName) ? lower === 'href' : urlAttributes.has(lower)
}

/**
 * A site path to a page's file (`/docs/leads/intro.mdx`, or `.md`) as the page's route, as the link
 * check judges it; any other URL as it is.
 * @param {string} url
 */
function pageUrl(url) {
  if (!url.startsWith('/') || url.startsWith('//')) return url
  const at = url.search(/[?#]|$/)
  return url.slice(0, at).replace(/\.mdx?$/i, '') + url.slice(at)
}

/**
 * A `_meta` file's data with each relative `href` (at any depth: a menu's items), and each naming a
 * page's file (`intro.mdx`), as the site path the link check judged (../steps/checkLinks.ts resolves
 * it from the folder's route): as written, the sidebar would ship it to every page of the folder,
 * each page's address would resolve it elsewhere, and no file is served at a page's `.mdx`. An
 * empty one is the folder's own page, as the check reads it.
 * @param {Record<string, unknown>} data
 * @param {string} folderRoute
 * @returns {Record<string, unknown>}
 */
export function withSiteHrefs(data, folderRoute) {
  /** @param {unknown} value @returns {unknown} */
  const visit = (value) => {
    if (Array.isArray(value)) return value.map(visit)
    if (value === null || typeof value !== 'object') return value
    return Object.fromEntries(Object.entries(value).map(([key, entry]) => [key, key === 'href' && typeof entry === 'string' ? (entry === '' ? folderRoute : pageUrl(absoluteUrl(folderRoute, entry))) : visit(entry)]))
  }
  return /** @type {Record<string, unknown>} */ (visit(data))
}
