import { mergePageMaps } from '../../lib/navigation/mergePageMaps'
import { pageRoutes, type RawItem } from '../../lib/navigation/shapePageMap'
import { NAVIGATION_WINDOW, trimPageMap } from '../../lib/navigation/trimPageMap'

const page = (route: string) => ({ name: route.split('/').pop() as string, route, frontMatter: { title: `Title of ${route}` } })
const pad = (i: number) => String(i).padStart(4, '0')

/** A section with a folder of `count` pages (in the writer's order by `_meta`, reversed from the names), and a small folder beside it. */
function sectionMap(count: number): RawItem[] {
  const generated = Array.from({ length: count }, (_, i) => page(`/docs/leads/generated/page-${pad(i)}`))
  return [
    { data: { index: { title: 'Home', display: 'hidden' }, docs: { title: 'Docs', display: 'hidden' } } },
    { name: 'docs', route: '/docs', frontMatter: { title: 'Documentation' } },
    {
      name: 'leads',
      route: '/docs/leads',
      children: [
        { data: { intro: 'Introduction', generated: 'Generated', endpoints: 'Endpoints' } },
        { name: 'endpoints', route: '/docs/leads/endpoints', children: [page('/docs/leads/endpoints/create-quote'), page('/docs/leads/endpoints/get-fees')] },
        { name: 'endpoints', route: '/docs/leads/endpoints', frontMatter: { title: 'Endpoints' } },
        { name: 'generated', route: '/docs/leads/generated', children: [{ data: Object.fromEntries(generated.map((item) => [item.name, item.route]).reverse()) }, ...generated] },
        page('/docs/leads/intro'),
      ],
    },
    { name: 'index', route: '/', frontMatter: { title: 'Home' } },
  ]
}

const fragmentOf = (items: RawItem[]) => ({ items, order: {} })

test("a page's navigation grows with its depth, not with the size of its section", () => {
  const route = `/docs/leads/generated/page-${pad(500)}`
  const small = JSON.stringify(trimPageMap(sectionMap(40), route)).length
  const large = JSON.stringify(trimPageMap(sectionMap(4000), route)).length
  expect(large).toBeLessThan(small * 1.2)
  expect(pageRoutes(trimPageMap(sectionMap(4000), route)).length).toBeLessThan(2 * NAVIGATION_WINDOW + 10)
})

test('it keeps the page, its way (breadcrumb) and its neighbours in the writer\'s order (previous and next)', () => {
  const trimmed = trimPageMap(sectionMap(1000), `/docs/leads/generated/page-${pad(500)}`)
  const routes = pageRoutes(trimmed)
  // The `_meta` lists the folder's pages from the last name to the first: 501 comes before 500.
  for (const i of [500, 501, 499, 500 + NAVIGATION_WINDOW, 500 - NAVIGATION_WINDOW]) expect(routes).toContain(`/docs/leads/generated/page-${pad(i)}`)
  expect(routes).not.toContain(`/docs/leads/generated/page-${pad(500 + NAVIGATION_WINDOW + 1)}`)
  expect(routes).not.toContain(`/docs/leads/generated/page-${pad(0)}`)
  expect(routes).toEqual(expect.arrayContaining(['/docs', '/docs/leads/intro', '/docs/leads/endpoints', '/']))
  // A folder off the way keeps its first entry only; its `_meta` keeps only what is left.
  const leads = trimmed.find((item) => 'name' in item && item.name === 'leads') as { children: RawItem[] }
  const endpoints = leads.children.find((item) => 'children' in item && item.name === 'endpoints') as { children: RawItem[] }
  expect(pageRoutes(endpoints.children)).toEqual(['/docs/leads/endpoints/create-quote'])
  const generated = leads.children.find((item) => 'children' in item && item.name === 'generated') as { children: RawItem[] }
  const meta = generated.children.find((item) => 'data' in item) as { data: Record<string, unknown> }
  expect(Object.keys(meta.data).sort()).toEqual(pageRoutes(generated.children).map((route) => route.split('/').pop()).sort())
})

test('once the audience\'s navigation arrives, the reader\'s sidebar is the whole section again', () => {
  const whole = sectionMap(300)
  for (const route of ['/docs/leads/generated/page-0150', '/docs/leads/intro', '/docs/leads/endpoints', '/']) {
    const merged = mergePageMaps(trimPageMap(whole, route), [fragmentOf(whole)])
    expect(pageRoutes(merged).sort()).toEqual(pageRoutes(whole).sort())
  }
})

test("a `_meta` entry that names no page (a separator, a link) stays on every page's level; a dropped page's entry goes", () => {
  const pages = Array.from({ length: 40 }, (_, i) => page(`/docs/leads/page-${pad(i)}`))
  const meta = { data: { '---': { type: 'separator' }, ...Object.fromEntries(pages.map((item) => [item.name, item.frontMatter.title])), status: { title: 'Status', href: 'https://status.example.com' } } }
  const map: RawItem[] = [{ name: 'leads', route: '/docs/leads', children: [meta, ...pages] }]
  for (const at of [0, 20, 39]) {
    const level = (trimPageMap(map, `/docs/leads/page-${pad(at)}`)[0] as { children: RawItem[] }).children
    const data = (level.find((item) => 'data' in item) as { data: Record<string, unknown> }).data
    const kept = pageRoutes(level).map((route) => route.split('/').pop())
    expect(Object.keys(data)).toEqual(['---', ...kept, 'status'])
    expect(kept).toContain(`page-${pad(at)}`)
    expect(kept.length).toBeLessThanOrEqual(2 * NAVIGATION_WINDOW + 1)
  }
})
