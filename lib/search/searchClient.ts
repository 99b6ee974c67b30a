/**
 * The browser side of search, free of React: read each readable index's shard list
 * (lib/search/searchShards.ts), load Pagefind with the first index's first shard and merge every
 * other shard into it (Pagefind multisite: one pagefind.js and one WebAssembly engine for all of
 * them), run queries, and turn results into what the search box shows. The loader and the shard
 * list reader are injectable so tests can see every URL that would be requested.
 */
import type { ReaderSearchIndex } from '../access/readerView'
import { nextPagefindScript } from './pagefindScript'
import { SHARD_LIST_FILE, shardBasePaths } from './searchShards'

type SearchIndexSpec = Pick<ReaderSearchIndex, 'basePath'>

/** The subset of Pagefind's browser API (pagefind.js, v1.6) that the site uses. */
export interface PagefindSubResult {
  /** The heading's text, or the page title for the part before the first heading. */
  title: string
  url: string
  excerpt: string
  /** Where the query's words match in this part, with their weights (headings weigh more). */
  weighted_locations?: Array<{ balanced_score: number }>
}

export interface PagefindResultData {
  url: string
  raw_url?: string
  excerpt: string
  meta: Record<string, string | undefined>
  /** The page's parts that match, split at its headings with ids, in page order. */
  sub_results?: PagefindSubResult[]
}

export interface PagefindResult {
  id: string
  score?: number
  data(): Promise<PagefindResultData>
}

export interface PagefindInstance {
  init?(): Promise<unknown>
  mergeIndex(indexPath: string, options?: Record<string, unknown>): Promise<unknown>
  search(term: string, options?: Record<string, unknown>): Promise<{ results: PagefindResult[] } | null>
  /** Loads the index chunks a search for `term` needs, without searching. */
  preload?(term: string, options?: Record<string, unknown>): Promise<unknown>
  destroy?(): Promise<unknown>
}

export interface PagefindModule {
  createInstance(options: { basePath: string; baseUrl?: string; excerptLength?: number; noWorker?: boolean }): PagefindInstance
}

/** Imports pagefind.js from `url`. */
export type PagefindLoader = (url: string) => Promise<PagefindModule>

/** The real loader: a native dynamic import that webpack leaves alone, so Pagefind is never bundled and loads only when called. */
export const importPagefind: PagefindLoader = (url) => import(/* webpackIgnore: true */ url) as Promise<PagefindModule>

/** Reads an index's shard list (`<basePath>shards.json`) as parsed JSON. */
export type ShardListReader = (url: string) => Promise<unknown>

/** The real reader: a request to the site, which the edge decides like the index's other files. */
export const fetchShardList: ShardListReader = async (url) => {
  const response = await fetch(url)
  if (!response.ok) throw new Error(`${url} answered ${response.status}`)
  return response.json()
}

export interface SearchHit {
  id: string
  /** A same-site path, with `#anchor` for a heading. */
  url: string
  title: string
  section: string
  heading: string | null
  /** Pagefind's excerpt: text with `<mark>` around matched words; `<` and `>` arrive escaped, nothing else. */
  excerpt: string
}

export interface SearchSession {
  /** The base paths of the shards that were loaded, primary first. */
  readonly basePaths: readonly string[]
  search(term: string, limit?: number): Promise<SearchHit[]>
  /** Starts loading what a search for `term` needs (while the reader is still typing); never fails. */
  preload(term: string): void
  destroy(): Promise<void>
}

/** Accept only same-site paths, so nothing in an index can make the search box link elsewhere. */
export function safeResultUrl(data: Pick<PagefindResultData, 'url' | 'raw_url'>): string | null {
  const candidates = [data.raw_url, data.url]
  for (const candidate of candidates) {
    if (typeof candidate !== 'string') continue
    let url = candidate
    if (/^https?:\/\//i.test(url)) {
      try {
        const parsed = new URL(url)
        url = parsed.pathname + parsed.search + parsed.hash
      } catch {
        continue
      }
    }
    if (url.startsWith('/') && !url.startsWith('//') && !url.includes('\\')) return url
  }
  return null
}

