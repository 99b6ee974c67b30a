/** @jest-environment node */
import type { PageMapItem } from 'nextra'
import { decide } from '../../lib/access'
import { filterPageMap } from '../../lib/navigation/filterPageMap'
import { ALL_PAGE_ROUTES, metaKeys, pageRoutes, shapedPageMap } from './helpers/pageMaps'

type Reader = 'admin' | 'leads1' | 'internal1' | 'support1' | 'outsider' | 'anonymous'
const userOf = (reader: Reader) => (reader === 'anonymous' ? null : { username: reader })
const filtered = (reader: Reader) => filterPageMap(shapedPageMap(), (path) => decide(path, userOf(reader)) === 'allow')
const { home, docsRoot, leads, internal, supportTwilio } = ALL_PAGE_ROUTES

/** With the shipped access.config.ts: which pages each reader's navigation keeps. */
const expected: Record<Reader, { routes: string[]; topMeta: string[] }> = {
  admin: {
    routes: [...docsRoot, ...home, ...internal, ...leads, ...supportTwilio],
    topMeta: ['index', 'leads', 'internal', 'support-twilio', 'docs', 'quote-api', 'status'],
  },
  leads1: { routes: [...home, ...leads], topMeta: ['index', 'leads', 'quote-api', 'status'] },
  internal1: { routes: [...home, ...internal], topMeta: ['index', 'internal', 'status'] },
  support1: { routes: [...home, ...supportTwilio], topMeta: ['index', 'support-twilio', 'status'] },
  outsider: { routes: [...home], topMeta: ['index', 'status'] },
  anonymous: { routes: [], topMeta: ['status'] },
}

describe.each(Object.keys(expected) as Reader[])('filterPageMap for %s', (reader) => {
  test('keeps exactly the pages the reader may open', () => {
    expect([...pageRoutes(filtered(reader))].sort()).toEqual([...expected[reader].routes].sort())
  })

  test('drops the top-level _meta keys of removed entries and of links to forbidden pages, keeps external links', () => {
    expect(metaKeys(filtered(reader))).toEqual(expected[reader].topMeta)
  })

  test('every page it keeps is one the reader may open, and no removed section leaves a trace', () => {
    const map = filtered(reader)
    for (const route of pageRoutes(map)) expect(decide(route, userOf(reader))).toBe('allow')
    const text = JSON.stringify(map)
    const sections = { leads: '/docs/leads', internal: '/docs/internal', 'support-twilio': '/docs/support-twilio' }
    for (const [id, prefix] of Object.entries(sections)) {
      if (decide(`${prefix}/intro`, userOf(reader)) === 'allow') continue
      // Neither a page, a folder, a meta key nor a link (such as the leads sidebar's link into
      // /docs/internal) of a section the reader may not open.
      expect(text).not.toContain(`"${prefix}/`)
      expect(text).not.toContain(`"${prefix}"`)
      expect(metaKeys(map)).not.toContain(id)
    }
  })
})

describe('filterPageMap inside a section', () => {
  test('a reader of the section keeps its whole sidebar, minus links to other sections', () => {
    const map = filtered('leads1')
    expect(metaKeys(map, 'leads')).toEqual(['intro', 'environments', 'endpoints', '---'])
    expect(metaKeys(map, 'leads', 'endpoints')).toEqual(['create-quote', 'get-quote-fees'])
  })

  test('a full-access reader keeps the link to another section', () => {
    expect(metaKeys(filtered('admin'), 'leads')).toEqual(['intro', 'environments', 'endpoints', 'internal-deployments', '---'])
  })

  test('a full-access reader gets the map unchanged', () => {
    expect(filtered('admin')).toEqual(shapedPageMap())
  })

  test('a folder whose pages are all forbidden disappears, with its meta key', () => {
    const map: PageMapItem[] = [
      { data: { open: 'Open', locked: 'Locked' } },
      { name: 'open', route: '/docs/leads/open', children: [{ name: 'a', route: '/docs/leads/open/a' }] },
      { name: 'locked', route: '/docs/internal/locked', children: [{ data: { b: 'B' } }, { name: 'b', route: '/docs/internal/locked/b' }] },
    ]
    const result = filterPageMap(map, (path) => decide(path, { username: 'leads1' }) === 'allow')
    expect(result).toEqual([{ data: { open: 'Open' } }, map[1]])
  })

  test('a page whose folder is removed keeps its meta key (a page beside a folder of the same name)', () => {
    const map: PageMapItem[] = [
      { data: { endpoints: 'Endpoints' } },
      { name: 'endpoints', route: '/docs/leads/endpoints' },
      { name: 'endpoints', route: '/docs/leads/endpoints', children: [{ name: 'x', route: '/docs/internal/x' }] },
    ]
    expect(filterPageMap(map, (path) => decide(path, { username: 'leads1' }) === 'allow')).toEqual([{ data: { endpoints: 'Endpoints' } }, map[1]])
  })

  test('does not change the map it is given', () => {
    const map = shapedPageMap()
    filterPageMap(map, (path) => decide(path, { username: 'leads1' }) === 'allow')
    expect(map).toEqual(shapedPageMap())
  })
})

describe('a folder kept for a page inside it that the reader may not open itself', () => {
  const map = [
    { data: { docs: { title: 'Docs', type: 'page' } } },
    {
      name: 'docs',
      route: '/docs',
      children: [
        { data: { zeta: { title: 'Secret plans', display: 'hidden' }, alpha: 'Alpha' } },
        { name: 'alpha', route: '/docs/alpha' },
        { name: 'zeta', route: '/docs/zeta', children: [{ name: 'open', route: '/docs/zeta/open' }] },
        { name: 'zeta', route: '/docs/zeta', frontMatter: { title: 'Secret plans' } },
      ],
    },
  ] as unknown as PageMapItem[]
  const mayOpen = (path: string) => path !== '/docs/zeta'

  test('keeps its place and its other fields, with a title from its slug instead of its index page\'s', () => {
    const text = JSON.stringify(filterPageMap(map, mayOpen))
    expect(text).not.toContain('Secret plans')
    const docs = (filterPageMap(map, mayOpen)[1] as unknown as { children: Array<{ data?: Record<string, unknown> }> }).children
    expect(docs[0].data).toEqual({ zeta: { title: 'Zeta', display: 'hidden' }, alpha: 'Alpha' })
    expect(Object.keys(docs[0].data!)).toEqual(['zeta', 'alpha'])
  })

  test('a reader who may open the folder keeps the writer\'s title', () => {
    expect(JSON.stringify(filterPageMap(map, () => true))).toContain('Secret plans')
  })
})
