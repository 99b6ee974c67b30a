/** @jest-environment node */
/**
 * What each audience's navigation tree (lib/navigation/navigationTree.ts, as pipeline/pageMaps.ts
 * builds it) shows and leaves out, on the real site and on generated sites and rules (folders with
 * and without `_meta` and index pages, `_meta` orders, hidden entries, separators, external and
 * internal links, keys that name nothing, a folder and a page of one name, rules finer than a
 * section). The builder replaced a chain of passes (shapePageMap, inlineMetas, scopePageMap,
 * filterPageMap) and was checked byte for byte against it on these same sites before the chain was
 * removed; these are the chain's promises, stated as what a reader's browser receives:
 * - no page, and no link to a page, that a reader of the audience may not open;
 * - every page they may open, except inside the sections the audience holds no page of;
 * - no folder without a page, no section folder the audience holds no page of;
 * - no `_meta` key naming what was left out (Nextra rejects one, and it names a hidden page);
 * - a folder kept for a page inside it whose own route they may not open titled from its slug;
 * - each level in Nextra's order, so the theme need not sort;
 * - in each audience's fragment, the audience's own pages only.
 */
import path from 'node:path'
import shipped from '../../access.config'
import { access as shippedAccess, compileAccess } from '../../lib/access'
import type { CompiledAccess } from '../../lib/access/compileAccess'
import { decideAccess, readersOfMayOpen } from '../../lib/access/decideAccess'
import { audienceIdOf, planAggregates, type AggregatePlan } from '../../lib/access/planAggregates'
import type { AccessConfig } from '../../lib/access/types'
import { folderWordsPath } from '../../lib/access/sectionPaths'
import { isFolder, isMeta, isMetaData, isPage, pageRoutes, type RawItem } from '../../lib/navigation/shapePageMap'
import { navigationTree } from '../../lib/navigation/navigationTree'
import { sectionLinks } from '../../lib/navigation/siteNavigation'
import { slugTitle } from '../../lib/navigation/slugTitle'
import { scanContent } from '../../pipeline/content/contentSource'
import { audiencePageMap, pageMapFragments, pageMapInputs, type PageMapInputs } from '../../pipeline/pageMaps'
import { planFor } from '../../pipeline/steps/contentSteps'
import { withSiteHrefs } from '../../pipeline/compile/sitePaths.mjs'

/** Every folder route and page route of the source's page map. */
function sourceRoutes(raw: readonly RawItem[]): { folders: Set<string>; pages: Set<string> } {
  const folders = new Set<string>()
  const walk = (items: readonly RawItem[]) => items.forEach((item) => (isFolder(item) ? (folders.add(item.route), walk(item.children)) : undefined))
  walk(raw)
  return { folders, pages: new Set(pageRoutes(raw)) }
}

/** A page's digest, as the content source gives it. */
const textOf = (route: string) => `the digest of ${route}`
const titleOf = (value: unknown) => (typeof value === 'object' && value !== null ? (value as { title?: unknown }).title : value)
const isLink = (value: unknown) => typeof value === 'object' && value !== null && ('href' in value || ['separator', 'menu'].includes((value as { type?: unknown }).type as string))

/** Checks one level of a tree and those below it; returns the page routes it holds. */
function checkLevel(items: readonly RawItem[], folderRoute: string, mayOpen: (path: string) => boolean, source: ReturnType<typeof sourceRoutes>): string[] {
  const metaAt = items.findIndex(isMeta)
  expect(metaAt).toBeLessThanOrEqual(0)
  const named = items.filter((item): item is Exclude<RawItem, { data: unknown }> => !isMeta(item))
  // Nextra's order: by name (a folder before the page of its name: __tests__/components/navigationTree.test.ts).
  named.forEach((item, at) => {
    if (at > 0) expect(named[at - 1].name.localeCompare(item.name)).toBeLessThanOrEqual(0)
  })
  const names = new Set(named.map((item) => item.name))
  const routes: string[] = []
  for (const item of named) {
    if (isPage(item)) {
      expect(mayOpen(item.route)).toBe(true)
      routes.push(item.route)
    } else if (isFolder(item)) {
      const inside = checkLevel(item.children, item.route, mayOpen, source)
      expect(inside.length).toBeGreaterThan(0)
      routes.push(...inside)
    }
  }
  if (metaAt === 0 && isMetaData(items[0])) {
    // Decided inside the folder, not at its route, which is its index page's (a finer rule may open that page alone).
    const ownWords = mayOpen(folderWordsPath(folderRoute))
    const linkShown = (href: unknown) => {
      if (typeof href !== 'string' || /^(https?:|\/\/)/.test(href)) return
      // A path on the site every reader may open; a relative one only to readers of the folder.
      expect(href.startsWith('/') ? mayOpen(href) : ownWords).toBe(true)
    }
    for (const [key, value] of Object.entries(items[0].data)) {
      linkShown(typeof value === 'object' && value !== null ? (value as { href?: unknown }).href : undefined)
      // The folder's own words (separators, menus, links) only to readers who may open what it holds.
      if (!names.has(key) && key !== '*') expect(ownWords).toBe(true)
      const menuItems = typeof value === 'object' && value !== null && (value as { type?: unknown }).type === 'menu' ? (value as { items: Record<string, { href?: unknown }> }).items : {}
      for (const [name, item] of Object.entries(menuItems)) {
        if (item.href === undefined) expect(mayOpen(`${folderRoute === '/' ? '' : folderRoute}/${key}/${name}`)).toBe(true)
        else linkShown(item.href)
      }
      if (!names.has(key) && !isLink(value)) {
        // A key for nothing kept must name nothing of the source either (at the top, sections live under /docs).
        const candidates = folderRoute === '/' ? [`/${key}`, `/docs/${key}`] : [`${folderRoute}/${key}`]
        for (const route of candidates) expect(source.pages.has(route) || source.folders.has(route)).toBe(false)
      }
      const folder = named.find((item) => isFolder(item) && item.name === key)
      if (folder && folderRoute !== '/' && !mayOpen(folder.route)) expect(titleOf(value)).toBe(slugTitle(key))
    }
  }
  return routes
}

