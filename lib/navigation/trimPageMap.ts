/**
 * The part of an audience's page map that one page's HTML carries: what its first paint needs.
 *
 * A page's HTML used to hold its whole section's sidebar, so in a section of a thousand pages
 * every page carried a thousand links, its HTML growing with its section (docs/benchmarks.md, figures behind choices in the code),
 * and a title change rewrote every page of the section. The whole navigation now reaches the browser once per
 * audience, in the audience's route manifest (lib/navigation/mergePageMaps.ts), which a page load
 * fetches once and the router keeps across the pages it moves to (no cache keeps it past the tab:
 * edge/cacheHeaders.ts). The page keeps:
 * - every folder on the way to it (breadcrumb, the open folders of the sidebar);
 * - on each of those levels, the `window` entries either side of the one on the way, in the
 *   writer's order (the sidebar around the page, and its previous and next pages);
 * - of a kept folder off the way, its first entry only (so it stays a folder, and "next" can step
 *   into it).
 * Its size therefore grows with the depth of the page, never with the size of its section.
 */
import { isFolder, isMetaData, type RawItem } from './shapePageMap'

/** Entries kept either side of the page's own on each level of its way. */
export const NAVIGATION_WINDOW = 8

const nameOf = (item: RawItem): string | null => ('name' in item ? item.name : null)

/**
 * What trimming needs of one level, made once per level and reused for every page: the build trims
 * the same audience map for each of its pages, and scanning a level of n entries for each of them
 * made the page step quadratic in a folder's size (its cost at 30,000 pages: docs/benchmarks.md,
 * "Build and dev at scale").
 */
interface Level {
  /** The level's entry names in the writer's order: its `_meta` keys first, then the rest as sorted. */
  order: string[]
  position: Map<string, number>
  /** The items of each name (a folder and a page may share one), with their places in the level. */
  named: Map<string, Array<{ item: RawItem; index: number }>>
  /** Items that always stay: those without a name, at their places. */
  unnamed: Array<{ item: RawItem; index: number }>
  /**
   * Each `_meta` data's place in the level, and its entries in its order: those that name no item
   * (links, separators) always stay; those that name one, by name, stay with it.
   */
  metas: Array<{ index: number; others: Array<{ at: number; key: string; value: unknown }>; byName: Map<string, { at: number; key: string; value: unknown }> }>
  /** The items that lie on a route's way, by their route. */
  byRoute: Map<string, Array<RawItem & { route: string; name: string }>>
}

const levels = new WeakMap<readonly RawItem[], Level>()

function levelOf(items: readonly RawItem[]): Level {
  const known = levels.get(items)
  if (known) return known
  const named = new Map<string, Array<{ item: RawItem; index: number }>>()
  const unnamed: Level['unnamed'] = []
  const byRoute = new Map<string, Array<RawItem & { route: string; name: string }>>()
  const metas: Array<{ index: number; data: Record<string, unknown> }> = []
  items.forEach((item, index) => {
    if (isMetaData(item)) return void metas.push({ index, data: item.data })
    const name = nameOf(item)
    if (name === null) return void unnamed.push({ item, index })
    named.set(name, [...(named.get(name) ?? []), { item, index }])
    if ('route' in item) byRoute.set(item.route, [...(byRoute.get(item.route) ?? []), item as RawItem & { route: string; name: string }])
  })
  const order = [...new Set([...Object.keys(metas[0]?.data ?? {}).filter((key) => named.has(key)), ...named.keys()])]
  const level: Level = {
    order,
    position: new Map(order.map((name, at) => [name, at])),
    named,
    unnamed,
    metas: metas.map(({ index, data }) => {
      const entries = Object.entries(data).map(([key, value], at) => ({ at, key, value }))
      return { index, others: entries.filter((entry) => !named.has(entry.key)), byName: new Map(entries.filter((entry) => named.has(entry.key)).map((entry) => [entry.key, entry])) }
    }),
    byRoute,
  }
  levels.set(items, level)
  return level
}

/** The level with only the entries named in `keep`, in their places; `_meta` keys of dropped entries go too. */
function keepNamed(items: readonly RawItem[], keep: readonly string[], inner: (folder: RawItem & { children: RawItem[] }) => RawItem[]): RawItem[] {
  const level = levelOf(items)
  const kept = [...level.unnamed, ...keep.flatMap((name) => level.named.get(name) ?? [])].map(({ item, index }) => ({ index, item: isFolder(item) ? { ...item, children: inner(item) } : item }))
  for (const meta of level.metas) {
    const entries = [...meta.others, ...keep.flatMap((name) => meta.byName.get(name) ?? [])].sort((a, b) => a.at - b.at)
    kept.push({ index: meta.index, item: { data: Object.fromEntries(entries.map((entry) => [entry.key, entry.value])) } })
  }
  return kept.sort((a, b) => a.index - b.index).map(({ item }) => item)
}

/** A folder off the page's way: its first entry, so it stays a folder the sidebar can open. The same for every page: made once. */
const offWay = new WeakMap<readonly RawItem[], RawItem[]>()
function firstEntryOnly(items: readonly RawItem[]): RawItem[] {
  let trimmed = offWay.get(items)
  if (!trimmed) {
    const first = levelOf(items).order[0]
    trimmed = first === undefined ? [] : keepNamed(items, [first], (folder) => firstEntryOnly(folder.children))
    offWay.set(items, trimmed)
  }
  return trimmed
}

/** The route itself and each folder above it, deepest first: the routes an entry on its way can have. */
function waysOf(route: string): string[] {
  const ways = [route]
  for (let cut = route.lastIndexOf('/'); cut > 0; cut = route.lastIndexOf('/', cut - 1)) ways.push(route.slice(0, cut))
  return route === '/' ? ways : [...ways, '/']
}

function trimLevel(items: readonly RawItem[], route: string, window: number): RawItem[] {
  const level = levelOf(items)
  // The deepest entry on the way (a section folder at the top lies under /docs); of two with one route, the first.
  const ways = waysOf(route)
  const here = ways.map((way) => level.byRoute.get(way)?.[0]).find((item) => item !== undefined)
  const at = here ? level.position.get(here.name)! : -1
  const keep = at < 0 ? level.order.slice(0, 2 * window + 1) : level.order.slice(Math.max(0, at - window), at + window + 1)
  const onWay = new Set(ways)
  return keepNamed(items, keep, (folder) => ('route' in folder && onWay.has(folder.route) ? trimLevel(folder.children, route, window) : firstEntryOnly(folder.children)))
}

/** The page map of `route`'s HTML: its way, the `window` entries around it on each level, and nothing else. */
export function trimPageMap(pageMap: readonly RawItem[], route: string, window = NAVIGATION_WINDOW): RawItem[] {
  return trimLevel(pageMap, route, window)
}