/** The part of a page that matches best: the highest sum of its matches' scores; the earlier part on a tie. */
export function bestSubResult(subResults: readonly PagefindSubResult[] | undefined): PagefindSubResult | null {
  let best: PagefindSubResult | null = null
  let bestScore = -Infinity
  for (const sub of subResults ?? []) {
    const score = (sub.weighted_locations ?? []).reduce((sum, location) => sum + location.balanced_score, 0)
    if (score > bestScore) [best, bestScore] = [sub, score]
  }
  return best
}

/**
 * A search result as the box shows it: the page, pointing at its best-matching section (its
 * heading and anchor) with that section's excerpt, or at the page itself when the best match is
 * before the first heading.
 */
export function toHit(result: PagefindResult, data: PagefindResultData): SearchHit | null {
  const pageUrl = safeResultUrl(data)
  if (pageUrl === null) return null
  const title = data.meta?.title || pageUrl
  const best = bestSubResult(data.sub_results)
  const bestUrl = best ? safeResultUrl(best) : null
  // A part whose URL is not a same-site path is not used at all, its excerpt included.
  const part = best && bestUrl ? { ...best, url: bestUrl } : null
  const inSection = part !== null && part.url.includes('#')
  return {
    id: result.id,
    url: inSection ? part.url : pageUrl,
    title,
    section: data.meta?.section ?? '',
    heading: inSection ? part.title : null,
    excerpt: (part ?? data).excerpt ?? '',
  }
}

/**
 * The pause after the reader's last keystroke before a query runs. The index chunks a term needs
 * load during it (SearchSession.preload), so the query that follows mostly waits on excerpts only.
 */
export const SEARCH_PAUSE_MS = 120

/** How long loading may take before the search box says it failed: Pagefind waits forever for a WebAssembly module that could not start. */
export const LOAD_TIMEOUT_MS = 15000

function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${what} took longer than ${ms} ms`)), ms)
    promise.then(
      (value) => {
        clearTimeout(timer)
        resolve(value)
      },
      (error: unknown) => {
        clearTimeout(timer)
        reject(error)
      }
    )
  })
}

/** Each index once: a second instance of one index would only repeat its results. */
function distinctIndexes(indexes: readonly SearchIndexSpec[]): SearchIndexSpec[] {
  const seen = new Set<string>()
  return indexes.filter((spec) => !seen.has(spec.basePath) && seen.add(spec.basePath))
}

/**
 * Options for every Pagefind instance. Result URLs are stored whole (`/docs/…#id`), so no base
 * URL may be prefixed to them. No worker: Pagefind's worker is a second script to download before
 * the first result and a message round trip per excerpt, and it spares the page little, because
 * every result of a query is copied back to the page (measured: docs/benchmarks.md).
 */
const INSTANCE_OPTIONS = { baseUrl: '/', excerptLength: 24, noWorker: true } as const

/**
 * Loads Pagefind for exactly `indexes` (already filtered to what the reader may open): their shard
 * lists, pagefind.js from the first index's folder (every bundle's is the same file), the engine
 * from its first shard, and `mergeIndex` for every other shard. Nothing outside `indexes` is
 * requested. Every session imports its own copy of pagefind.js (lib/search/pagefindScript.ts says
 * why); one whose load fails or times out is destroyed whenever its instance exists.
 */
