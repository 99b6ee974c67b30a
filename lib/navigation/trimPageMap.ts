/**
 * The part of an audience's page map that one page's HTML carries: what its first paint needs.
 *
 * A page's HTML used to hold its whole section's sidebar, so in a section of a thousand pages
 * every page carried a thousand links (585 kB of HTML a page at 3,000 pages), and a title change
 * rewrote every page of the section. The whole navigation now reaches the browser once per
 * audience, in the audience's route manifest (lib/navigation/mergePageMaps.ts), which the browser
 * caches across pages. The page keeps:
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

/** The level's entry names in the writer's order: its `_meta` keys first, then the rest as sorted. */
function writerOrder(items: readonly RawItem[]): string[] {
  const names = new Set<string>()
  const meta = items.find(isMetaData)
  const present = new Set(items.flatMap((item) => nameOf(item) ?? []))
  for (const key of Object.keys(meta?.data ?? {})) if (present.has(key)) names.add(key)
  for (const item of items) {
    const name = nameOf(item)
    if (name !== null) names.add(name)
  }
  return [...names]
}

/** The level with only the entries named in `keep`; `_meta` keys of dropped entries go too. */
function keepNamed(items: readonly RawItem[], keep: ReadonlySet<string>, inner: (folder: RawItem & { children: RawItem[] }) => RawItem[]): RawItem[] {
  const dropped = new Set(items.flatMap((item) => nameOf(item) ?? []).filter((name) => !keep.has(name)))
  return items.flatMap((item): RawItem[] => {
    if (isMetaData(item)) return [{ data: Object.fromEntries(Object.entries(item.data).filter(([key]) => !dropped.has(key))) }]
    const name = nameOf(item)
    if (name === null || !keep.has(name)) return name === null ? [item] : []
    return isFolder(item) ? [{ ...item, children: inner(item) }] : [item]
  })
}

/** A folder off the page's way: its first entry, so it stays a folder the sidebar can open. */
function firstEntryOnly(items: readonly RawItem[]): RawItem[] {
  const first = writerOrder(items)[0]
  return first === undefined ? [] : keepNamed(items, new Set([first]), (folder) => firstEntryOnly(folder.children))
}

const onWay = (route: string, itemRoute: string) => route === itemRoute || route.startsWith(itemRoute === '/' ? '/' : `${itemRoute}/`)

function trimLevel(items: readonly RawItem[], route: string, window: number): RawItem[] {
  const order = writerOrder(items)
  // The deepest match is the entry on the way (a section folder at the top lies under /docs).
  const here = items
    .filter((item): item is RawItem & { route: string; name: string } => 'route' in item && onWay(route, item.route))
    .sort((a, b) => b.route.length - a.route.length)[0]
  const at = here ? order.indexOf(here.name) : -1
  const keep = new Set(at < 0 ? order.slice(0, 2 * window + 1) : order.slice(Math.max(0, at - window), at + window + 1))
  return keepNamed(items, keep, (folder) => ('route' in folder && onWay(route, folder.route) ? trimLevel(folder.children, route, window) : firstEntryOnly(folder.children)))
}

/** The page map of `route`'s HTML: its way, the `window` entries around it on each level, and nothing else. */
export function trimPageMap(pageMap: readonly RawItem[], route: string, window = NAVIGATION_WINDOW): RawItem[] {
  return trimLevel(pageMap, route, window)
}
