/**
 * An audience's `pages.json`, the contract between the build's Markdown step
 * (pipeline/steps/buildMarkdown.ts), which writes one per audience beside its llms files, and the
 * AI tools' server (mcp/readerDocs.ts), which lists and names the pages of the catalogs its reader
 * may fetch. It lives here, not in the build, so the server never imports the build.
 */
import type { PageMapFragment } from '../navigation/mergePageMaps'

/** One page as the catalog names it. */
export interface CatalogPage {
  route: string
  title: string
  description: string | null
  /** The page file's last commit, ISO 8601; null when git has none. */
  lastUpdated: string | null
}

export interface PageCatalog {
  pages: CatalogPage[]
  /** The audience's sidebar: its own pages in their folders, in the writer's order. */
  pageMap: PageMapFragment
}
