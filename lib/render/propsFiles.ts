/**
 * Where the page step (pipeline/render/pageProps.ts) leaves each page's props for the docs route
 * (./docsPages.ts), and what they hold: one module both read, with no side effects, so the build's
 * and the dev server's processes can name them without loading the route's code.
 */
import type { PageDocument } from './pageDocument'

/** What the docs route hands its page: data only (Next writes it into the page and `_next/data/`). */
export interface DocsPageProps {
  /** The page's compiled document, less its search data, which only the build uses. */
  doc: Omit<PageDocument, 'structurizedData'>
  /**
   * The page's part (lib/navigation/trimPageMap.ts) of its audience's page map, which holds what
   * every reader of this page may open; the rest arrives with the reader's route manifests.
   */
  pageMap: unknown[]
  /** The page file's last commit, ms; null when git has none. */
  timestamp: number | null
}

/**
 * Route → props file (under PROPS_DIR): the runtime's read-only view of the build's page store
 * (pipeline/store/pageStore.ts), which the page step writes it from. The route reads this file,
 * never the store: the runtime does not import pipeline/.
 */
export type PropsIndex = Record<string, string>
export const PROPS_DIR = '.cache/props'
export const PROPS_INDEX = '.cache/props.json'