function expectPromises(raw: RawItem[], plan: AggregatePlan, inputs: PageMapInputs): number {
  const source = sourceRoutes(raw)
  let checked = 0
  for (const audience of [null, ...plan.audiences]) {
    const mayOpen = audience ? (p: string) => readersOfMayOpen(inputs.access, audience.governedBy, p) : (p: string) => decideAccess(inputs.access, p, null) === 'allow'
    const tree = audiencePageMap(raw, audience?.id ?? null, inputs, plan)
    const held = new Set(audience?.sections.map((section) => section.id) ?? [])
    const dropped = inputs.sections.filter((section) => !held.has(section.id)).map((section) => section.id)
    for (const id of dropped) expect(tree.some((item) => isFolder(item) && item.name === id)).toBe(false)
    const shown = new Set(checkLevel(tree, '/', mayOpen, source))
    const expected = [...source.pages].filter((route) => mayOpen(route) && !dropped.some((id) => route.startsWith(`/docs/${id}/`)))
    expect([...shown].sort()).toEqual(expected.sort())
    checked++
  }
  for (const audience of plan.audiences) {
    const fragment = pageMapFragments(raw, plan, inputs, textOf).get(audience.rule)!
    for (const route of pageRoutes(fragment.items)) expect(audienceIdOf(inputs.access, route)).toBe(audience.id)
  }
  return checked
}

