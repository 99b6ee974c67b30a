/**
 * The one definition of Cache-Control for this site, read by `npm run deploy` (object metadata on
 * upload, scripts/deploy/) and by the local server, so both answer alike.
 *
 * Every file is `private`: what a file holds depends on who may read it, so no shared cache (a
 * company proxy, a CDN in front of ours) may keep one and hand it to the next person; CloudFront,
 * whose cache policy's minimum TTL is 0 (infra/lib/site-stack.ts), keeps none either.
 */
import { isRouteManifestKey } from '../lib/access/readerView'
import { BUILD_FILES_PREFIX, PAGE_DATA_PREFIX } from '../lib/pathFormats'

/** Kept by no cache, the browser's included. */
const NOT_STORED = 'private, no-store'

export const CACHE_CONTROL = {
  /** Content-hashed build files: the name changes whenever the bytes do. */
  hashedAsset: 'private, max-age=31536000, immutable',
  /**
   * What a browser shows again without asking, once stored (a page, its data, its Markdown, an llms
   * file, a PDF, opened by Back after a sign-out): not stored, so every showing asks the edge.
   */
  document: NOT_STORED,
  /** Search files, images: may change at any deploy, so the browser asks each time. */
  revalidate: 'private, no-cache',
  /** Redirects and refusals depend on the request's cookies; nothing may keep them. */
  never: 'no-store',
  /** The reader's view names the reader; nothing may keep it. */
  readerView: NOT_STORED,
} as const

/**
 * Build files (BUILD_FILES_PREFIX) carry a content hash (or the build id) in their path, except the
 * route manifests: named by their audience, they change with its pages under the same name.
 */

// By extension in any case, as the Content-Type is (scripts/server/contentTypes.ts): public/ may hold a Spec.PDF.
const DOCUMENT_KEY = /\.(html|md|txt|pdf)$/i

/** Cache-Control of a file served from out/ (`/`-rooted object key). */
export function cacheControlForObject(objectKey: string): string {
  if (objectKey.startsWith(BUILD_FILES_PREFIX) && !isRouteManifestKey(objectKey)) return CACHE_CONTROL.hashedAsset
  return objectKey.startsWith(PAGE_DATA_PREFIX) || DOCUMENT_KEY.test(objectKey) ? CACHE_CONTROL.document : CACHE_CONTROL.revalidate
}

/** Whether a Cache-Control value lets a shared cache store the response (RFC 9111: only `private` or `no-store` forbid it). */
export function sharedCacheable(cacheControl: string | null | undefined): boolean {
  const directives = (cacheControl ?? '').toLowerCase().split(',').map((part) => part.trim().split('=')[0])
  return !directives.includes('private') && !directives.includes('no-store')
}
