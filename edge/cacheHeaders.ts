/**
 * The one definition of Cache-Control for this site, read by `npm run deploy` (object metadata on
 * upload, scripts/deploy/) and by the local server, so both answer alike.
 *
 * Every file is `private`: what a file holds depends on who may read it, so no shared cache (a
 * company proxy, a CDN in front of ours) may keep one and hand it to the next person; CloudFront,
 * whose cache policy's minimum TTL is 0 (infra/lib/site-stack.ts), keeps none either.
 */
import { isRouteManifestKey } from '../lib/access/readerView'
import { BUILD_FILES_PREFIX, SEARCH_FOLDER } from '../lib/pathFormats'
import { PAGEFIND_SCRIPT } from '../lib/search/searchShards'

/** Kept by no cache, the browser's included. */
const NOT_STORED = 'private, no-store'

export const CACHE_CONTROL = {
  /** Content-hashed build files (the site's code, the same for every reader): the name changes whenever the bytes do. */
  hashedAsset: 'private, max-age=31536000, immutable',
  /** Pagefind's own code in each search folder (no docs in it, the same bytes in every folder): kept, asked for again each time. */
  searchEngine: 'private, no-cache',
  /**
   * Every other file: a page, its data, its Markdown, an llms file, a search index file, an image, a
   * route manifest. Each holds docs, so the browser keeps none either: after a sign-out nothing is left for
   * the next person on that computer to show or fetch from its cache, and every fetch asks the edge.
   */
  file: NOT_STORED,
  /** Redirects and refusals depend on the request's cookies; nothing may keep them. */
  never: 'no-store',
  /** The reader's view names the reader; nothing may keep it. */
  readerView: NOT_STORED,
} as const

/**
 * Build files (BUILD_FILES_PREFIX) carry a content hash (or the build id) in their path, except the
 * route manifests: named by their audience, they change with its pages under the same name, and
 * they name pages.
 */
const isHashedBuildFile = (objectKey: string): boolean => objectKey.startsWith(BUILD_FILES_PREFIX) && !isRouteManifestKey(objectKey)

/** Pagefind's script and its WebAssembly engine, in a search folder (or a shard's): code, not docs. */
const SEARCH_ENGINE_FILE = new RegExp(`/${SEARCH_FOLDER}/(?:${PAGEFIND_SCRIPT.replace('.', '\\.')}|(?:\\d+/)?wasm\\.[a-z-]+\\.pagefind)$`)

/** The site's own code, which holds no docs: a browser may keep it past a sign-out. */
export const isSiteCode = (objectKey: string): boolean => isHashedBuildFile(objectKey) || SEARCH_ENGINE_FILE.test(objectKey)

/** Cache-Control of a file served from out/ (`/`-rooted object key). */
export function cacheControlForObject(objectKey: string): string {
  if (isHashedBuildFile(objectKey)) return CACHE_CONTROL.hashedAsset
  return SEARCH_ENGINE_FILE.test(objectKey) ? CACHE_CONTROL.searchEngine : CACHE_CONTROL.file
}

const directivesOf = (cacheControl: string | null | undefined) => (cacheControl ?? '').toLowerCase().split(',').map((part) => part.trim().split('=')[0])

/** Whether a Cache-Control value lets a shared cache store the response (RFC 9111: only `private` or `no-store` forbid it). */
export function sharedCacheable(cacheControl: string | null | undefined): boolean {
  const directives = directivesOf(cacheControl)
  return !directives.includes('private') && !directives.includes('no-store')
}

/** Whether a Cache-Control value lets the browser's own cache store the response (only `no-store` forbids it). */
export const browserStorable = (cacheControl: string | null | undefined): boolean => !directivesOf(cacheControl).includes('no-store')
