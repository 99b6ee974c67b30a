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
import type { AudienceSummary, ReaderView } from '../lib/access/readerView'
import type { AccessUser } from '../lib/access/types'
import type { SearchHit } from '../lib/search/searchClient'
import type { PageCatalog } from '../pipeline/steps/buildMarkdown'
import { audienceIdOf, markdownKeyOf } from '../pipeline/planAggregates'
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

export function readerDocs(site: DocsSite, user: NonNullable<AccessUser>): ReaderDocs {
  const sources = viewSourcesOf(site)
  const view = readerViewFor(sources, user)
  const held = audiencesOf(sources, user)
  const files = readerFiles(site.files, site.access, site.assetRoutes, user)
  const mayOpen = (route: string) => decideAccess(site.access, route, user) === 'allow'
  const urlOf = (path: string) => new URL(path, site.siteUrl).href

  const readCatalog = async (key: string): Promise<PageCatalog> => {
    const bytes = await files.read(key)
    // The reader holds the audience, so its catalog is theirs to read; a missing one is a broken deploy.
    if (bytes === null) throw new Error(`${key} is missing from the site; deploy the whole build again`)
    return JSON.parse(bytes.toString('utf8')) as PageCatalog
  }

  return {
    user,
    view,
    urlOf,
    async search(query, limit) {
      const hits = await site.search.search(view.search.map((index) => index.basePath), query, limit)
      // Every index the reader holds is theirs to search; each hit is decided again all the same.
      return hits.flatMap((hit) => {
        const route = normalisePath(hit.url.split('#', 1)[0])
        return route !== null && mayOpen(route) ? [{ ...hit, route }] : []
      })
    },
    async page(route) {
      const bytes = await files.read(markdownKeyOf(route))
      if (bytes === null) return null
      // Only the catalog of the page's own audience (the rule that governs it), which the reader holds.
      const key = held.find((audience) => audience.id === audienceIdOf(site.access, route))?.catalog
      const summary = key ? (await readCatalog(key)).pages.find((page) => page.route === route) : undefined
      return {
        markdown: bytes.toString('utf8'),
        summary: {
          title: summary?.title ?? route,
          route,
          url: urlOf(route),
          description: summary?.description ?? null,
          lastUpdated: summary?.lastUpdated ?? null,
        },
      }
    },
    async tree() {
      const keys = held.flatMap((audience) => (audience.catalog ? [audience.catalog] : []))
      return pageTree((await Promise.all(keys.map(readCatalog))).map((catalog) => catalog.pageMap))
    },
  }
}
