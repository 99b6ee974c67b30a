/**
 * The authority's answer to READER_VIEW_PATH: the one reader's view, computed from the lists
 * that only the authority holds. Served `private, no-store` (edge/cacheHeaders.ts).
 */
import type { CompiledAccess } from '../lib/access/compileAccess'
import { decideAccess, passes } from '../lib/access/decideAccess'
import { isRouteManifestKey, type ReaderView, anonymousView } from '../lib/access/readerView'
import type { AssetRoutes } from '../lib/access/governingRoute'
import type { AccessUser } from '../lib/access/types'
import { searchIndexSpecs, readableIndexes } from '../lib/search/searchIndexes'

export interface ReaderViewSources {
  access: CompiledAccess
  /** Route-manifest scripts (postbuild) and the route whose rule governs each. */
  routeManifests: ReadonlyArray<readonly [key: string, route: string]>
}

export function readerViewSources(access: CompiledAccess, assetRoutes: AssetRoutes): ReaderViewSources {
  return { access, routeManifests: Object.entries(assetRoutes).filter(([key]) => isRouteManifestKey(key)) }
}

export function readerViewFor(sources: ReaderViewSources, user: AccessUser): ReaderView {
  const { access } = sources
  const publicPaths = [...access.publicPaths]
  if (user === null) return anonymousView(publicPaths)
  const mayOpen = (path: string) => decideAccess(access, path, user) === 'allow'
  // The sections as the access it was given declares them, so the view and the rules cannot disagree.
  const sections = access.sections.map(({ id, title, description, entry }) => ({ id, title, description, href: entry }))
  return {
    username: user.username,
    publicPaths,
    open: access.rules.filter((rule) => passes(access, rule.require, user)).map(({ path, match }) => ({ path, match })),
    elsewhere: passes(access, access.fallback, user),
    sections: sections.filter((section) => mayOpen(section.href)),
    search: readableIndexes(user, (path, reader) => decideAccess(access, path, reader), searchIndexSpecs(sections)).map(({ id, title, basePath }) => ({ id, title, basePath })),
    routeManifests: sources.routeManifests.filter(([, route]) => mayOpen(route)).map(([key]) => key),
  }
}
