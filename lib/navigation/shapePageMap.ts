/**
 * The items of Nextra's page map, as its collector makes them (pipeline/content/contentSource.ts)
 * and as the navigation tree holds them (./navigationTree.ts).
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

/** Every page route in a page map (folders' own pages included), as Nextra names them. */
export function pageRoutes(items: readonly RawItem[]): string[] {
  return items.flatMap((item) => (isFolder(item) ? pageRoutes(item.children) : isPage(item) ? [item.route] : []))
}