test("the real site: each audience's tree shows what its readers may open, and nothing else", () => {
  const source = scanContent(path.resolve(__dirname, '../..'))
  const plan = planFor(source.pages)
  expect(plan.audiences.length).toBeGreaterThan(2)
  expect(expectPromises(source.pageMap(), plan, pageMapInputs(source, shippedAccess))).toBe(plan.audiences.length + 1)
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
      if (r.chance(0.25)) meta.nearby = { title: 'Nearby', href: r.pick(['intro', '../intro', './alpha']) }
      if (r.chance(0.3) && routes.length > 0) {
        // A menu of pages in the folder it is named after, and of links.
        const menuFolder = r.pick(names)
        meta[`menu-${menuFolder}`] = { type: 'menu', title: 'Menu', items: { ...Object.fromEntries(NAMES.filter(() => r.chance(0.4)).map((name) => [name, { title: `Item ${name}` }])), away: { title: 'Away', href: r.pick(routes) }, status: EXTERNAL } }
        if (r.chance(0.5)) meta[menuFolder] = { type: 'menu', title: 'Folder menu', items: Object.fromEntries(NAMES.filter(() => r.chance(0.5)).map((name) => [name, { title: `Item ${name}` }])) }
      }
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

test.each(Array.from({ length: 60 }, (_, seed) => seed + 1))('generated site and rules %i: each audience’s tree shows what its readers may open, and nothing else', (seed) => {
  const site = generateSite(seed)
  const access = generateAccess(seed, site.routes)
  const plan = planAggregates({ access, routes: pageRoutes(site.raw) })
  const inputs: PageMapInputs = { access, sections: sectionLinks(access.sections), topMeta: site.metas['/'], loadMeta: (route) => site.metas[route] ?? {} }
  expect(expectPromises(site.raw, plan, inputs)).toBeGreaterThan(1)
  // As the content source gives them (metaOf): each relative href as the site path it names, which the tree shows only to readers who may open it.
  const shipped: PageMapInputs = { ...inputs, loadMeta: (route) => withSiteHrefs(site.metas[route] ?? {}, route) }
  expect(expectPromises(site.raw, plan, shipped)).toBeGreaterThan(1)
})

/** A page of a page map as Nextra's collector makes it, titled by its route. */
const page = (route: string): RawItem => ({ name: route.split('/').pop()!, route, frontMatter: { title: route } })

describe("a folder's menu, as its readers see it", () => {
  const raw: RawItem[] = [
    { data: 'meta/' },
    page('/'),
    { name: 'docs', route: '/docs', children: [{ name: 'leads', route: '/docs/leads', children: [{ data: 'meta/docs/leads' }, page('/docs/leads/intro'), { name: 'api', route: '/docs/leads/api', children: [page('/docs/leads/api/quotes'), page('/docs/leads/api/fees')] }] }] },
  ]
  const metas: Record<string, Record<string, unknown>> = {
    '/docs/leads': { api: { title: 'API', type: 'menu', items: { fees: { title: 'Fees' } } } },
  }
  const treeFor = (mayOpen: (path: string) => boolean, topMeta: Record<string, unknown> = {}) => navigationTree(raw, { loadMeta: (route) => metas[route] ?? {}, mayOpen, top: { meta: topMeta } })
  const metaOf = (items: readonly RawItem[]) => (items.find(isMeta) as { data: Record<string, unknown> }).data

  test('a menu keyed by a section at the top names pages of the section, under docs/', () => {
    const top = treeFor((route) => route === '/' || route.startsWith('/docs'), { leads: { title: 'Leads', type: 'menu', items: { intro: { title: 'Start' } } } })
    expect(metaOf(top).leads).toEqual({ title: 'Leads', type: 'menu', items: { intro: { title: 'Start' } } })
  })

  test('a menu of a kept folder that keeps none of its items keeps its title, as a plain entry', () => {
    const leads = (treeFor((route) => route !== '/docs/leads/api/fees').find((item) => isFolder(item) && item.name === 'leads') as { children: RawItem[] }).children
    expect(metaOf(leads).api).toEqual({ title: 'API' })
    const all = (treeFor(() => true).find((item) => isFolder(item) && item.name === 'leads') as { children: RawItem[] }).children
    expect(metaOf(all).api).toEqual({ title: 'API', type: 'menu', items: { fees: { title: 'Fees' } } })
  })

  test("a link that is not text (which the content check refuses) reaches no reader's sidebar, as an entry or a menu's item", () => {
    const listed = { ...metas['/docs/leads'], support: { title: 'Support', href: ['javascript:alert(1)'], newWindow: true }, more: { title: 'More', type: 'menu', items: { x: { title: 'X', href: { url: '/' } } } } }
    const tree = navigationTree(raw, { loadMeta: (route) => (route === '/docs/leads' ? listed : {}), mayOpen: () => true, top: { meta: {} } })
    const leads = metaOf((tree.find((item) => isFolder(item) && item.name === 'leads') as { children: RawItem[] }).children)
    expect(Object.keys(leads).sort()).toEqual(['api'])
  })
})

test("a folder's own words follow the rule over what it holds, not an exact rule on its index page", () => {
  const alpha = '/docs/internal/alpha'
  const raw: RawItem[] = [
    { data: 'meta/' },
    page('/'),
    {
      name: 'docs',
      route: '/docs',
      children: [{ name: 'internal', route: '/docs/internal', children: [page('/docs/internal/intro'), { name: 'alpha', route: alpha, children: [{ data: `meta${alpha}` }, { name: 'index', route: alpha, frontMatter: { title: 'Alpha' } }, page(`${alpha}/a1`), page(`${alpha}/twin`)] }] }],
    },
  ]
  const metas: Record<string, Record<string, unknown>> = {
    [alpha]: { a1: 'A1', twin: 'Twin', '--payroll': { type: 'separator', title: 'Payroll reorg' }, tracker: { title: 'Tracker', href: 'https://jira.example.com/ALPHA' } },
  }
  // The folder's index page opened to every signed-in reader (a public path on it is refused: compileAccess).
  const access = compileAccess(
    {
      ...shipped,
      lists: { ...shipped.lists, alphaUsers: 'leads1' },
      rules: [{ path: alpha, match: 'exact', require: 'signedIn' }, { path: `${alpha}/a1`, match: 'exact', require: 'signedIn' }, { path: alpha, match: 'prefix', require: 'alphaUsers' }, ...shipped.rules],
    },
    {}
  )
  const plan = planAggregates({ access, routes: pageRoutes(raw) })
  const inputs: PageMapInputs = { access, sections: sectionLinks(access.sections), topMeta: {}, loadMeta: (route) => metas[route] ?? {} }
  expectPromises(raw, plan, inputs)
  const words = (audience: string | null) => JSON.stringify(audiencePageMap(raw, audience, inputs, plan))
  const ofAlpha = plan.audiences.find((audience) => audience.id === audienceIdOf(access, `${alpha}/twin`))!
  const ofA1 = plan.audiences.find((audience) => audience.id === audienceIdOf(access, `${alpha}/a1`))!
  expect(words(ofA1.id)).toContain(`${alpha}/a1`)
  expect(words(ofA1.id)).not.toContain('Payroll reorg')
  expect(words(ofA1.id)).not.toContain('jira.example.com')
  expect(words(null)).not.toContain('Payroll reorg')
  expect(words(ofAlpha.id)).toContain('Payroll reorg')
})

