/**
 * One audience's navigation tree, built in one walk of the content source's page map (Nextra's
 * collector's shape, `_meta` files as references): what the chain of shapePageMap, inlineMetas,
 * scopePageMap and filterPageMap made of it, level by level.
 *
 * On each level:
 * - the `_meta` reference becomes its folder's data (the top level's is `top.meta`);
 * - a folder's `index` page becomes a page beside the folder, of the folder's name and route, so a
 *   category is clickable (the folder first: Nextra joins a page into the item before it of the
 *   same name); a folder of nothing but its index page is just that page;
 * - what `mayOpen` refuses goes, as do folders left with no page, and `_meta` keys that named
 *   what went; a folder's own words (a separator, a menu, a link: keys that name nothing) stay only
 *   for readers who may open the folder, a link to a page `mayOpen` refuses goes, and so do the
 *   items of a menu that name such a page;
 * - a folder below the top kept for a page inside it whose own route `mayOpen` refuses keeps its
 *   `_meta` entry but is titled from its slug (the writer's title is its index page's);
 * - items are in Nextra's order (`_meta` first, then by name), so the theme need not sort them
 *   (patches/theme/presortedPageMap.cjs).
 * At the top, the section folders under `docs/` are lifted beside it (Nextra makes top-level
 * `type: 'page'` folders navbar tabs), and the folders of `top.dropSections` are left out whole.
 *
 * Pure: the build calls it (pipeline/pageMaps.ts); nothing here reads a file.
 */
import type { CompiledAccess } from '../access/compileAccess'
import { decideAccess, readersOfMayOpen } from '../access/decideAccess'
import { folderWordsPath } from '../access/sectionPaths'
import { tabMeta, type PageMapScope, type SectionStub } from './scopePageMap'
import { withSlugTitle } from './slugTitle'
import { isFolder, isMeta, isPage, type RawFolder, type RawItem, type RawPage } from './shapePageMap'

export interface NavigationTreeOptions {
  /** A folder's `_meta` data by its folder's route (the content source's metaOf). */
  loadMeta: (folderRoute: string) => Record<string, unknown>
  /** Whether every reader of the tree may open `path` (a page's route, or an internal link's href). */
  mayOpen: (path: string) => boolean
  top: {
    /** The top level's `_meta` data, in place of content/_meta's own (the tabs of the tree's sections added). */
    meta: Record<string, unknown>
    /** Section folders left out of the tree, tab and all (sections none of its readers hold pages of). */
    dropSections?: ReadonlySet<string>
  }
  /** The folder whose section folders are lifted to the top. */
  docsFolder?: string
}

/** Nextra's order of a level: `_meta` first, then by name; stable, so a folder stays before its page. */
function nextraOrder(a: RawItem, b: RawItem): number {
  if ('data' in a) return -1
  if ('data' in b) return 1
  return (a as RawPage).name.localeCompare((b as RawPage).name)
}

export function navigationTree(raw: readonly RawItem[], options: NavigationTreeOptions): RawItem[] {
  const docsName = options.docsFolder ?? 'docs'
  const docs = raw.find((item): item is RawFolder => isFolder(item) && item.name === docsName)
  const top = docs ? raw.flatMap((item) => (item === docs ? [{ ...docs, children: docs.children.filter((child) => !isFolder(child)) }, ...docs.children.filter(isFolder)] : [item])) : [...raw]
  return level(top, '/', false, options)
}

function level(items: readonly RawItem[], folderRoute: string, nested: boolean, options: NavigationTreeOptions): RawItem[] {
  const { mayOpen } = options
  const kept: RawItem[] = []
  const removed = new Set<string>()
  const untitled = new Set<string>()
  let meta: Record<string, unknown> | null = null
  // At the top, the folders of the sections left out (their entry pages are pages, judged as any).
  const dropped = nested ? new Set<string>() : (options.top.dropSections ?? new Set<string>())
  const page = (item: RawPage) => (mayOpen(item.route) ? kept.push(item) : removed.add(item.name))
  for (const item of items) {
    if (isMeta(item)) {
      meta = nested ? (typeof item.data === 'string' ? options.loadMeta(folderRoute) : (item.data as Record<string, unknown>)) : options.top.meta
      kept.push({ data: null })
    } else if (isFolder(item)) {
      const index = item.children.find((child): child is RawPage => isPage(child) && child.name === 'index')
      const rest = item.children.filter((child) => child !== index)
      if (rest.some((child) => !isMeta(child)) && !dropped.has(item.name)) {
        const children = level(rest, item.route, true, options)
        if (children.some((child) => !isMeta(child))) {
          kept.push({ ...item, children })
          if (nested && !mayOpen(item.route)) untitled.add(item.name)
        } else removed.add(item.name)
      }
      if (index) page({ name: item.name, route: item.route, frontMatter: index.frontMatter })
    } else page(item as RawPage)
  }
  kept.sort(nextraOrder)
  // By name, the first of a name (a folder before the page of its name): a menu's items name pages of that folder.
  const surviving = new Map<string, RawFolder | RawPage>()
  for (const item of kept) if ('name' in item && !surviving.has(item.name)) surviving.set(item.name, item)
  // The folder's own words (a separator, a menu, a link) are for readers of what the folder holds:
  // a reader kept here only for a page inside it (its index page among them), by a finer rule, gets
  // the entries of what it holds.
  const ownWords = mayOpen(folderWordsPath(folderRoute))
  const linkOpen = (href: unknown) => linkMayOpen(href, ownWords, mayOpen)
  return kept.map((item) => {
    if (!isMeta(item)) return item
    const data: Record<string, unknown> = {}
    for (const [key, value] of Object.entries(meta ?? {})) {
      const names = surviving.has(key)
      if (!names && (removed.has(key) || (key !== '*' && !ownWords))) continue
      // At the top, a section's folder lives under docs/: its route, not the key's, is where a menu's items are.
      const entry = openEntry(value, key === '*' ? null : (surviving.get(key)?.route ?? routeIn(folderRoute, key)), names, linkOpen, mayOpen)
      if (entry === undefined) continue
      data[key] = untitled.has(key) ? withSlugTitle(entry, key) : entry
    }
    return { data }
  })
}

