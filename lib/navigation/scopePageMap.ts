import { sectionPrefix } from '../access/sectionPaths'
import { isMeta, type RawItem, type RawMeta } from './shapePageMap'

export interface SectionStub {
  id: string
  title: string
  href: string
}

/** The `_meta` entry that makes a top-level section folder a navbar tab with its own sidebar. */
export const tabMeta = (section: Pick<SectionStub, 'title'>) => ({ title: section.title, type: 'page' })

/** The audience whose pages a page map is built for (lib/access/planAggregates.ts): what pipeline/pageMaps.ts needs of it. */
export interface PageMapScope {
  /** A page of the audience: whoever may open it may open every page of the audience. */
  governedBy: string
  /** The sections it holds pages of: their tabs are in its page map. */
  sections: ReadonlyArray<{ id: string }>
}

/**
 * Adds a navbar tab for each section the reader's view names that the page map lacks: the section
 * folder with only its entry page, which is all a tab needs. Run in the browser once the
 * authority has answered; tabs come in the view's order.
 */
export function withSectionTabs<T>(pageMap: T[], sections: readonly SectionStub[]): T[] {
  const items = pageMap as unknown as RawItem[]
  const present = new Set(items.flatMap((item) => ('children' in item ? [item.name] : [])))
  const metaAt = items.findIndex(isMeta)
  if (metaAt < 0 || sections.every((section) => present.has(section.id))) return pageMap
  const oldMeta = (items[metaAt] as RawMeta).data as Record<string, unknown>
  const ids = new Set(sections.map((section) => section.id))
  const meta: Record<string, unknown> = {}
  for (const section of sections) meta[section.id] = oldMeta[section.id] ?? tabMeta(section)
  for (const [key, value] of Object.entries(oldMeta)) if (!ids.has(key)) meta[key] = value
  const stubs: RawItem[] = sections
    .filter((section) => !present.has(section.id))
    .map((section) => ({
      name: section.id,
      route: sectionPrefix(section.id),
      children: [{ name: section.href.split('/').pop() as string, route: section.href, frontMatter: { title: section.title } }],
    }))
  const result = items.map((item, at) => (at === metaAt ? { data: meta } : item))
  return [...result, ...stubs] as unknown as T[]
}

