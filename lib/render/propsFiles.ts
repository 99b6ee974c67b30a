/**
 * Where the page step (pipeline/render/pageProps.ts) leaves each page's props for the docs route
 * (./docsPages.ts), and what they hold: one module both read, with no side effects, so the build's
 * and the dev server's processes can name them without loading the route's code.
 */
import { createHash } from 'node:crypto'
import type { PackedPageMapItem } from '../navigation/packedPageMap'
import type { PackedDocument } from './packedDocument'

/** What the docs route hands its page: data only (Next writes it into the page and `_next/data/`). */
export interface DocsPageProps {
  /** The page's compiled document, packed (./packedDocument.ts), less its search data, which only the build uses. */
  doc: PackedDocument
  /**
   * The page's part (lib/navigation/trimPageMap.ts) of its audience's page map, which holds what
   * every reader of this page may open; the rest arrives with the reader's route manifests. Packed
   * (lib/navigation/packedPageMap.ts).
   */
  pageMap: PackedPageMapItem[]
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

/**
 * The shape of the props files: part of what each page's props are made from, so that props kept
 * from a build before a change of their shape are made again. Raise it with any such change.
 */
export const PROPS_FORMAT = 2

/**
 * A props file's name: the hash of its bytes, so that the route, reading it, knows it is as the
 * page step wrote it (a file changed since, by hand or by a disk, is refused, never rendered).
 */
export const propsFileName = (json: string): string => `${createHash('sha256').update(json).digest('hex').slice(0, 32)}.json`
