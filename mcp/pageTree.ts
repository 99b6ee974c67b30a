/**
 * A reader's sidebar as data: the page-map fragments of the audiences they hold, merged as the
 * browser merges them (lib/navigation/mergePageMaps.ts), read in the writer's order with the
 * writer's titles. Hidden entries and separators are left out, as the sidebar leaves them out.
 */
import { mergePageMaps, type PageMapFragment } from '../lib/navigation/mergePageMaps'
import { isFolder, isMetaData, isPage, type RawItem } from '../lib/navigation/shapePageMap'
import { slugTitle } from '../lib/navigation/slugTitle'
import { DOCS_ROOT } from '../lib/access/sectionPaths'

export interface PageTreeNode {
  title: string
  /** The page's route, or the folder's (which is a page too when it has an index). */
  route: string
  children?: PageTreeNode[]
}

const metaTitle = (entry: unknown): string | null => {
  if (typeof entry === 'string') return entry
  if (entry && typeof entry === 'object' && typeof (entry as { title?: unknown }).title === 'string') return (entry as { title: string }).title
  return null
}

const hidden = (entry: unknown) =>
  !!entry && typeof entry === 'object' && ((entry as { display?: unknown }).display === 'hidden' || (entry as { type?: unknown }).type === 'separator')

function level(items: readonly RawItem[]): PageTreeNode[] {
  const meta = (items.find(isMetaData)?.data ?? {}) as Record<string, unknown>
  const order = Object.keys(meta)
  const named = items.filter((item): item is Exclude<RawItem, { data: unknown }> => isFolder(item) || isPage(item))
  const byName = new Map<string, PageTreeNode>()
  for (const item of named) {
    const entry = meta[item.name]
    if (hidden(entry)) continue
    const frontTitle = isPage(item) && typeof item.frontMatter?.title === 'string' ? item.frontMatter.title : null
    const existing = byName.get(item.name)
    const title = metaTitle(entry) ?? existing?.title ?? frontTitle ?? slugTitle(item.name)
    const children = isFolder(item) ? level(item.children) : existing?.children
    byName.set(item.name, { title, route: item.route, ...(children && children.length > 0 ? { children } : {}) })
  }
  const place = (name: string) => (order.includes(name) ? order.indexOf(name) : Number.MAX_SAFE_INTEGER)
  return [...byName.entries()].sort(([a], [b]) => place(a) - place(b) || a.localeCompare(b)).map(([, node]) => node)
}

/**
 * The reader's page tree: the docs' root page first when they may open it, then one node per
 * section they hold pages of, in navbar order. The top-level `_meta` hides the root page from the
 * navbar (each section is a tab of its own), but it is a page the reader opens like the others.
 */
export function pageTree(fragments: readonly PageMapFragment[]): PageTreeNode[] {
  const merged = mergePageMaps([], fragments) as RawItem[]
  const root = merged.find((item) => isPage(item) && item.route === DOCS_ROOT)
  const sections = level(merged).filter((node) => node.route !== DOCS_ROOT)
  if (!root || !isPage(root)) return sections
  const title = typeof root.frontMatter?.title === 'string' ? root.frontMatter.title : slugTitle(root.name)
  return [{ title, route: DOCS_ROOT }, ...sections]
}
