/**
 * What a served file tells its reader that it should not: other people's usernames, routes and
 * distinctive titles of pages the reader may not open (rules can be finer than a section), and
 * (for a protected file) a Cache-Control that lets a shared cache keep it, or, but for the site's
 * own code (content-hashed build files, Pagefind's engine), the browser's own cache (which would
 * hand it to whoever uses the browser after a sign-out). The leak audit of
 * `npm test` and `npm run audit:live` both scan with this.
 */
import zlib from 'node:zlib'
import { browserStorable, isSiteCode, sharedCacheable } from '../../edge/cacheHeaders'
import { routeOfDataFile } from '../../lib/access/pageFiles'
import { PAGE_DATA_PREFIX } from '../../lib/pathFormats'
import { normalisePath } from '../../lib/access/normalisePath'
import { slugTitle } from '../../lib/navigation/slugTitle'

/** A section's routes in the spellings a file may hold them: plain, JSON-escaped, percent-encoded. */
export function sectionRoutePattern(id: string): RegExp {
  const slash = '(?:/|\\\\?u002[Ff]|%2[Ff])'
  return new RegExp(`${slash}docs${slash}${id.replace(/-/g, '\\-')}(?![A-Za-z0-9_-])`)
}

/** A username as a whole token, as a list or a view would hold it (not inside a longer word). */
export const usernamePattern = (name: string) => new RegExp(`(?<![A-Za-z0-9_.@-])${name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?![A-Za-z0-9_@-])`)

/** A response body as text; Pagefind's gzip index files are read decompressed, as its engine reads them. */
export function readBody(bytes: Buffer): string {
  const text = bytes[0] === 0x1f && bytes[1] === 0x8b ? zlib.gunzipSync(bytes) : bytes
  return text.toString('latin1')
}

/**
 * Every path under a section's folder that a body names, in any of those spellings, as a plain path.
 * A page's data file (`/_next/data/<build>/<route>.json`, which its HTML preloads) is named as the
 * page it is, as the edge decides it (lib/access/pageFiles.ts).
 */
export function sectionPathsIn(body: string, id: string): string[] {
  const plain = body.replace(/\\?u002[Ff]|%2[Ff]/g, '/')
  const found = plain.match(new RegExp(`(?:${PAGE_DATA_PREFIX}[A-Za-z0-9_-]+)?/docs/${id.replace(/-/g, '\\-')}(?:/[A-Za-z0-9_.~-]+)*(?![A-Za-z0-9_-])`, 'g')) ?? []
  const named = found.map((found) => routeOfDataFile(found) ?? found.replace(/\/$/, ''))
  return [...new Set(named)]
}

export interface ScanContext {
  /** The reader's own username (it may read it), or null for an anonymous visitor. */
  role: string | null
  /** Usernames that no one but their owner may read. */
  usernames: readonly string[]
  /** Section ids: their paths are what the route search looks for. */
  sections: readonly string[]
  /**
   * Whether the role may know of a path: it may open it, or it is a folder on the way to a page the
   * role may open (a folder an admin gave a reader is reached through its section's folders).
   */
  mayKnowPath: (path: string) => boolean
}

export interface RoleFindings {
  usernamesLeaked: string[]
  routesLeaked: string[]
  sharedCacheable: string[]
  /** Protected files, not the site's code, that the browser's cache may keep past a sign-out. */
  storedByBrowser: string[]
  /** Sections whose routes the role found where it may: proves the route search finds routes at all. */
  ownRoutesSeen: Set<string>
}

export const noFindings = (): RoleFindings => ({ usernamesLeaked: [], routesLeaked: [], sharedCacheable: [], storedByBrowser: [], ownRoutesSeen: new Set() })

export interface ServedFile {
  key: string
  status: number
  cacheControl: string | null
  body: string
  /** Whether the file may reach only some readers (so no shared cache may keep it). */
  protected: boolean
}

/**
 * A response as its reader receives it, for the scan: its headers, then its body, whatever its
 * status (a refusal's page, a redirect's address). A redirect's `next=` or `from=` that names the
 * requested path itself is the reader's own words sent back and tells them nothing, so it is left
 * out; any other path a header names is scanned.
 */
