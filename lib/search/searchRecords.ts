/**
 * Nextra's search data (`.next/static/chunks/nextra-data-<locale>.json`, written by `next build`
 * with `search: { codeblocks: false }`) turned into records, one per page section, and grouped
 * into the index of the rule that governs each page (its audience). Each page's records become one Pagefind
 * document (lib/search/searchDocuments.ts). Pure: no file system, no Pagefind.
 */
import type { CompiledAccess } from '../access/compileAccess'
import { normalisePath } from '../access/normalisePath'
import { inSection } from '../access/sectionPaths'
import { audienceKey, type AggregatePlan, type SearchIndexSpec } from '../access/planAggregates'

/** `{ [route]: { title, data: { 'heading-id#Heading text': 'text under it', … } } }`; the '' key is the page's intro. */
export type NextraSearchData = Record<string, { title: string; data: Record<string, string> }>

/** The same data, one page at a time: the pages, and a page's data when asked for (null for a page out of search). */
export interface SearchData {
  /** Canonical routes: the search step reads a page again by the route it placed it under. */
  routes: readonly string[]
  read: (route: string) => NextraSearchData[string] | null
  /** What a page's data was made from (the build's compile cache entry): the same version, the same data. */
  version?: (route: string) => string
}

export interface SearchRecordMeta {
  /** The page title. */
  title: string
  /** The section's title (or "Home"). */
  section: string
  /** The heading this record lies under; absent for the page's intro. */
  heading?: string
}

export interface SearchRecord {
  /** The canonical page route. */
  route: string
  /** `route#heading-id`, or `route` for the intro. */
  url: string
  /** The section's text as plain prose, without its heading (which is `meta.heading`). */
  text: string
  meta: SearchRecordMeta
}

export interface SkippedPage {
  route: string
  reason: string
}

export interface IndexGroup {
  spec: SearchIndexSpec
  records: SearchRecord[]
  /** Distinct page routes in this index. */
  pages: string[]
}

/** Thrown when a record sits in an index whose readers may not read its page. The message names the page. */
export class SearchIndexLeakError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'SearchIndexLeakError'
  }
}

/** Nextra keeps table cells apart with tabs and blocks with newlines; Pagefind wants plain prose. */
function clean(text: string): string {
  return text.replace(/\s+/g, ' ').trim()
}

/** Splits a Nextra data key `id#Heading text` (the id never holds `#`; the heading may). */
export function splitHeadingKey(key: string): { id: string; heading: string } {
  const at = key.indexOf('#')
  if (at < 0) return { id: '', heading: key }
  return { id: key.slice(0, at), heading: key.slice(at + 1) }
}

/** One record per page section: the intro (always present, so every page is findable by its title) and one per heading. */
export function pageRecords(route: string, page: { title: string; data: Record<string, string> }, sectionTitle: string): SearchRecord[] {
  const title = clean(page.title ?? '') || route
  const data = page.data ?? {}
  const records: SearchRecord[] = [{ route, url: route, text: clean(data[''] ?? ''), meta: { title, section: sectionTitle } }]
  for (const [key, text] of Object.entries(data)) {
    if (key === '') continue
    const { id, heading } = splitHeadingKey(key)
    records.push({ route, url: id ? `${route}#${id}` : route, text: clean(text ?? ''), meta: { title, section: sectionTitle, heading: clean(heading) } })
  }
  return records
}

/** `data` read one page at a time. */
export const searchDataIn = (data: NextraSearchData): SearchData => ({ routes: Object.keys(data).sort(), read: (route) => data[route] ?? null })

/** The title of the section `route` lies in, as its records name it ("Home" outside every section). */
export const sectionTitleOf = (access: CompiledAccess, route: string) => access.sections.find((section) => inSection(route, section.id))?.title ?? 'Home'

/**
 * Each page's records, one page at a time, handed to `add` with the index of its audience (the
 * pages one rule governs) as the plan says (lib/access/planAggregates.ts), once they pass the
 * build's check (`assertGrouping`). A page the plan does not know is skipped and listed.
 */
export function placeSearchPages(
  data: SearchData,
  plan: Pick<AggregatePlan, 'search' | 'audienceOf'>,
  access: CompiledAccess,
  add: (spec: SearchIndexSpec, route: string, records: SearchRecord[]) => void
): SkippedPage[] {
  const specs = new Map(plan.search.map((spec) => [spec.id, spec]))
  const skipped: SkippedPage[] = []
  for (const rawRoute of data.routes) {
    const page = data.read(rawRoute)
    if (!page) continue
    const route = normalisePath(rawRoute)
    const spec = route === null ? undefined : specs.get(plan.audienceOf[route])
    if (route === null || !spec) {
      skipped.push(route === null ? { route: rawRoute, reason: 'not a valid route' } : { route, reason: 'not a page of the plan' })
      continue
    }
    const records = pageRecords(route, page, sectionTitleOf(access, route))
    assertGrouping([{ spec, records, pages: [route] }], access)
    add(spec, route, records)
  }
  return skipped
}

/**
 * The build's check, independent of how the groups were made: every record of an index points at
 * its page, and that page is governed by the same rule as the index's files, so every reader who
 * can load the index may read every page in it. Throws naming the first page that breaks this.
 */
export function assertGrouping(groups: readonly IndexGroup[], access: CompiledAccess): void {
  for (const { spec, records } of groups) {
    const indexRule = audienceKey(access, spec.governedBy)
    for (const record of records) {
      const route = normalisePath(record.route)
      const urlRoute = normalisePath(record.url)
      if (route === null || urlRoute !== route) {
        throw new SearchIndexLeakError(`search index ${spec.id}: record ${record.url} does not point at its page ${record.route}`)
      }
      const pageRule = audienceKey(access, route)
      if (pageRule !== indexRule) {
        throw new SearchIndexLeakError(`search index ${spec.id} (${spec.basePath}, ${indexRule}) would hold ${route}, which ${pageRule} governs`)
      }
    }
  }
}
