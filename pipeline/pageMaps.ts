/**
 * The page-map step, on the aggregate plan (lib/access/planAggregates.ts):
 * - the page map each audience's pages are built with (each page's props carry their part of it), so
 *   it holds only what every reader of those pages may open;
 * - one fragment per audience, holding that audience's pages and nothing else, which ships with the
 *   audience's route manifest (under its rule) so that a reader who holds several audiences sees
 *   all their pages in the sidebar (lib/navigation/mergePageMaps.ts).
 */
import { access as shippedAccess } from '../lib/access'
import type { CompiledAccess } from '../lib/access/compileAccess'
import { normalisePath } from '../lib/access/normalisePath'
import type { PageMapFragment } from '../lib/navigation/mergePageMaps'
import { audienceTree, navigationTree, readersMayOpen, type AudienceTreeInputs } from '../lib/navigation/navigationTree'
import { isFolder, isMetaData, type RawItem } from '../lib/navigation/shapePageMap'
import { sectionLinks } from '../lib/navigation/siteNavigation'
import type { ContentSource } from './content/contentSource'
import { navigationOrder, type PageSecret } from './navigationOrder'
import { audienceIdOf, type AggregatePlan } from '../lib/access/planAggregates'

/** The rules, their sections, the top `_meta` and each folder's `_meta` data (the content source's). */
export type PageMapInputs = Required<AudienceTreeInputs>

/**
 * The page map that the pages of audience `scope` (an audience id; null for public pages) are built
 * with, by the build's plan: the sections the audience holds pages of, and in them only the pages
 * every reader of the audience's pages may open (Nextra inlines the page map into each page's
 * JavaScript). A reader's other tabs come from the authority at run time (withSectionTabs).
 */
export function audiencePageMap(raw: RawItem[], scope: string | null, inputs: PageMapInputs, plan: Pick<AggregatePlan, 'audiences'>): RawItem[] {
  const audience = scope === null ? null : plan.audiences.find((candidate) => candidate.id === scope)
  if (audience === undefined) throw new Error(`pageMaps: no audience "${scope}" in the plan; the content source and the plan disagree`)
  return audienceTree(raw, audience, inputs)
}

/** Each folder's `_meta` keys in `items` (by folder route, `/` at the top), with their keys in `whole` (pipeline/navigationOrder.ts). */
function metaOrder(items: readonly RawItem[], whole: PageMapFragment['order'], folderRoute = '/', order: PageMapFragment['order'] = {}): PageMapFragment['order'] {
  for (const item of items) {
    if (isMetaData(item)) order[folderRoute] = Object.fromEntries(Object.keys(item.data).map((key) => [key, whole[folderRoute]?.[key] ?? Number.MAX_SAFE_INTEGER]))
    else if (isFolder(item)) metaOrder(item.children, whole, item.route, order)
  }
  return order
}

/**
 * One fragment per audience, keyed by the audience's rule (describeRule, as the route manifests
 * group routes): the audience's own pages, in their folders, with the `_meta` entries of those
 * pages only, and an order key for each (pipeline/navigationOrder.ts: keys that place the entries
 * among the whole folder's without counting or placing the entries the fragment leaves out).
 */
export function pageMapFragments(raw: RawItem[], plan: AggregatePlan, inputs: PageMapInputs, secretOf: PageSecret): Map<string, PageMapFragment> {
  // The writer's order of everything, with a tab for every section at the top, as the reader's
  // merged page map will have them.
  const tabs = Object.fromEntries(inputs.sections.map((section) => [section.id, null]))
  const everything = navigationTree(raw, { loadMeta: inputs.loadMeta, mayOpen: () => true, top: { meta: { ...tabs, ...inputs.topMeta } } })
  const whole = navigationOrder(everything, plan, inputs.access, secretOf)
  const fragments = new Map<string, PageMapFragment>()
  for (const audience of plan.audiences) {
    const readers = readersMayOpen(inputs.access, audience)
    const own = audienceTree(raw, audience, inputs, (path) => {
      const route = normalisePath(path)
      return readers(path) && route !== null && audienceIdOf(inputs.access, route) === audience.id
    })
    fragments.set(audience.rule, { items: own, order: metaOrder(own, whole) })
  }
  return fragments
}

/** The page-map step's inputs for `source`: the rules (the shipped ones by default), their sections and the `_meta` data. */
export function pageMapInputs(source: ContentSource, access: CompiledAccess = shippedAccess): PageMapInputs {
  // The sections of `access`, not the shipped file's: `npm run dev` passes the rules of an edit.
  const topMeta = source.metas.some((meta) => meta.folderRoute === '/') ? source.metaOf('/') : {}
  return { access, sections: sectionLinks(access.sections), topMeta, loadMeta: source.metaOf }
}
