/** @jest-environment node */
import { scopePageMap, sectionOfRoute } from '../../lib/navigation/scopePageMap'
import { shapePageMap, type RawItem } from '../../lib/navigation/shapePageMap'
import { SECTIONS } from '../../lib/navigation/siteNavigation'
import { ALL_PAGE_ROUTES, pageRoutes, rawPageMap, shapedPageMap } from './helpers/pageMaps'

const folder = (items: RawItem[], name: string) => items.find((item) => 'children' in item && item.name === name) as Extract<RawItem, { children: RawItem[] }>
const topNames = (items: RawItem[]) => items.map((item) => ('data' in item ? '(meta)' : `${item.name}${'children' in item ? '/' : ''}`))

describe('shapePageMap', () => {
  test('turns the raw site map into the shaped one', () => {
    expect(shapePageMap(rawPageMap())).toEqual(shapedPageMap())
  })

  test('lifts each section folder to the top level with its route unchanged', () => {
    const shaped = shapePageMap(rawPageMap())
    // In Nextra's own order (meta first, then by name), which the theme would otherwise sort into on every render.
    expect(topNames(shaped)).toEqual(['(meta)', 'docs', 'index', 'internal/', 'leads/', 'support-twilio/'])
    expect(folder(shaped, 'leads').route).toBe('/docs/leads')
    expect(folder(shaped, 'internal').route).toBe('/docs/internal')
    expect(folder(shaped, 'support-twilio').route).toBe('/docs/support-twilio')
  })

  test('keeps every page, at the same route', () => {
    const raw = rawPageMap()
    const shaped = shapePageMap(raw)
    expect([...pageRoutes(shaped)].sort()).toEqual([...pageRoutes(raw)].sort())
    expect([...pageRoutes(shaped)].sort()).toEqual(Object.values(ALL_PAGE_ROUTES).flat().sort())
  })

  test("a folder's index page becomes a page beside the folder, named like it, and leaves the folder", () => {
    const leads = folder(shapePageMap(rawPageMap()), 'leads')
    const endpoints = leads.children.filter((item) => 'name' in item && item.name === 'endpoints')
    expect(endpoints).toEqual([
      { name: 'endpoints', route: '/docs/leads/endpoints', frontMatter: { title: 'Endpoints overview' } },
      expect.objectContaining({ name: 'endpoints', route: '/docs/leads/endpoints', children: expect.any(Array) }),
    ])
    const endpointsFolder = endpoints[1] as Extract<RawItem, { children: RawItem[] }>
    expect(endpointsFolder.children.some((child) => 'name' in child && child.name === 'index')).toBe(false)
  })

  test('a folder that held only its index page (and meta) is just that page', () => {
    const shaped = shapePageMap([
      {
        name: 'product-support',
        route: '/docs/internal/product-support',
        children: [{ data: { index: 'Product support' } }, { name: 'index', route: '/docs/internal/product-support', frontMatter: { title: 'PS' } }],
      },
    ])
    expect(shaped).toEqual([{ name: 'product-support', route: '/docs/internal/product-support', frontMatter: { title: 'PS' } }])
  })

  test('the docs folder itself becomes the /docs page (it has no other pages left)', () => {
    const shaped = shapePageMap(rawPageMap())
    expect(shaped.filter((item) => 'name' in item && item.name === 'docs')).toEqual([{ name: 'docs', route: '/docs', frontMatter: { title: 'Documentation' } }])
  })

  test('without a docs folder it only lifts index pages', () => {
    const shaped = shapePageMap([
      { data: {} },
      { name: 'guides', route: '/guides', children: [{ name: 'index', route: '/guides' }, { name: 'one', route: '/guides/one' }] },
    ])
    expect(shaped).toEqual([
      { data: {} },
      { name: 'guides', route: '/guides', frontMatter: undefined },
      { name: 'guides', route: '/guides', children: [{ name: 'one', route: '/guides/one' }] },
    ])
  })

  test('does not change the map it is given', () => {
    const raw = rawPageMap()
    shapePageMap(raw)
    expect(raw).toEqual(rawPageMap())
  })
})

