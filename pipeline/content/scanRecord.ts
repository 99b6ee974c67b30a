/**
 * What the content scan keeps of each page it read, in the page store (../store/pageStore.ts), so
 * that the next scan takes an unchanged page from the record instead of reading and hashing it.
 * As git's index and the deploy's hash record do, a file is known by what `lstat` says of it (size,
 * modification time, device and inode): while they are the ones recorded, its bytes are taken to be
 * the ones read. A file rewritten with the same size within one tick of the file system's clock
 * keeps its time, so a reading is only kept for a file last written RACY_MS or more before it was
 * read ("racy git"); one read sooner is read again by the next scan.
 */
import fs from 'node:fs'
import { META_LINK, PAGE_LINK, type FoundLink } from './pageLinks'

/** How long before its reading a file must have been last written for the reading to be kept. */
export const RACY_MS = 2_000

/** What `lstat` says of a file that changes when it is written or replaced. */
export interface FileStamp {
  size: number
  mtimeMs: number
  dev: number
  ino: number
}

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

export const fileStampOf = (stat: fs.Stats): FileStamp => ({ size: stat.size, mtimeMs: stat.mtimeMs, dev: stat.dev, ino: stat.ino })

export const sameStamp = (a: FileStamp, b: FileStamp) => a.size === b.size && a.mtimeMs === b.mtimeMs && a.dev === b.dev && a.ino === b.ino

/** Whether a file with `stamp`, read at `readAt` (ms), was last written long enough before for its reading to be kept. */
export const settledAt = (stamp: FileStamp, readAt: number) => stamp.mtimeMs <= readAt - RACY_MS
