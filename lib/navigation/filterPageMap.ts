import type { PageMapItem } from 'nextra'
import { withSlugTitle } from './slugTitle'

/**
 * The page map as one reader may see it: every page and navbar link that `mayOpen` refuses
 * is removed, folders left empty disappear, and `_meta` keys that name removed entries go too
 * (Nextra rejects a `_meta` key whose page is missing). No link to a forbidden page is
 * rendered, so Next never prefetches one.
 *
 * A folder kept for a page inside it that the reader may open, though they may not open the
 * folder's own route, keeps its `_meta` entry (its place, `display` and the rest) but not its
 * title: the writer's title for it is the title of a page they may not open (its index page). It
 * is named from its slug instead, which the path of the page inside already tells. Section
 * folders at the top are tabs, titled from the section.
 */
export function filterPageMap(items: PageMapItem[], mayOpen: (path: string) => boolean, nested = false): PageMapItem[] {
  const kept: PageMapItem[] = []
  const removed = new Set<string>()
  const untitled = new Set<string>()
  for (const item of items) {
    if ('data' in item) {
      kept.push(item)
    } else if ('children' in item) {
      const children = filterPageMap(item.children, mayOpen, true)
      if (children.some((child) => !('data' in child))) {
        kept.push({ ...item, children })
        if (nested && !mayOpen(item.route)) untitled.add(item.name)
      } else removed.add(item.name)
    } else if (mayOpen(item.route)) {
      kept.push(item)
    } else {
      removed.add(item.name)
    }
  }
  const survivingNames = new Set(kept.flatMap((item) => ('name' in item ? [item.name] : [])))
  return kept.map((item) => {
    // A `_meta` still held as an import name (at build time) is resolved by Nextra later.
    if (!('data' in item) || typeof item.data !== 'object' || item.data === null) return item
    const data: Record<string, unknown> = {}
    for (const [key, value] of Object.entries(item.data)) {
      const href = typeof value === 'object' && value !== null ? (value as { href?: unknown }).href : undefined
      if (typeof href === 'string' && href.startsWith('/') && !mayOpen(href)) continue
      // Keys for separators and external links have no page of their own; keep them.
      if (removed.has(key) && !survivingNames.has(key)) continue
      data[key] = untitled.has(key) ? withSlugTitle(value, key) : value
    }
    return { data } as PageMapItem
  })
}