const routeIn = (folderRoute: string, name: string) => (folderRoute === '/' ? `/${name}` : `${folderRoute}/${name}`)

/** A link to another site (a scheme, or `//host`). */
const EXTERNAL_LINK = /^([a-z][a-z0-9+.-]*:|\/\/)/i

/**
 * Whether a `_meta` link may stay: another site's, always; a path on this one, when every reader
 * may open it; a relative one (whose target depends on the page it is shown on), only with the
 * folder's own words.
 */
function linkMayOpen(href: unknown, ownWords: boolean, mayOpen: (path: string) => boolean): boolean {
  // None stays; one that is not text (which the content check refuses) goes.
  if (href === undefined) return true
  if (typeof href !== 'string') return false
  if (EXTERNAL_LINK.test(href.trim())) return true
  if (href.startsWith('/')) return mayOpen(href.replace(/[?#].*$/, '') || '/')
  return ownWords
}

/**
 * A `_meta` entry as its readers may see it, or undefined when it goes: its link refused, or a
 * menu left with none of its items (an item names a page of the menu's folder, `route`, or links).
 * A menu that names a kept folder (`names`) keeps its title and settings without the items.
 */
function openEntry(value: unknown, route: string | null, names: boolean, linkOpen: (href: unknown) => boolean, mayOpen: (path: string) => boolean): unknown {
  if (typeof value !== 'object' || value === null) return value
  const entry = value as { href?: unknown; type?: unknown; items?: unknown }
  if (!linkOpen(entry.href)) return undefined
  if (entry.type !== 'menu' || typeof entry.items !== 'object' || entry.items === null) return value
  const items = Object.entries(entry.items).filter(([name, item]) => {
    const href = typeof item === 'object' && item !== null ? (item as { href?: unknown }).href : undefined
    return href === undefined ? route !== null && mayOpen(routeIn(route, name)) : linkOpen(href)
  })
  if (items.length > 0) return { ...value, items: Object.fromEntries(items) }
  if (!names) return undefined
  const { type: _menu, items: _none, ...plain } = value as Record<string, unknown>
  return plain
}

export interface AudienceTreeInputs {
  access: CompiledAccess
  /** The declared sections, in navbar order. */
  sections: readonly SectionStub[]
  /** The top-level `_meta` (content/_meta.ts), which names no section. */
  topMeta: Record<string, unknown>
  /** A folder's `_meta` data by its folder's route (the content source's metaOf); none by default. */
  loadMeta?: NavigationTreeOptions['loadMeta']
}

/** What every reader of audience `audience`'s pages (public pages: null) may open; no list is read. */
export function readersMayOpen(access: CompiledAccess, audience: PageMapScope | null): (path: string) => boolean {
  return audience ? (path) => readersOfMayOpen(access, audience.governedBy, path) : (path) => decideAccess(access, path, null) === 'allow'
}

/**
 * The tree of `audience`'s page map: the sections it holds pages
 * of, their tabs first in the top `_meta` (in the order the reader's other tabs will join them,
 * withSectionTabs), other sections left out tab and all, and only what `mayOpen` allows (by
 * default, what every reader of the audience's pages may open).
 */
export function audienceTree(raw: readonly RawItem[], audience: PageMapScope | null, inputs: AudienceTreeInputs, mayOpen = readersMayOpen(inputs.access, audience)): RawItem[] {
  const ownIds = new Set(audience?.sections.map((section) => section.id) ?? [])
  const own = inputs.sections.filter((section) => ownIds.has(section.id))
  const tabs = Object.fromEntries(own.map((section) => [section.id, tabMeta(section)]))
  const dropSections = new Set(inputs.sections.filter((section) => !ownIds.has(section.id)).map((section) => section.id))
  return navigationTree(raw, { loadMeta: inputs.loadMeta ?? (() => ({})), mayOpen, top: { meta: { ...tabs, ...inputs.topMeta }, dropSections } })
}
