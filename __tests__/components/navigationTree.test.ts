/** @jest-environment node */
import { access } from '../../lib/access'
import { withSectionTabs } from '../../lib/navigation/scopePageMap'
import TOP_META from '../../content/_meta'
import { audienceTree, navigationTree } from '../../lib/navigation/navigationTree'
import type { RawItem } from '../../lib/navigation/shapePageMap'
import { SECTIONS } from '../../lib/navigation/siteNavigation'
import { ALL_PAGE_ROUTES, normalizeWithNextra, pageRoutes, rawPageMap, sectionScope, shapedPageMap } from './helpers/pageMaps'

const folder = (items: RawItem[], name: string) => items.find((item) => 'children' in item && item.name === name) as Extract<RawItem, { children: RawItem[] }>
/** The whole tree, every page open, with the top `_meta` as written: what the chain's shapePageMap made. */
function wholeTree(raw: RawItem[]): RawItem[] {
  const top = raw.find((item) => 'data' in item) as { data: unknown } | undefined
  return navigationTree(raw, { loadMeta: () => ({}), mayOpen: () => true, top: { meta: (top?.data ?? {}) as Record<string, unknown> } })
}
const topNames = (items: RawItem[]) => items.map((item) => ('data' in item ? '(meta)' : `${item.name}${'children' in item ? '/' : ''}`))

describe('navigationTree: the whole site, as the theme reads it', () => {
  test('turns the raw site map into the shaped one', () => {
    expect(wholeTree(rawPageMap())).toEqual(shapedPageMap())
  })

  test('lifts each section folder to the top level with its route unchanged', () => {
    const shaped = wholeTree(rawPageMap())
    // In Nextra's own order (meta first, then by name), which the theme would otherwise sort into on every render.
    expect(topNames(shaped)).toEqual(['(meta)', 'docs', 'index', 'internal/', 'leads/', 'support-twilio/'])
    expect(folder(shaped, 'leads').route).toBe('/docs/leads')
    expect(folder(shaped, 'internal').route).toBe('/docs/internal')
    expect(folder(shaped, 'support-twilio').route).toBe('/docs/support-twilio')
  })

  test('keeps every page, at the same route', () => {
    const raw = rawPageMap()
    const shaped = wholeTree(raw)
    expect([...pageRoutes(shaped)].sort()).toEqual([...pageRoutes(raw)].sort())
    expect([...pageRoutes(shaped)].sort()).toEqual(Object.values(ALL_PAGE_ROUTES).flat().sort())
  })

  test("a folder's index page becomes a page just after the folder, named like it, and leaves the folder", () => {
    const leads = folder(wholeTree(rawPageMap()), 'leads')
    const endpoints = leads.children.filter((item) => 'name' in item && item.name === 'endpoints')
    expect(endpoints).toEqual([
      expect.objectContaining({ name: 'endpoints', route: '/docs/leads/endpoints', children: expect.any(Array) }),
      { name: 'endpoints', route: '/docs/leads/endpoints', frontMatter: { title: 'Endpoints overview' } },
    ])
    const endpointsFolder = endpoints[0] as Extract<RawItem, { children: RawItem[] }>
    expect(endpointsFolder.children.some((child) => 'name' in child && child.name === 'index')).toBe(false)
  })

  test('a folder that held only its index page (and meta) is just that page', () => {
    const shaped = wholeTree([
      {
        name: 'product-support',
        route: '/docs/internal/product-support',
        children: [{ data: { index: 'Product support' } }, { name: 'index', route: '/docs/internal/product-support', frontMatter: { title: 'PS' } }],
      },
    ])
    expect(shaped).toEqual([{ name: 'product-support', route: '/docs/internal/product-support', frontMatter: { title: 'PS' } }])
  })

  test('the docs folder itself becomes the /docs page (it has no other pages left)', () => {
    const shaped = wholeTree(rawPageMap())
    expect(shaped.filter((item) => 'name' in item && item.name === 'docs')).toEqual([{ name: 'docs', route: '/docs', frontMatter: { title: 'Documentation' } }])
  })

  test('without a docs folder it only lifts index pages', () => {
    const shaped = wholeTree([
      { data: {} },
      { name: 'guides', route: '/guides', children: [{ name: 'index', route: '/guides' }, { name: 'one', route: '/guides/one' }] },
    ])
    expect(shaped).toEqual([
      { data: {} },
      { name: 'guides', route: '/guides', children: [{ name: 'one', route: '/guides/one' }] },
      { name: 'guides', route: '/guides', frontMatter: undefined },
    ])
  })

  test('does not change the map it is given', () => {
    const raw = rawPageMap()
    wholeTree(raw)
    expect(raw).toEqual(rawPageMap())
  })
})

