/**
 * The browser side of search, free of React: load Pagefind from the first readable index and
 * merge the other readable indexes into it (Pagefind multisite: one pagefind.js, one WebAssembly
 * module and one worker for all of them), run queries, and turn results into what the search
 * box shows. The loader is injectable so tests can see every URL that would be requested.
 */
import type { ReaderSearchIndex } from '../access/readerView'

type SearchIndexSpec = Pick<ReaderSearchIndex, 'basePath'>

/** The subset of Pagefind's browser API (pagefind.js, v1.6) that the site uses. */
export interface PagefindResultData {
  url: string
  raw_url?: string
  excerpt: string
  meta: Record<string, string | undefined>
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
  destroy?(): Promise<unknown>
}

export interface PagefindModule {
  createInstance(options: { basePath: string; baseUrl?: string; excerptLength?: number }): PagefindInstance
}

/** Imports pagefind.js from `url`. */
export type PagefindLoader = (url: string) => Promise<PagefindModule>

/** The real loader: a native dynamic import that webpack leaves alone, so Pagefind is never bundled and loads only when called. */
export const importPagefind: PagefindLoader = (url) => import(/* webpackIgnore: true */ url) as Promise<PagefindModule>

export interface SearchHit {
  id: string
  /** A same-site path, with `#anchor` for a heading. */
  url: string
  title: string
  section: string
  heading: string | null
  /** Pagefind's excerpt: text with `<mark>` around matched words; `<` and `>` arrive escaped. */
  excerpt: string
}

export interface SearchSession {
  /** The base paths that were loaded, primary first. */
  readonly basePaths: readonly string[]
  search(term: string, limit?: number): Promise<SearchHit[]>
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

export function toHit(result: PagefindResult, data: PagefindResultData): SearchHit | null {
  const url = safeResultUrl(data)
  if (url === null) return null
  const title = data.meta?.title || url
  return {
    id: result.id,
    url,
    title,
    section: data.meta?.section ?? '',
    heading: data.meta?.heading || null,
    excerpt: data.excerpt ?? '',
  }
}

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

/**
 * Loads Pagefind for exactly `indexes` (already filtered to what the reader may open): pagefind.js
 * and the engine from the first, `mergeIndex` for the rest. Nothing outside `indexes` is requested.
 * `attempt` > 0 adds a query to the script URL, because a browser remembers a failed module import.
 */
export async function openSearchSession(indexes: readonly SearchIndexSpec[], load: PagefindLoader, attempt = 0, timeoutMs = LOAD_TIMEOUT_MS): Promise<SearchSession> {
  if (indexes.length === 0) throw new Error('no search index is readable')
  const [primary, ...merged] = indexes
  const instance = await withTimeout(
    (async () => {
      const module = await load(`${primary.basePath}pagefind.js${attempt > 0 ? `?attempt=${attempt}` : ''}`)
      if (typeof module?.createInstance !== 'function') throw new Error('pagefind.js did not load')
      // Result URLs are stored whole (`/docs/…#id`), so no base URL may be prefixed to them.
      const created = module.createInstance({ basePath: primary.basePath, baseUrl: '/', excerptLength: 24 })
      if (created.init) await created.init()
      await Promise.all(merged.map((spec) => created.mergeIndex(spec.basePath, { baseUrl: '/' })))
      return created
    })(),
    timeoutMs,
    'loading search'
  )
  return {
    basePaths: indexes.map((spec) => spec.basePath),
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
const failures = new WeakMap<PagefindLoader, Map<string, number>>()

const sessionKey = (indexes: readonly SearchIndexSpec[]) => indexes.map((spec) => spec.basePath).join('|')

function perLoader<T>(store: WeakMap<PagefindLoader, Map<string, T>>, load: PagefindLoader): Map<string, T> {
  let byKey = store.get(load)
  if (!byKey) {
    byKey = new Map()
    store.set(load, byKey)
  }
  return byKey
}

export function sharedSearchSession(indexes: readonly SearchIndexSpec[], load: PagefindLoader): Promise<SearchSession> {
  const key = sessionKey(indexes)
  const byKey = perLoader(sessions, load)
  const existing = byKey.get(key)
  if (existing) return existing
  const failed = perLoader(failures, load)
  const opening = openSearchSession(indexes, load, failed.get(key) ?? 0)
  byKey.set(key, opening)
  opening.catch(() => {
    failed.set(key, (failed.get(key) ?? 0) + 1)
    if (byKey.get(key) === opening) byKey.delete(key)
  })
  return opening
}

/** Drops the shared session of `indexes` (after a failed query), so the next load starts afresh. */
export function forgetSearchSession(indexes: readonly SearchIndexSpec[], load: PagefindLoader): void {
  const key = sessionKey(indexes)
  const byKey = perLoader(sessions, load)
  const opening = byKey.get(key)
  if (!opening) return
  byKey.delete(key)
  opening.then((session) => session.destroy()).catch(() => undefined)
}

export interface ExcerptPart {
  text: string
  mark: boolean
}

/** Pagefind's excerpt as plain text parts, marked or not; nothing in it is ever rendered as HTML. */
export function excerptParts(excerpt: string): ExcerptPart[] {
  const decode = (text: string) =>
    text.replace(/&(lt|gt|amp|quot|#39|#x27);/g, (_, name: string) => ({ lt: '<', gt: '>', amp: '&', quot: '"', '#39': "'", '#x27': "'" })[name] as string)
  const parts: ExcerptPart[] = []
  let mark = false
  for (const piece of excerpt.split(/(<\/?mark>)/)) {
    if (piece === '<mark>') mark = true
    else if (piece === '</mark>') mark = false
    else if (piece) parts.push({ text: decode(piece), mark })
  }
  return parts
}
