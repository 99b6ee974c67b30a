/** @jest-environment node */
/**
 * The one-walk navigation builder (lib/navigation/navigationTree.ts, through pipeline/pageMaps.ts)
 * against the chain it replaces (inlineMetas, shapePageMap, scopePageMap, filterPageMap and
 * navigationOrder over the shaped whole): every audience's page map and every fragment, with its
 * order keys, deeply equal, on the real site and on generated sites and rules (folders with and
 * without `_meta` and index pages, `_meta` orders, hidden entries, separators, external and
 * internal links, keys that name nothing, a folder and a page of one name, rules finer than a
 * section). A difference is a reader seeing another sidebar, or a page map naming what it did not.
 */
import path from 'node:path'
import type { PageMapItem } from 'nextra'
import shipped from '../../access.config'
import { access as shippedAccess, compileAccess } from '../../lib/access'
import type { CompiledAccess } from '../../lib/access/compileAccess'
import { normalisePath } from '../../lib/access/normalisePath'
import { audienceIdOf, planAggregates, type AggregatePlan } from '../../lib/access/planAggregates'
import type { AccessConfig } from '../../lib/access/types'
import { filterPageMap } from '../../lib/navigation/filterPageMap'
import type { PageMapFragment } from '../../lib/navigation/mergePageMaps'
import { scopePageMap } from '../../lib/navigation/scopePageMap'
import { inlineMetas, isFolder, isMeta, isMetaData, pageRoutes, shapePageMap, type RawItem } from '../../lib/navigation/shapePageMap'
import { sectionLinks } from '../../lib/navigation/siteNavigation'
import { scanContent } from '../../pipeline/content/contentSource'
import { navigationOrder } from '../../pipeline/navigationOrder'
import { audiencePageMap, pageMapFragments, pageMapInputs, type PageMapInputs } from '../../pipeline/pageMaps'
import { planFor } from '../../pipeline/steps/contentSteps'

// Today's chain, as pipeline/pageMaps.ts ran it before the builder.
function chainAudiencePageMap(raw: RawItem[], scope: string | null, inputs: PageMapInputs, plan: AggregatePlan): RawItem[] {
  const audience = scope === null ? null : plan.audiences.find((candidate) => candidate.id === scope)!
  return scopePageMap(shapePageMap(inlineMetas(raw, inputs.loadMeta)), audience, inputs)
}
function chainMetaOrder(items: readonly RawItem[], whole: PageMapFragment['order'], folderRoute = '/', order: PageMapFragment['order'] = {}): PageMapFragment['order'] {
  for (const item of items) {
    if (isMetaData(item)) order[folderRoute] = Object.fromEntries(Object.keys(item.data).map((key) => [key, whole[folderRoute]?.[key] ?? Number.MAX_SAFE_INTEGER]))
    else if (isFolder(item)) chainMetaOrder(item.children, whole, item.route, order)
  }
  return order
}
function chainFragments(raw: RawItem[], plan: AggregatePlan, inputs: PageMapInputs): Map<string, PageMapFragment> {
  const shaped = shapePageMap(inlineMetas(raw, inputs.loadMeta))
  const tabs = Object.fromEntries(inputs.sections.map((section) => [section.id, null]))
  const whole = navigationOrder(shaped.map((item) => (isMeta(item) ? { data: { ...tabs, ...inputs.topMeta } } : item)), plan, inputs.access)
  const fragments = new Map<string, PageMapFragment>()
  for (const audience of plan.audiences) {
    const scoped = scopePageMap(shaped, audience, inputs)
    const own = filterPageMap(scoped as unknown as PageMapItem[], (p) => {
      const route = normalisePath(p)
      return route !== null && audienceIdOf(inputs.access, route) === audience.id
    }) as unknown as RawItem[]
    fragments.set(audience.rule, { items: own, order: chainMetaOrder(own, whole) })
  }
  return fragments
}

function expectSame(raw: RawItem[], plan: AggregatePlan, inputs: PageMapInputs): number {
  let compared = 0
  for (const scope of [null, ...plan.audiences.map((audience) => audience.id)]) {
    // Serialised, so that a key's order within a `_meta` counts as the sidebar's order does.
    expect(JSON.stringify(audiencePageMap(raw, scope, inputs, plan))).toBe(JSON.stringify(chainAudiencePageMap(raw, scope, inputs, plan)))
    compared++
  }
  expect(JSON.stringify([...pageMapFragments(raw, plan, inputs)])).toBe(JSON.stringify([...chainFragments(raw, plan, inputs)]))
  return compared
}

test("the real site: every audience's page map and fragment is the chain's, byte for byte", () => {
  const source = scanContent(path.resolve(__dirname, '../..'))
  const plan = planFor(source.pages)
  expect(plan.audiences.length).toBeGreaterThan(2)
  expect(expectSame(source.pageMap(), plan, pageMapInputs(source, shippedAccess))).toBe(plan.audiences.length + 1)
})

