/**
 * A page's part of its audience's page map (./trimPageMap.ts) as its props carry it: an item's
 * route is left out where it follows from its folder's route and its name, as Nextra's collector
 * made it (`/docs/leads` + `intro` → `/docs/leads/intro`; `index` is its folder's own route). Every
 * page's props hold about thirty routes, a third of their page map's bytes; the route puts them
 * back before handing the page map to the theme. A route that does not follow (a section lifted
 * to the top level, navigationTree.ts) stays written.
 *
 * No Node or browser imports: the build packs, the docs route unpacks.
 */
import { isFolder, type RawItem } from './shapePageMap'

/** A page-map item as the props carry it: as Nextra's, its route left out where it follows. */
export type PackedPageMapItem = Omit<RawItem, 'route' | 'children'> & { name?: string; route?: string; children?: PackedPageMapItem[] }

const routeOf = (folderRoute: string, name: string) => (name === 'index' ? folderRoute : `${folderRoute === '/' ? '' : folderRoute}/${name}`)

export function packPageMap(items: readonly RawItem[], folderRoute = '/'): PackedPageMapItem[] {
  return items.map((item) => {
    if (!('route' in item)) return item
    const { route, ...rest } = item
    const packed: PackedPageMapItem = route === routeOf(folderRoute, item.name) ? rest : { ...rest, route }
    return isFolder(item) ? { ...packed, children: packPageMap(item.children, route) } : packed
  })
}

export function unpackPageMap(items: readonly PackedPageMapItem[], folderRoute = '/'): RawItem[] {
  return items.map((item): RawItem => {
    if (typeof item.name !== 'string') return item as RawItem
    const route = item.route ?? routeOf(folderRoute, item.name)
    const { children, ...rest } = item
    return (children ? { ...rest, route, children: unpackPageMap(children, route) } : { ...rest, route }) as RawItem
  })
}
