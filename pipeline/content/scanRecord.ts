/**
 * What the content scan keeps of each page it read, in the page store (../store/pageStore.ts), so
 * that the next scan takes an unchanged page from the record instead of reading and hashing it.
 * As git's index and the build's record of out/ do, a file is known by its stamp (../files.ts):
 * while it is the one recorded, its bytes are taken to be the ones read, under the racy-time rule
 * there; a file read too soon after its write is read again by the next scan.
 */
import type { FileStamp } from '../files'
import { META_LINK, PAGE_LINK, type FoundLink } from './pageLinks'

/** A page as the scan last read it: its stamp then, and what the steps take of it without its text. */
export interface ScannedPage extends FileStamp {
  /** sha256 of the MDX, hex. */
  digest: string
  frontMatter: Record<string, unknown>
  bodyBytes: number
  links: readonly FoundLink[]
}

/** A `_meta` file as the scan last read it: its stamp then, its data and its links. */
export interface ScannedMeta extends FileStamp {
  data: Record<string, unknown>
  links: readonly FoundLink[]
}

/** The scan's record: its pages and `_meta` files by file, and the link patterns their links were found by (others find others). */
export interface ScanRecord {
  linkPattern: string
  pages: Record<string, ScannedPage>
  metas?: Record<string, ScannedMeta>
}

export const LINK_PATTERN = `${PAGE_LINK.source}\n${META_LINK.source}`