/** A small seeded generator, so a failing site can be made again from its number. */
function random(seed: number) {
  let state = seed >>> 0
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0
    let t = state
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
  const below = (n: number) => Math.floor(next() * n)
  return { chance: (p: number) => next() < p, below, pick: <T>(items: readonly T[]): T => items[below(items.length)], shuffle: <T>(items: T[]): T[] => items.map((item) => [next(), item] as const).sort((a, b) => a[0] - b[0]).map(([, item]) => item) }
}

const NAMES = ['intro', 'alpha', 'beta', 'b-two', 'b_three', 'zeta', 'guide', 'api-keys', 'faq', 'setup', 'secrets']
const EXTERNAL = { title: 'Status', href: 'https://status.example.com' }

interface Generated {
  raw: RawItem[]
  metas: Record<string, Record<string, unknown>>
  routes: string[]
}

function generateSite(seed: number): Generated {
  const r = random(seed)
  const metas: Record<string, Record<string, unknown>> = {}
  const routes: string[] = []
  const page = (route: string, name: string): RawItem => {
    routes.push(route)
    return { name, route, frontMatter: r.chance(0.8) ? { title: `Title of ${route}` } : { sidebarTitle: name } }
  }
  const folder = (route: string, depth: number): RawItem[] => {
    const items: RawItem[] = []
    if (r.chance(0.8)) items.push(page(route, 'index'))
    const names = r.shuffle([...NAMES]).slice(0, 1 + r.below(4))
    for (const name of names) {
      const child = `${route}/${name}`
      const asFolder = depth < 3 && r.chance(0.35)
      if (asFolder) {
        const children = folder(child, depth + 1)
        if (children.length > 0) items.push({ name, route: child, children })
      }
      // A page beside a folder of the same name, now and then.
      if (!asFolder || r.chance(0.2)) items.push(page(child, name))
    }
    if (r.chance(0.85)) {
      const keys = r.shuffle(names.filter(() => r.chance(0.85)))
      const meta: Record<string, unknown> = {}
      for (const key of keys) {
        meta[key] = r.pick([`${key} title`, { title: `${key} title` }, { title: `${key} hidden`, display: 'hidden' }, { display: 'children' }])
        if (r.chance(0.15)) meta[`--- ${key}`] = { type: 'separator', title: `Before ${key}` }
      }
      if (r.chance(0.3)) meta.status = EXTERNAL
      if (r.chance(0.3)) meta.elsewhere = { title: 'Elsewhere', href: r.pick(routes.length > 0 ? routes : ['/docs']) }
      if (r.chance(0.2)) meta.ghost = 'Names no page'
      metas[route] = r.shuffle(Object.entries(meta)).reduce<Record<string, unknown>>((data, [key, value]) => ({ ...data, [key]: value }), {})
      items.unshift({ data: `meta${route}` })
    }
    return r.shuffle(items)
  }
  const sections = shipped.sections.map((section) => ({ name: section.id, route: `/docs/${section.id}`, children: folder(`/docs/${section.id}`, 1) }))
  const docs: RawItem = { name: 'docs', route: '/docs', children: [page('/docs', 'index'), ...sections.filter((section) => section.children.length > 0), ...(r.chance(0.5) ? [{ name: 'misc', route: '/docs/misc', children: folder('/docs/misc', 2) }] : [])] }
  metas['/'] = { index: { title: 'Home', type: 'page', display: 'hidden' }, docs: { title: 'Docs', type: 'page', display: 'hidden' } }
  return { raw: [{ data: 'meta/' }, page('/', 'index'), docs], metas, routes }
}

function generateAccess(seed: number, routes: readonly string[]): CompiledAccess {
  const r = random(seed * 7919)
  const requirements = ['financeUsers', 'fullAccessUsers', 'signedIn', 'leadsUsers', 'internalUsers']
  const under = routes.filter((route) => route.split('/').length > 3)
  const rules = Array.from({ length: r.below(4) }, () => ({ path: r.pick(under.length > 0 ? under : ['/docs/leads']), match: r.pick(['exact', 'prefix'] as const), require: r.pick(requirements) }))
  const config: AccessConfig = { ...shipped, lists: { ...shipped.lists, financeUsers: r.pick(['support1', 'leads1, internal1', 'group:finance']) }, rules: [...rules, ...shipped.rules] }
  return compileAccess(config, {})
}

test.each(Array.from({ length: 60 }, (_, seed) => seed + 1))('generated site and rules %i: the builder gives the chain’s page maps and fragments', (seed) => {
  const site = generateSite(seed)
  const access = generateAccess(seed, site.routes)
  const plan = planAggregates({ access, routes: pageRoutes(site.raw) })
  const inputs: PageMapInputs = { access, sections: sectionLinks(access.sections), topMeta: site.metas['/'], loadMeta: (route) => site.metas[route] ?? {} }
  expect(expectSame(site.raw, plan, inputs)).toBeGreaterThan(1)
})