export function responseText(key: string, headers: Iterable<[string, string]>, body: string): string {
  const own = normalisePath(key)
  const lines = [...headers].map(([name, value]) => {
    if (name.toLowerCase() !== 'location') return `${name}: ${value}`
    const url = new URL(value, 'http://audit.invalid')
    for (const param of ['next', 'from']) {
      const echoed = url.searchParams.get(param)
      if (echoed !== null && own !== null && normalisePath(echoed.split('?', 1)[0]) === own) url.searchParams.delete(param)
    }
    return `${name}: ${url.origin === 'http://audit.invalid' ? '' : url.origin}${url.pathname}${url.search}`
  })
  return `${lines.join('\n')}\n\n${body}`
}

/** Adds what one response tells its reader that it should not to `findings`, whatever its status. */
export function scanServed(file: ServedFile, context: ScanContext, findings: RoleFindings): void {
  if (file.protected && sharedCacheable(file.cacheControl)) findings.sharedCacheable.push(`${file.key} (${file.status}, ${file.cacheControl})`)
  else if (file.protected && browserStorable(file.cacheControl) && !isSiteCode(file.key)) findings.storedByBrowser.push(`${file.key} (${file.status}, ${file.cacheControl})`)
  for (const name of context.usernames) {
    if (name !== context.role && usernamePattern(name).test(file.body)) findings.usernamesLeaked.push(`${name} in ${file.key}`)
  }
  for (const id of context.sections) {
    if (!sectionRoutePattern(id).test(file.body)) continue
    const paths = sectionPathsIn(file.body, id)
    const foreign = paths.filter((found) => !context.mayKnowPath(found))
    for (const found of foreign) findings.routesLeaked.push(`${found} in ${file.key}`)
    if (paths.length > foreign.length) findings.ownRoutesSeen.add(id)
  }
}

/**
 * `mayKnowPath` for a role: a path it may open, or a folder above a page it may open. `pages` are
 * the site's page routes; `mayOpen` is the authority's decision for the role. A page's Markdown
 * (`<route>.md`), its source file's name (`<route>.mdx`, in its chunk) and its own JavaScript chunk
 * (`<route>-<hash>.js`) name the page itself.
 */
export function knownPaths(pages: readonly string[], mayOpen: (path: string) => boolean): (path: string) => boolean {
  const openPages = pages.filter(mayOpen)
  return (found) => {
    const route = normalisePath(found.replace(/\.mdx?$/, '').replace(/-[0-9a-f]{8,}\.js$/, ''))
    if (route === null) return false
    return mayOpen(route) || openPages.some((page) => page.startsWith(`${route}/`))
  }
}

/**
 * Distinctive titles of docs pages and the pages that carry each: a readable file that holds one
 * tells of those pages. One- and two-word titles ("Environments") occur as ordinary words in other
 * pages' text; titles of three words or more are distinctive enough that finding one means a page
 * map leaked.
 */
export function distinctiveTitles(pages: Iterable<{ route: string; title: string | undefined }>): Map<string, string[]> {
  const titles = new Map<string, string[]>()
  for (const { route, title } of pages) {
    if (!route.startsWith('/docs/') || !title || title.split(/\s+/).length < 3) continue
    titles.set(title, [...(titles.get(title) ?? []), route])
  }
  return titles
}

/** What a role may know of titles: the pages it may open and the paths it may know, and its pages' text. */
export interface TitleContext {
  mayOpen: (route: string) => boolean
  mayKnowPath: (path: string) => boolean
  /** The text of the pages the role may open. */
  prose: string
}

/**
 * The distinctive titles `body` holds: those of pages the role may open (`seen`, the routes: the
 * search finds titles at all), and those it may not (`leaked`, each with its pages).
 */
export function titlesIn(body: string, titles: ReadonlyMap<string, readonly string[]>, context: TitleContext): { seen: string[]; leaked: string[] } {
  const seen: string[] = []
  const leaked: string[] = []
  for (const [title, routes] of titles) {
    if (!body.includes(title)) continue
    // Only a page the role may open may show its title: a folder on the way to such a page
    // shows its slug, never its index page's title (lib/navigation/filterPageMap.ts).
    const readable = routes.find(context.mayOpen)
    if (readable) seen.push(readable)
    // Unless a page the role may open says the same words in its own text ("phones in
    // RingCentral and Twilio"): that is the writer's prose, not the other page's title. Or the
    // title is just a path the role may know, in words.
    else if (!context.prose.includes(title) && !routes.some((route) => context.mayKnowPath(route) && slugTitle(route.split('/').pop() ?? '') === title)) {
      leaked.push(`"${title}" (${routes.join(', ')})`)
    }
  }
  return { seen, leaked }
}

