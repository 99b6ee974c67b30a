/**
 * Build-time shape of the site's page map, as Nextra's collector makes it (pipeline/content/contentSource.ts).
 *
 * - Sections live at /docs/<section>, but Nextra only turns top-level `type: 'page'` folders
 *   into navbar tabs with their own sidebar, so the section folders are lifted to the top level.
 *   Their routes do not change.
 * - A folder's `index.mdx` becomes the folder's own page (Nextra's "file beside folder" form),
 *   so a category is clickable in the sidebar, and lists its pages, instead of listing an
 *   "index" child.
 */
export interface RawFolder {
  name: string
  route: string
  children: RawItem[]
}
export interface RawPage {
  name: string
  route: string
  frontMatter?: Record<string, unknown>
}
export interface RawMeta {
  data: unknown
}
export type RawItem = RawFolder | RawPage | RawMeta

export const isFolder = (item: RawItem): item is RawFolder => 'children' in item
export const isPage = (item: RawItem): item is RawPage => 'route' in item && !('children' in item)
export const isMeta = (item: RawItem): item is RawMeta => 'data' in item
/** A `_meta` held as its data (not yet as the name of Nextra's import of it). */
export const isMetaData = (item: RawItem): item is { data: Record<string, unknown> } => isMeta(item) && typeof item.data === 'object' && item.data !== null

function liftIndexPages(items: RawItem[]): RawItem[] {
  const result: RawItem[] = []
  for (const item of items) {
    if (!isFolder(item)) {
      result.push(item)
      continue
    }
    const index = item.children.find((child) => isPage(child) && child.name === 'index') as RawPage | undefined
    const rest = item.children.filter((child) => child !== index)
    // The folder goes first: Nextra merges a page into the item just before it of the same name,
    // keeping that item's fields. With the page first, the merge kept the page and dropped the
    // folder's children, so no page inside a folder was in the sidebar, breadcrumb or prev/next.
    if (rest.some((child) => !('data' in child))) result.push({ ...item, children: liftIndexPages(rest) })
    // A folder that held only its index page is just that page.
    if (index) result.push({ name: item.name, route: item.route, frontMatter: index.frontMatter })
  }
  return result
}

/**
 * Nextra's own order for a folder's items (`_meta` first, then by name), applied at build time so
 * the theme need not compare names in the browser (patches/theme/presortedPageMap.cjs). Stable, so a
 * page and the folder of the same name stay side by side.
 */
function nextraOrder(a: RawItem, b: RawItem): number {
  if ('data' in a) return -1
  if ('data' in b) return 1
  return (a as RawPage).name.localeCompare((b as RawPage).name)
}

function sortLikeNextra(items: RawItem[]): RawItem[] {
  return [...items].sort(nextraOrder).map((item) => (isFolder(item) ? { ...item, children: sortLikeNextra(item.children) } : item))
}

export function shapePageMap(pageMap: RawItem[], docsFolder = 'docs'): RawItem[] {
  const docs = pageMap.find((item): item is RawFolder => isFolder(item) && item.name === docsFolder)
  if (!docs) return sortLikeNextra(liftIndexPages(pageMap))
  const sections = docs.children.filter(isFolder)
  const remainder = docs.children.filter((child) => !isFolder(child))
  const top = pageMap.flatMap((item) => (item === docs ? [{ ...docs, children: remainder }, ...sections] : [item]))
  return sortLikeNextra(liftIndexPages(top))
}

/**
 * Each `_meta` of Nextra's page map as the data it exports (`loadMeta` of the folder's route),
 * instead of the name of an import of its module, so that filterPageMap can drop the entries of
 * pages a page map's readers may not open (pipeline/readMeta.ts says why).
 */
export function inlineMetas(items: RawItem[], loadMeta: (folderRoute: string) => Record<string, unknown>, folderRoute = '/'): RawItem[] {
  return items.map((item) => {
    if (isMeta(item)) return typeof item.data === 'string' ? { data: loadMeta(folderRoute) } : item
    if (isFolder(item)) return { ...item, children: inlineMetas(item.children, loadMeta, item.route) }
    return item
  })
}

/** Every page route in a page map (folders' own pages included), as Nextra names them. */
export function pageRoutes(items: readonly RawItem[]): string[] {
  return items.flatMap((item) => (isFolder(item) ? pageRoutes(item.children) : isPage(item) ? [item.route] : []))
}
