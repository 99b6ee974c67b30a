/**
 * The page store's file saved as what changed: the store is written whole now and then, and in
 * between a second file holds what changed since, so a one-page edit writes a few records, not
 * every page's (./pageStore.ts). Records are told apart by identity: the store keeps a record it
 * did not change as the same object, as the content scan does its entries.
 */
import type { ScanRecord } from '../content/scanRecord'

/** The records as a whole write left them, by identity. */
export interface Whole<Page, Render> {
  /** Names this whole write: changes made on another (an older whole, or a newer one) are not applied to it. */
  generation: string
  pages: Readonly<Record<string, Page>>
  render: Render
  scan?: ScanRecord
}

/** What changed since the whole write of `generation`: each changed entry, null for one removed. */
export interface Changes<Page, Render> {
  generation: string
  pages: Record<string, Page | null>
  /** Absent when it is the whole write's. */
  render?: Render
  scanPages: Record<string, ScanRecord['pages'][string] | null>
  scanMetas: Record<string, NonNullable<ScanRecord['metas']>[string] | null>
}

/** Past this many changed entries (or an eighth of the pages, if more) the store is written whole again. */
const MOST_CHANGES = 256

/** Entries of `now` that are not `then`'s, and `then`'s that `now` no longer has; null when there are more than `most`. */
function changedEntries<T>(now: Readonly<Record<string, T>>, then: Readonly<Record<string, T>>, most: number): Record<string, T | null> | null {
  const changed: Record<string, T | null> = {}
  let count = 0
  for (const key in now) if (now[key] !== then[key] && ++count <= most) changed[key] = now[key]
  for (const key in then) if (!(key in now) && ++count <= most) changed[key] = null
  return count > most ? null : changed
}

/**
 * What changed from `whole` to `now`, or null when the store is better written whole: too many
 * changes, or a scan made by other parsers (or none, against one).
 */
export function changesSince<Page, Render>(whole: Whole<Page, Render>, now: Omit<Whole<Page, Render>, 'generation'>, sameRender: boolean): Changes<Page, Render> | null {
  const { scan } = now
  if (!scan !== !whole.scan || (scan && whole.scan && (scan.parsers !== whole.scan.parsers || !scan.metas !== !whole.scan.metas))) return null
  let most = Math.max(MOST_CHANGES, Math.floor(Object.keys(now.pages).length / 8))
  const pages = changedEntries(now.pages, whole.pages, most)
  if (!pages) return null
  most -= Object.keys(pages).length
  const scanPages = scan && whole.scan ? changedEntries(scan.pages, whole.scan.pages, most) : {}
  if (!scanPages) return null
  most -= Object.keys(scanPages).length
  const scanMetas = scan?.metas && whole.scan?.metas ? changedEntries(scan.metas, whole.scan.metas, most) : {}
  if (!scanMetas) return null
  return { generation: whole.generation, pages, ...(sameRender ? {} : { render: now.render }), scanPages, scanMetas }
}

/** `whole` with `changes` applied: new maps, the unchanged entries the same objects. */
export function applyChanges<Page, Render>(whole: Whole<Page, Render>, changes: Changes<Page, Render>): Omit<Whole<Page, Render>, 'generation'> {
  const apply = <T>(base: Readonly<Record<string, T>>, changed: Record<string, T | null>) => {
    const result = { ...base }
    for (const [key, value] of Object.entries(changed)) {
      if (value === null) delete result[key]
      else result[key] = value
    }
    return result
  }
  const scan = whole.scan && { ...whole.scan, pages: apply(whole.scan.pages, changes.scanPages), ...(whole.scan.metas ? { metas: apply(whole.scan.metas, changes.scanMetas) } : {}) }
  return { pages: apply(whole.pages, changes.pages), render: 'render' in changes ? (changes.render as Render) : whole.render, scan }
}
