/**
 * A reader who holds several audiences (the pages one rule governs) sees all their pages in the
 * navigation. A page is built with the page map that every reader of it may see; each audience's
 * own pages come as a fragment with its route manifest, which only that audience's readers can
 * fetch (pipeline/pageMaps.ts). The browser merges the fragments it was given into the page's map.
 */
import { isFolder, isMetaData, type RawFolder, type RawItem } from './shapePageMap'
import { hasSlugTitle } from './slugTitle'

/** Fired on the window when an audience's fragment has arrived (in `self.__docsPageMaps`, from its route manifest). */
export const PAGE_MAP_EVENT = 'docs:pagemap'

/** The fragments that have arrived so far. */
export function arrivedPageMaps(): PageMapFragment[] {
  if (typeof window === 'undefined') return []
  return ((window as unknown as { __docsPageMaps?: PageMapFragment[] }).__docsPageMaps ?? []).slice()
}

export interface PageMapFragment {
  /** The audience's pages in their folders, with `_meta` entries for those pages only. */
  items: RawItem[]
  /** For each folder route (`/` at the top), the place of each of its `_meta` keys in the whole folder's `_meta`. */
  order: Record<string, Record<string, number>>
}

function mergeLevel(levels: RawItem[][], route: string, order: Record<string, Record<string, number>>): RawItem[] {
  const meta: Record<string, unknown> = {}
  let hasMeta = false
  const items = new Map<string, RawItem>()
  const children = new Map<string, RawItem[][]>()
  for (const level of levels) {
    for (const item of level) {
      if (isMetaData(item)) {
        hasMeta = true
        // A writer's title wins over the slug title that stands in for it where the reader of a
        // page may not open the folder (lib/navigation/filterPageMap.ts).
        for (const [key, value] of Object.entries(item.data)) if (!(key in meta) || hasSlugTitle(meta[key], key)) meta[key] = value
        continue
      }
      if (!('name' in item)) continue
      const key = `${isFolder(item) ? 'folder' : 'page'}:${item.name}`
      if (!items.has(key)) items.set(key, item)
      if (isFolder(item)) children.set(key, [...(children.get(key) ?? []), item.children])
    }
  }
  // The writer's order, from the fragments; keys no fragment places keep the order they came in.
  const place = order[route] ?? {}
  const keys = Object.keys(meta)
  const sortedKeys = keys
    .map((key, at) => ({ key, at: place[key] ?? Number.MAX_SAFE_INTEGER, seen: at }))
    .sort((a, b) => a.at - b.at || a.seen - b.seen)
    .map(({ key }) => key)
  const merged = [...items.entries()].map(([key, item]) =>
    isFolder(item) ? { ...item, children: mergeLevel(children.get(key) as RawItem[][], item.route, order) } : item
  )
  // By name, a folder before the page of the same name (Nextra joins the two), as the build sorts.
  merged.sort((a, b) => {
    const [nameA, nameB] = [(a as RawFolder).name, (b as RawFolder).name]
    if (nameA !== nameB) return nameA < nameB ? -1 : 1
    return Number(!isFolder(a)) - Number(!isFolder(b))
  })
  return hasMeta ? [{ data: Object.fromEntries(sortedKeys.map((key) => [key, meta[key]])) }, ...merged] : merged
}

/** The page's own page map with every fragment's pages added, in the writer's order. */
export function mergePageMaps<T>(pageMap: T[], fragments: readonly PageMapFragment[]): T[] {
  if (fragments.length === 0) return pageMap
  const order: Record<string, Record<string, number>> = {}
  for (const fragment of fragments) {
    for (const [route, keys] of Object.entries(fragment.order)) order[route] = { ...order[route], ...keys }
  }
  return mergeLevel([pageMap as unknown as RawItem[], ...fragments.map((fragment) => fragment.items)], '/', order) as unknown as T[]
}