export async function openSearchSession(indexes: readonly SearchIndexSpec[], load: PagefindLoader, timeoutMs = LOAD_TIMEOUT_MS, readShards: ShardListReader = fetchShardList): Promise<SearchSession> {
  const distinct = distinctIndexes(indexes)
  if (distinct.length === 0) throw new Error('no search index is readable')
  const started: { instance?: PagefindInstance; shards?: string[] } = {}
  const opening = (async () => {
    // The script and the shard lists load side by side: the script's place does not depend on the lists.
    const [module, shards] = await Promise.all([
      load(nextPagefindScript(load, distinct[0].basePath)),
      Promise.all(distinct.map(async ({ basePath }) => shardBasePaths(basePath, await readShards(`${basePath}${SHARD_LIST_FILE}`)))),
    ])
    if (typeof module?.createInstance !== 'function') throw new Error('pagefind.js did not load')
    const [primary, ...merged] = shards.flat()
    started.shards = [primary, ...merged]
    const created = module.createInstance({ basePath: primary, ...INSTANCE_OPTIONS })
    started.instance = created
    if (created.init) await created.init()
    await Promise.all(merged.map((basePath) => created.mergeIndex(basePath, { baseUrl: INSTANCE_OPTIONS.baseUrl })))
    return created
  })()
  let instance: PagefindInstance
  try {
    instance = await withTimeout(opening, timeoutMs, 'loading search')
  } catch (error) {
    // A load that failed or ran out of time may still be running: destroy its instance now if it
    // exists, and again once the load ends (destroying twice does nothing more).
    const abandon = () => {
      started.instance?.destroy?.()?.catch(() => undefined)
    }
    abandon()
    opening.then(abandon, abandon)
    throw error
  }
  return {
    basePaths: started.shards as string[],
    async search(term: string, limit = 8) {
      const response = await withTimeout(instance.search(term), timeoutMs, 'searching')
      if (!response) return []
      const top = response.results.slice(0, limit)
      const datas = await Promise.all(top.map((result) => result.data()))
      return top.flatMap((result, at) => {
        const hit = toHit(result, datas[at])
        return hit ? [hit] : []
      })
    },
    preload(term: string) {
      // A chunk that fails to load here fails the search that needs it, which reports it.
      instance.preload?.(term).catch(() => undefined)
    },
    async destroy() {
      await instance.destroy?.()
    },
  }
}

/**
 * One session per set of indexes and loader, shared by every search box on the page (the theme
 * renders one in the navbar and one in the mobile sidebar). A failed load is forgotten, so a
 * retry loads again.
 */
const sessions = new WeakMap<PagefindLoader, Map<string, Promise<SearchSession>>>()

const sessionKey = (indexes: readonly SearchIndexSpec[]) => indexes.map((spec) => spec.basePath).join('|')

function sessionsOf(load: PagefindLoader): Map<string, Promise<SearchSession>> {
  let byKey = sessions.get(load)
  if (!byKey) {
    byKey = new Map()
    sessions.set(load, byKey)
  }
  return byKey
}

export function sharedSearchSession(indexes: readonly SearchIndexSpec[], load: PagefindLoader, readShards: ShardListReader = fetchShardList): Promise<SearchSession> {
  const key = sessionKey(indexes)
  const byKey = sessionsOf(load)
  const existing = byKey.get(key)
  if (existing) return existing
  const opening = openSearchSession(indexes, load, LOAD_TIMEOUT_MS, readShards)
  byKey.set(key, opening)
  opening.catch(() => {
    if (byKey.get(key) === opening) byKey.delete(key)
  })
  return opening
}

/** Drops the shared session of `indexes` (after a failed query), so the next load starts afresh. */
export function forgetSearchSession(indexes: readonly SearchIndexSpec[], load: PagefindLoader): void {
  const key = sessionKey(indexes)
  const byKey = sessionsOf(load)
  const opening = byKey.get(key)
  if (!opening) return
  byKey.delete(key)
  opening.then((session) => session.destroy()).catch(() => undefined)
}

export interface ExcerptPart {
  text: string
  mark: boolean
}

/**
 * Pagefind's excerpt as plain text parts, marked or not; nothing in it is ever rendered as HTML.
 * Pagefind escapes only `<` and `>` of the page's text (pagefind.js `raw_content`), so only those
 * are read back: a page's own `&amp;` shows as the page shows it.
 */
export function excerptParts(excerpt: string): ExcerptPart[] {
  const decode = (text: string) => text.replace(/&(lt|gt);/g, (_, name: string) => (name === 'lt' ? '<' : '>'))
  const parts: ExcerptPart[] = []
  let mark = false
  for (const piece of excerpt.split(/(<\/?mark>)/)) {
    if (piece === '<mark>') mark = true
    else if (piece === '</mark>') mark = false
    else if (piece) parts.push({ text: decode(piece), mark })
  }
  return parts
}
