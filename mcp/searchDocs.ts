/**
 * Search for the AI tools' server with the search box's own code (lib/search/searchClient.ts) and
 * the same per-audience Pagefind bundles: only the loader differs. In the browser pagefind.js is
 * imported from its URL; here its source is read from the site's files and imported as a module
 * of its own, whose `fetch` reads the bundle's files instead of the network. Results are the ones
 * the reader's search box would show for the same query.
 *
 * Pagefind in Node, as measured (and kept to here):
 * - each instance needs its own copy of the module (two from one module share one WebAssembly
 *   memory and crash), so every import gets a distinct module text;
 * - concurrent queries on one instance mix up their results (`data()` objects are reused), so a
 *   session runs one query at a time;
 * - an instance costs memory that is never given back, so a session is kept per set of indexes,
 *   never opened per request;
 * - a file read that fails inside Pagefind is swallowed (a chunk that failed yields no results), so
 *   the loader remembers it and the query fails instead.
 */
import { LOAD_TIMEOUT_MS, openSearchSession, type PagefindLoader, type PagefindModule, type SearchHit, type ShardListReader } from '../lib/search/searchClient'
import type { SiteFiles } from './siteFiles'

/** Thrown when the site's search files cannot be read; the tool answers with a plain sentence. */
export class SearchUnavailableError extends Error {
  constructor(detail: string) {
    super(`search is unavailable: ${detail}`)
    this.name = 'SearchUnavailableError'
  }
}

const FETCHERS = Symbol.for('docs.mcp.pagefindFetchers')
type Registry = Map<number, (input: unknown) => Promise<Response>>
const registry = ((globalThis as Record<symbol, unknown>)[FETCHERS] ??= new Map()) as Registry
let nextModule = 0

// A native import, which bundlers and test transforms leave alone (pagefind.js is an ES module).
const nativeImport = new Function('specifier', 'return import(specifier)') as (specifier: string) => Promise<unknown>

const contentType = (key: string) => (key.endsWith('.js') ? 'text/javascript' : key.endsWith('.json') ? 'application/json' : 'application/octet-stream')

/**
 * A loader of pagefind.js for the indexes at `basePaths` (each ending in `/`), reading through
 * `files`: it and the module it loads read nothing outside those indexes. `failures` collects
 * every read that failed.
 */
export function siteFilesLoader(files: SiteFiles, basePaths: readonly string[], failures: string[]): PagefindLoader {
  const fetchFile = async (input: unknown): Promise<Response> => {
    const key = String(input instanceof URL ? input.pathname : input).split('?', 1)[0]
    // A read that fails (a missing file, or a store that throws) is remembered: Pagefind would
    // swallow it and answer with fewer results.
    const bytes = basePaths.some((base) => key.startsWith(base)) ? await files.read(key).catch(() => null) : null
    if (bytes === null) {
      failures.push(key)
      return new Response('Not Found', { status: 404 })
    }
    return new Response(new Uint8Array(bytes), { status: 200, headers: { 'content-type': contentType(key) } })
  }
  return async (url) => {
    const key = url.split('?', 1)[0]
    const source = basePaths.some((base) => key === `${base}pagefind.js`) ? await files.read(key) : null
    if (source === null) throw new SearchUnavailableError(`${key} cannot be read`)
    const id = nextModule++
    registry.set(id, fetchFile)
    // The module's own `fetch` shadows the global one; its id also makes its text, and so its module, unique.
    const text = `const fetch = globalThis[Symbol.for('docs.mcp.pagefindFetchers')].get(${id});\n${source.toString('utf8')}`
    return (await nativeImport(`data:text/javascript;base64,${Buffer.from(text).toString('base64')}`)) as PagefindModule
  }
}

/** A reader of the indexes' shard lists through `files`, within the indexes at `basePaths` only. */
export function siteFilesShardLists(files: SiteFiles, basePaths: readonly string[]): ShardListReader {
  return async (url) => {
    const bytes = basePaths.some((base) => url.startsWith(base)) ? await files.read(url) : null
    if (bytes === null) throw new SearchUnavailableError(`${url} cannot be read`)
    return JSON.parse(bytes.toString('utf8')) as unknown
  }
}

export interface SearchIndexes {
  /** The reader's search results: the search box's, for the indexes the reader holds. */
  search(basePaths: readonly string[], query: string, limit: number): Promise<SearchHit[]>
}

/**
 * One search session per set of indexes, shared by every reader who holds exactly that set. Not
 * bounded by an LRU: a session's memory is never given back (above), so letting one go and opening
 * it again would only grow the instance. Its number is bounded all the same, and not by what a reader
 * asks: the set is the indexes of the audiences the reader holds, which the rules and lists decide
 * (and the groups of a verified token), so there are at most as many as distinct sets of audiences
 * among the readers, a handful as shipped.
 */
export function searchIndexes(files: SiteFiles): SearchIndexes {
  const sessions = new Map<string, Promise<{ run: (query: string, limit: number) => Promise<SearchHit[]> }>>()
  const open = (basePaths: readonly string[]) => {
    const key = basePaths.join('|')
    let session = sessions.get(key)
    if (!session) {
      session = (async () => {
        const failures: string[] = []
        const indexes = basePaths.map((basePath) => ({ basePath }))
        const opened = await openSearchSession(indexes, siteFilesLoader(files, basePaths, failures), LOAD_TIMEOUT_MS, siteFilesShardLists(files, basePaths))
        let queue: Promise<unknown> = Promise.resolve()
        const run = (query: string, limit: number) => {
          const result = queue.then(async () => {
            failures.length = 0
            const hits = await opened.search(query, limit)
            if (failures.length > 0) throw new SearchUnavailableError(`${failures[0]} cannot be read`)
            return hits
          })
          queue = result.catch(() => undefined)
          return result
        }
        if (failures.length > 0) throw new SearchUnavailableError(`${failures[0]} cannot be read`)
        return { run }
      })()
      sessions.set(key, session)
      // A failed start is forgotten, so the next query tries again.
      session.catch(() => sessions.delete(key))
    }
    return session
  }
  return {
    async search(basePaths, query, limit) {
      if (basePaths.length === 0) return []
      return (await open(basePaths)).run(query, limit)
    },
  }
}
