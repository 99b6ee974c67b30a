/**
 * The CloudFront invalidation paths for the objects a deploy changed. The edge turns every
 * spelling of a page's URL into one object key (`/docs/x`, `/docs/x.html`, `/DOCS/x/` all become
 * `/docs/x.html`, lib/access/objectKey.ts); a page is invalidated under its route and its key, so
 * whichever of the two the CDN cached under goes.
 */
import { routeOfHtmlFile } from '../../lib/access/pageFiles'

/** CloudFront's quota of paths in one invalidation. */
export const MAX_INVALIDATION_PATHS = 3000
/** What to invalidate when the changed paths exceed the quota: everything, one wildcard path. */
export const INVALIDATE_EVERYTHING = ['/*']

const encodedPath = (key: string) => '/' + key.split('/').map(encodeURIComponent).join('/')

/** The paths to invalidate for changed object keys (no leading slash), or `/*` beyond CloudFront's quota. */
export function invalidationPaths(changedKeys: readonly string[]): string[] {
  const paths = new Set<string>()
  for (const key of changedKeys) {
    paths.add(encodedPath(key))
    const route = routeOfHtmlFile('/' + key)
    if (route !== null) paths.add(route === '/' ? '/' : encodedPath(route.slice(1)))
  }
  return paths.size > MAX_INVALIDATION_PATHS ? [...INVALIDATE_EVERYTHING] : [...paths].sort()
}