describe('navigationTree of an audience: a section page carries no other section’s titles', () => {
  const shaped = () => wholeTree(rawPageMap())
  const INTERNAL_TITLES = ['Internal introduction', 'Architecture overview', 'Design and architecture', 'Secrets management', 'Guidelines', 'Architecture']
  const SUPPORT_TITLES = ['Twilio support introduction', 'Call flow diagram', 'SQL queries overview', 'SQL queries', 'Search by phone', 'Overall']
  const LEADS_TITLES = ['Leads introduction', 'Endpoints overview', 'Create a quote', 'Get quote fees', 'Introduction', 'Endpoints', 'Environments']

  const scopeTo = (scope: string | null) => audienceTree(rawPageMap(), sectionScope(scope), { sections: SECTIONS, topMeta: TOP_META, access })
  const topMetaOf = (items: RawItem[]) => (items.find((item) => 'data' in item) as { data: Record<string, unknown> }).data
  const foreignRoutes = (own: keyof typeof ALL_PAGE_ROUTES | null) =>
    (['leads', 'internal', 'supportTwilio'] as const).filter((key) => key !== own).flatMap((key) => ALL_PAGE_ROUTES[key])

  test('keeps the scoped section intact and leaves every other section out, tab and all', () => {
    const scoped = scopeTo('leads')
    expect(pageRoutes(folder(scoped, 'leads').children)).toEqual(pageRoutes(folder(shaped(), 'leads').children))
    expect(folder(scoped, 'internal')).toBeUndefined()
    expect(folder(scoped, 'support-twilio')).toBeUndefined()
    // The hidden /docs root needs full access, which not every leads reader has.
    expect(topMetaOf(scoped)).toEqual({ leads: { title: 'Leads API', type: 'page' }, index: TOP_META.index })
  })

  test('a leads page map names no route, title or tab of another section', () => {
    const whole = JSON.stringify(scopeTo('leads'))
    for (const title of [...INTERNAL_TITLES, ...SUPPORT_TITLES, 'Internal', 'Twilio support']) expect(whole).not.toContain(`"${title}"`)
    for (const route of [...foreignRoutes('leads'), '/docs/internal', '/docs/support-twilio']) expect(whole).not.toContain(`"${route}`)
    expect(pageRoutes(scopeTo('leads'))).toEqual(expect.arrayContaining(ALL_PAGE_ROUTES.leads))
  })

  test('an internal page map contains no title of the leads and support sections', () => {
    const whole = JSON.stringify(scopeTo('internal'))
    for (const title of [...LEADS_TITLES, ...SUPPORT_TITLES]) expect(whole).not.toContain(`"title":"${title}"`)
    expect(folder(scopeTo('internal'), 'internal')).toEqual(folder(shaped(), 'internal'))
  })

  test('a page with no audience keeps only the public pages: none here', () => {
    expect(pageRoutes(scopeTo(null))).toEqual([])
  })

  test('the home page (every signed-in reader) keeps only what every signed-in reader may open: the home page', () => {
    const scoped = audienceTree(rawPageMap(), { governedBy: '/', sections: [] }, { sections: SECTIONS, topMeta: TOP_META, access })
    expect(pageRoutes(scoped)).toEqual(['/'])
    const whole = JSON.stringify(scoped)
    for (const title of [...LEADS_TITLES, ...INTERNAL_TITLES, ...SUPPORT_TITLES]) expect(whole).not.toContain(`"title":"${title}"`)
    for (const section of SECTIONS) expect(whole).not.toContain(`/docs/${section.id}`)
  })

  test('withSectionTabs adds a tab for each section of the reader\'s view, in the view\'s order, keeping the own section whole', () => {
    const withTabs = withSectionTabs(scopeTo('internal'), SECTIONS.map(({ id, title, href }) => ({ id, title, href })))
    expect(folder(withTabs, 'internal')).toEqual(folder(shaped(), 'internal'))
    expect(folder(withTabs, 'leads')).toEqual({ name: 'leads', route: '/docs/leads', children: [{ name: 'intro', route: '/docs/leads/intro', frontMatter: { title: 'Leads API' } }] })
    const sectionKeys = Object.keys(topMetaOf(withTabs)).filter((key) => SECTIONS.some((section) => section.id === key))
    expect(sectionKeys).toEqual(['leads', 'internal', 'support-twilio'])
    expect(topMetaOf(withTabs)['support-twilio']).toEqual({ title: 'Twilio support', type: 'page' })
  })

  test('withSectionTabs changes nothing when the view adds no section', () => {
    const scoped = scopeTo('leads')
    expect(withSectionTabs(scoped, [])).toBe(scoped)
    expect(withSectionTabs(scoped, [{ id: 'leads', title: 'Leads API', href: '/docs/leads/intro' }])).toBe(scoped)
  })
})

describe("the shaped page map as Nextra's theme reads it", () => {
  test('a folder with an index page keeps its pages: the sidebar lists them, and a page inside has its breadcrumb and place in prev/next', () => {
    const leads = audienceTree(rawPageMap(), sectionScope('leads'), { sections: SECTIONS, topMeta: TOP_META, access }) as RawItem[]
    const route = '/docs/leads/endpoints/create-quote'
    const normalized = normalizeWithNextra(leads, route)
    const endpoints = normalized.docsDirectories.find((item) => item.route === '/docs/leads/endpoints')
    expect(endpoints).toMatchObject({ withIndexPage: true, title: 'Endpoints' })
    expect(endpoints?.children?.map((item) => item.route)).toEqual([route, '/docs/leads/endpoints/get-quote-fees'])
    expect(normalized.activePath).toEqual(['/docs/leads', '/docs/leads/endpoints', route])
    const at = normalized.flat.indexOf('/docs/leads/endpoints')
    expect(normalized.flat.slice(at, at + 3)).toEqual(['/docs/leads/endpoints', route, '/docs/leads/endpoints/get-quote-fees'])
  })
})
