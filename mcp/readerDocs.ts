/**
 * One reader's docs, for the AI tools' server: what the edge would let them fetch, and nothing
 * else. Built once per request from the verified reader, with the edge's own code: the reader view
 * (readerViewFor), the audiences it names (audiencesOf), and every file read decided as the edge
 * decides it (readerFiles). No rule, list or section is read here that the edge does not read.
 */
import { audiencesOf, readerViewFor, viewSourcesOf } from '../edge/readerViewFor'
import type { CompiledAccess } from '../lib/access/compileAccess'
import { decideAccess } from '../lib/access/decideAccess'
import type { AssetRoutes } from '../lib/access/governingRoute'
import { normalisePath } from '../lib/access/normalisePath'
import { isDocsPage } from '../lib/access/planAggregates'
import type { AudienceSummary, ReaderView } from '../lib/access/readerView'
import type { AccessUser } from '../lib/access/types'
import type { SearchHit } from '../lib/search/searchClient'
import type { PageCatalog } from '../lib/aiTools/pageCatalog'
import { markdownKeyOf } from '../lib/pathFormats'
import { pageTree, type PageTreeNode } from './pageTree'
import type { SearchIndexes } from './searchDocs'
import { readerFiles, type SiteFiles } from './siteFiles'

/** What the server knows of the site: the edge's inputs, the site's files and its public URL. */
export interface DocsSite {
  access: CompiledAccess
  assetRoutes: AssetRoutes
  audiences: readonly AudienceSummary[]
  files: SiteFiles
  search: SearchIndexes
  /** The site's origin as readers reach it (`https://docs.example.com`), for full URLs. */
  siteUrl: string
}

export interface PageSummary {
  title: string
  route: string
  url: string
  description: string | null
  lastUpdated: string | null
}

export interface ReaderDocs {
  user: NonNullable<AccessUser>
  view: ReaderView
  /** The reader's search results, each on a page they may open. */
  search(query: string, limit: number): Promise<Array<SearchHit & { route: string }>>
  /** A page's Markdown and summary, or null when there is none the reader may open (the two answer alike). */
  page(route: string): Promise<{ summary: PageSummary; markdown: string } | null>
  /** The reader's sidebar, in the writer's order. */
  tree(): Promise<PageTreeNode[]>
  /** The full URL of a same-site path. */
  urlOf(path: string): string
}

/** A page catalog as read, with its pages by route. */
interface CatalogIndex {
  catalog: PageCatalog
  byRoute: ReadonlyMap<string, PageCatalog['pages'][number]>
}

/**
 * Each catalog parsed once while its bytes stay the same, per site's files: get_page reads every
 * catalog the reader holds, and parsing them all each time would cost more than the read itself.
 * Bounded by the build, not by what readers ask: one entry per catalog the plan names (their bytes
 * and parsed pages, some 100 to 200 bytes a page). The bytes are compared, so a store that reads
 * afresh each time (out/ on this machine, rebuilt while the server runs) is never answered from
 * an older catalog.
 */
const parsedCatalogs = new WeakMap<SiteFiles, Map<string, CatalogIndex & { bytes: Buffer }>>()

export function readerDocs(site: DocsSite, user: NonNullable<AccessUser>): ReaderDocs {
  const sources = viewSourcesOf(site)
  const view = readerViewFor(sources, user)
  const held = audiencesOf(sources, user)
  const files = readerFiles(site.files, site.access, site.assetRoutes, user)
  const mayOpen = (route: string) => decideAccess(site.access, route, user) === 'allow'
  const urlOf = (path: string) => new URL(path, site.siteUrl).href

  const readCatalog = async (key: string): Promise<CatalogIndex> => {
    const bytes = await files.read(key)
    // The reader holds the audience, so its catalog is theirs to read; a missing one is a broken deploy.
    if (bytes === null) throw new Error(`${key} is missing from the site; deploy the whole build again`)
    let parsed = parsedCatalogs.get(site.files)
    if (!parsed) parsedCatalogs.set(site.files, (parsed = new Map()))
    const known = parsed.get(key)
    if (known && (known.bytes === bytes || known.bytes.equals(bytes))) return known
    const catalog = JSON.parse(bytes.toString('utf8')) as PageCatalog
    const index = { bytes, catalog, byRoute: new Map(catalog.pages.map((page) => [page.route, page])) }
    parsed.set(key, index)
    return index
  }
  // Every catalog of the audiences the reader holds, in the plan's order: the same reads whatever
  // page a tool asks about.
  const catalogKeys = held.flatMap((audience) => (audience.catalog ? [audience.catalog] : []))
  const catalogs = () => Promise.all(catalogKeys.map(readCatalog))

  return {
    user,
    view,
    urlOf,
    async search(query, limit) {
      const hits = await site.search.search(view.search.map((index) => index.basePath), query, limit)
      // Every index the reader holds is theirs to search; each hit is decided again all the same. Only
      // docs pages, which get_page reads: the home page is in the search box's index, but has no Markdown.
      return hits.flatMap((hit) => {
        const route = normalisePath(hit.url.split('#', 1)[0])
        return route !== null && isDocsPage(site.access, route) && mayOpen(route) ? [{ ...hit, route }] : []
      })
    },
    async page(route) {
      // Decided from the reader's own catalogs before any other read: a page they may not open, one
      // that does not exist and one they may open all read the same catalogs, and only a page the
      // catalogs name is read. So neither the answer nor its time tells a refused page from a
      // missing one, and no path a reader makes up reaches the store.
      const summary = (await catalogs()).map((catalog) => catalog.byRoute.get(route)).find((page) => page !== undefined)
      // Each catalog holds pages of one audience the reader holds; asked again all the same.
      if (summary === undefined || !mayOpen(route)) return null
      const bytes = await files.read(markdownKeyOf(route))
      // The catalog names the page, so its Markdown was built beside it: missing, the deploy is broken.
      if (bytes === null) throw new Error(`${markdownKeyOf(route)} is missing from the site; deploy the whole build again`)
      return {
        markdown: bytes.toString('utf8'),
        summary: { title: summary.title, route, url: urlOf(route), description: summary.description ?? null, lastUpdated: summary.lastUpdated ?? null },
      }
    },
    async tree() {
      return pageTree((await catalogs()).map(({ catalog }) => catalog.pageMap))
    },
  }
}
