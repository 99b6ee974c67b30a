import type { PageMapItem } from 'nextra'
import type { CompiledAccess } from '../access/compileAccess'
import { decideAccess, readersOfMayOpen } from '../access/decideAccess'
import { sectionPrefix } from '../access/sectionPaths'
import { filterPageMap } from './filterPageMap'
import { isMeta, type RawItem, type RawMeta } from './shapePageMap'

export interface SectionStub {
  id: string
  title: string
  href: string
}

/** The `_meta` entry that makes a top-level section folder a navbar tab with its own sidebar. */
const tabMeta = (section: SectionStub) => ({ title: section.title, type: 'page' })


export interface ScopeOptions {
  sections: readonly SectionStub[]
  /** The top-level `_meta` (pages/_meta.ts), which names no section: the scope's own tabs are added. */
  topMeta: Record<string, unknown>
  /** The rules, to keep only what every reader of the scope's pages may open (no list is read). */
  access: CompiledAccess
}

/** The audience whose pages a page map is built for (lib/access/planAggregates.ts): what scoping needs of it. */
export interface PageMapScope {
  /** A page of the audience: whoever may open it may open every page of the audience. */
  governedBy: string
  /** The sections it holds pages of: their tabs are in its page map. */
  sections: ReadonlyArray<{ id: string }>
}

/**
 * The page map that one audience's pages (the pages one rule governs) are built with. Nextra
 * inlines the page map into every page's JavaScript, so it may hold only what every reader of
 * those pages may know: the sections the audience holds pages of, and in them only the pages all
 * of its readers may open. A folder that a finer rule gives its own readers is a section tab with
 * just that folder in their page map, and absent from the rest of the section's. Other sections
 * are left out entirely, tab and all; a reader's other tabs come from the authority at run time
 * (`withSectionTabs`).
 *
 * `scope` is null for a page that belongs to no audience; its page map holds only public pages.
 */
export function scopePageMap(shaped: RawItem[], scope: PageMapScope | null, options: ScopeOptions): RawItem[] {
  const { sections, access } = options
  const ownIds = new Set(scope?.sections.map((section) => section.id) ?? [])
  const own = sections.filter((section) => ownIds.has(section.id))
  const foreign = new Set(sections.filter((section) => !ownIds.has(section.id)).map((section) => section.id))
  // Section tabs come first, in the order the reader's other tabs will join them (withSectionTabs).
  const topMeta = { ...Object.fromEntries(own.map((section) => [section.id, tabMeta(section)])), ...options.topMeta }
  const kept = shaped.filter((item) => isMeta(item) || !('children' in item && foreign.has(item.name)))
  const scoped = kept.map((item) => (isMeta(item) ? { data: topMeta } : item))
  // With no audience, what anyone may open: the public pages.
  const mayOpen = scope ? (path: string) => readersOfMayOpen(access, scope.governedBy, path) : (path: string) => decideAccess(access, path, null) === 'allow'
  return filterPageMap(scoped as unknown as PageMapItem[], mayOpen) as unknown as RawItem[]
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