describe('scopePageMap: a section page carries no other section’s titles', () => {
  const shaped = () => shapePageMap(rawPageMap())
  const INTERNAL_TITLES = ['Internal introduction', 'Architecture overview', 'Design and architecture', 'Secrets management', 'Guidelines', 'Architecture']
  const SUPPORT_TITLES = ['Twilio support introduction', 'Call flow diagram', 'SQL queries overview', 'SQL queries', 'Search by phone', 'Overall']
  const LEADS_TITLES = ['Leads introduction', 'Endpoints overview', 'Create a quote', 'Get quote fees', 'Introduction', 'Endpoints', 'Environments']

  test('keeps the scoped section intact and reduces the others to a stub pointing at their entry page', () => {
    const scoped = scopePageMap(shaped(), SECTIONS, 'leads')
    expect(folder(scoped, 'leads')).toEqual(folder(shaped(), 'leads'))
    expect(folder(scoped, 'internal')).toEqual({
      name: 'internal',
      route: '/docs/internal',
      children: [{ name: 'intro', route: '/docs/internal/intro', frontMatter: { title: 'Internal' } }],
    })
    expect(folder(scoped, 'support-twilio')).toEqual({
      name: 'support-twilio',
      route: '/docs/support-twilio',
      children: [{ name: 'intro', route: '/docs/support-twilio/intro', frontMatter: { title: 'Twilio support' } }],
    })
  })

  test('the stub holds the section title and entry page from SECTIONS', () => {
    const scoped = scopePageMap(shaped(), SECTIONS, 'leads')
    for (const section of SECTIONS.filter((s) => s.id !== 'leads')) {
      const stub = folder(scoped, section.id)
      expect(stub.children).toHaveLength(1)
      expect(stub.children[0]).toEqual(expect.objectContaining({ route: section.href, frontMatter: { title: section.title } }))
    }
  })

  test('a leads page map contains no title or page of the internal and support sections', () => {
    const text = JSON.stringify(folder(scopePageMap(shaped(), SECTIONS, 'leads'), 'internal')) + JSON.stringify(folder(scopePageMap(shaped(), SECTIONS, 'leads'), 'support-twilio'))
    for (const title of [...INTERNAL_TITLES, ...SUPPORT_TITLES]) expect(text).not.toContain(`"${title}"`)
    const whole = JSON.stringify(scopePageMap(shaped(), SECTIONS, 'leads'))
    for (const title of [...INTERNAL_TITLES, ...SUPPORT_TITLES]) expect(whole).not.toContain(`"title":"${title}"`)
    for (const route of [...ALL_PAGE_ROUTES.internal, ...ALL_PAGE_ROUTES.supportTwilio].filter((r) => !r.endsWith('/intro'))) {
      expect(whole).not.toContain(`"${route}"`)
    }
    // Its own pages are all there.
    expect(pageRoutes(scopePageMap(shaped(), SECTIONS, 'leads'))).toEqual(expect.arrayContaining(ALL_PAGE_ROUTES.leads))
  })

  test('an internal page map contains no title of the leads and support sections', () => {
    const whole = JSON.stringify(scopePageMap(shaped(), SECTIONS, 'internal'))
    for (const title of [...LEADS_TITLES, ...SUPPORT_TITLES]) expect(whole).not.toContain(`"title":"${title}"`)
    expect(folder(scopePageMap(shaped(), SECTIONS, 'internal'), 'internal')).toEqual(folder(shaped(), 'internal'))
  })

  test('pages outside every section (home, docs root) get every section as a stub, and keep their own pages', () => {
    const scoped = scopePageMap(shaped(), SECTIONS, null)
    expect(pageRoutes(scoped).sort()).toEqual(['/', '/docs', ...SECTIONS.map((section) => section.href)].sort())
    const whole = JSON.stringify(scoped)
    for (const title of [...LEADS_TITLES, ...INTERNAL_TITLES, ...SUPPORT_TITLES]) expect(whole).not.toContain(`"title":"${title}"`)
  })

  test('sectionOfRoute names the section a route belongs to, on a segment boundary', () => {
    expect(sectionOfRoute('/docs/leads/intro', SECTIONS)).toBe('leads')
    expect(sectionOfRoute('/docs/leads', SECTIONS)).toBe('leads')
    expect(sectionOfRoute('/docs/support-twilio/sql-queries/overall', SECTIONS)).toBe('support-twilio')
    expect(sectionOfRoute('/docs/leadsx/intro', SECTIONS)).toBeNull()
    expect(sectionOfRoute('/docs', SECTIONS)).toBeNull()
    expect(sectionOfRoute('/', SECTIONS)).toBeNull()
  })
})
