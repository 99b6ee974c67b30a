/**
 * Where the search indexes live and who may read each one. One Pagefind bundle per section,
 * written under the section's own path so the edge applies the section's rule to every index
 * file, plus one bundle for the pages outside every section that any signed-in reader may open.
 * The build (pipeline/steps/buildSearchIndexes.ts) and the search box (components/SiteSearch.tsx)
 * both read this list, so what is written and what is requested cannot drift apart.
 */
import type { CompiledAccess } from '../access/compileAccess'
import { requirementFor } from '../access/decideAccess'
import { normalisePath } from '../access/normalisePath'
import { sectionSearchIndex } from '../access/sectionPaths'
import type { AccessUser, Decision, Requirement } from '../access/types'
import { sectionOfRoute } from '../navigation/scopePageMap'
import { SECTIONS } from '../navigation/siteNavigation'

/** Where the home index lives; pipeline/steps/assetRoutes.ts gives its files the rule of HOME_INDEX_ROUTE. */
export const HOME_INDEX_BASE_PATH = '/_pagefind/'
/** The route whose rule the asset-route map gives every file of the home index. */
export const HOME_INDEX_ROUTE = '/'

export interface SearchIndexSpec {
  /** `home` or the section id. */
  id: string
  /** The section id, or null for the index of pages outside every section. */
  section: string | null
  /** Shown beside each result (the section's navbar title, or "Home"). */
  title: string
  /** URL path of the Pagefind bundle, ending in `/`. */
  basePath: string
  /** The bundle's directory relative to out/. */
  outDir: string
  /** The route whose rule the edge applies to this bundle's files. */
  governedBy: string
}

export interface SectionLike {
  id: string
  title: string
  href: string
}

/** Every index the site has: home first (every signed-in reader has it, so it can be the primary), then the sections in navbar order. */
export function searchIndexSpecs(sections: readonly SectionLike[] = SECTIONS): SearchIndexSpec[] {
  return [
    { id: 'home', section: null, title: 'Home', basePath: HOME_INDEX_BASE_PATH, outDir: '_pagefind', governedBy: HOME_INDEX_ROUTE },
    ...sections.map((section) => {
      const basePath = sectionSearchIndex(section.id)
      // Section index files are governed by their own path (no asset-route entry), i.e. by the section's prefix rule.
      const governedBy = normalisePath(`${basePath}pagefind-entry.json`)
      if (governedBy === null) throw new Error(`search index path ${basePath} is not a valid path`)
      return { id: section.id, section: section.id, title: section.title, basePath, outDir: basePath.slice(1, -1), governedBy }
    }),
  ]
}

type Decide = (path: string, user: AccessUser) => Decision

/** The indexes a reader may load: those whose files the edge would serve them. None for a reader who is not signed in. */
export function readableIndexes(user: AccessUser, decide: Decide, specs: readonly SearchIndexSpec[] = searchIndexSpecs()): SearchIndexSpec[] {
  if (user === null) return []
  return specs.filter((spec) => decide(spec.governedBy, user) === 'allow')
}

/** May an index whose files need `indexNeeds` hold the text of a page that needs `pageNeeds`? Only if every reader of the index may read the page. */
export function indexMayHold(indexNeeds: Requirement | 'public', pageNeeds: Requirement | 'public'): boolean {
  if (pageNeeds === 'public') return true
  if (indexNeeds === 'public') return false
  if (pageNeeds === 'signedIn') return true
  return pageNeeds === indexNeeds
}

export type IndexChoice = { kind: 'index'; spec: SearchIndexSpec } | { kind: 'skip'; reason: string }

/**
 * The one index a page's records go to: its section's index (or the home index for a page
 * outside every section), and only if the page's own rule lets every reader of that index read
 * it. A page that no index may hold (the `/docs` root, which needs full access) goes nowhere.
 */
export function indexForRoute(access: CompiledAccess, route: string, specs: readonly SearchIndexSpec[] = searchIndexSpecs()): IndexChoice {
  const canonical = normalisePath(route)
  if (canonical === null) return { kind: 'skip', reason: 'not a valid route' }
  const section = sectionOfRoute(canonical, specs.filter((spec) => spec.section !== null).map((spec) => ({ id: spec.section as string, title: spec.title, href: '' })))
  const spec = specs.find((candidate) => candidate.section === section)
  if (!spec) return { kind: 'skip', reason: `no search index for section ${section ?? '(none)'}` }
  const pageNeeds = requirementFor(access, canonical)
  const indexNeeds = requirementFor(access, spec.governedBy)
  if (!indexMayHold(indexNeeds, pageNeeds)) {
    return { kind: 'skip', reason: `needs ${pageNeeds}; the ${spec.id} index is readable with ${indexNeeds}` }
  }
  return { kind: 'index', spec }
}
