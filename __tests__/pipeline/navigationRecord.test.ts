/** @jest-environment node */
/**
 * The build keeps its navigation (each audience's page map and fragment) under a digest of what
 * it was made from: a rebuild after an edit of a page's text takes it from there without walking
 * the page map, and any change to what navigation is made from (a title, a `_meta` entry, the
 * rules, the code) makes it again, so a reader never gets an old sidebar.
 */
import path from 'node:path'
import shipped from '../../access.config'
import { compileAccess, access as shippedAccess } from '../../lib/access'
import type { CompiledAccess } from '../../lib/access/compileAccess'
import { isFolder, isPage, type RawItem } from '../../lib/navigation/shapePageMap'
import { scanContent } from '../../pipeline/content/contentSource'
import { openNavigation } from '../../pipeline/navigationRecord'
import { audiencePageMap, pageMapFragments, pageMapInputs } from '../../pipeline/pageMaps'
import { planFor } from '../../pipeline/steps/contentSteps'
import { tempSite } from '../fixtures/tempSite'

// Counted, to see whether a build walked the page map (the navigation record calls them through the module).
jest.mock('../../pipeline/pageMaps', () => {
  const actual = jest.requireActual<typeof import('../../pipeline/pageMaps')>('../../pipeline/pageMaps')
  return { ...actual, pageMapFragments: jest.fn(actual.pageMapFragments), audiencePageMap: jest.fn(actual.audiencePageMap) }
})
const made = [pageMapFragments, audiencePageMap] as jest.Mock[]
const { pageMapFragments: freshFragments } = jest.requireActual<typeof import('../../pipeline/pageMaps')>('../../pipeline/pageMaps')

const ROOT = path.join(__dirname, '../..')
const source = scanContent(ROOT)
const raw = source.pageMap()

const retitled = (items: readonly RawItem[], route: string, title: string): RawItem[] =>
  items.map((item) => (isFolder(item) ? { ...item, children: retitled(item.children, route, title) } : isPage(item) && item.route === route ? { ...item, frontMatter: { ...item.frontMatter, title } } : item))

/** The navigation as a build after `cacheRoot`'s last one sees it, and whether it walked the page map. */
function navigationOf(cacheRoot: string, options: { code?: string; pageMap?: RawItem[]; access?: CompiledAccess; digests?: Record<string, string> } = {}) {
  const access = options.access ?? shippedAccess
  const plan = planFor(source.pages, access)
  const inputs = pageMapInputs(source, access)
  const digests = options.digests ?? {}
  const edited = { ...source, byRoute: (route: string) => (route in digests ? { ...source.byRoute(route)!, digest: digests[route] } : source.byRoute(route)) }
  made.forEach((mock) => mock.mockClear())
  const navigation = openNavigation(cacheRoot, edited, options.pageMap ?? raw, plan, inputs, options.code)
  const fragments = JSON.stringify([...navigation.fragments()])
  const hashes = plan.audiences.map((audience) => navigation.audienceHash(audience.id))
  const walked = made.some((mock) => mock.mock.calls.length > 0)
  const fresh = JSON.stringify([...freshFragments(options.pageMap ?? raw, plan, inputs, (route) => edited.byRoute(route)?.digest)])
  return { fragments, fresh, hashes, walked }
}

test("a build with the last build's navigation inputs takes its fragments and map hashes from the record, without walking the page map", () => {
  const cacheRoot = tempSite('navigation-')
  const first = navigationOf(cacheRoot)
  expect(first.walked).toBe(true)
  expect(first.fragments).toBe(first.fresh)
  const again = navigationOf(cacheRoot)
  expect(again.walked).toBe(false)
  expect(again.fragments).toBe(first.fresh)
  expect(again.hashes).toEqual(first.hashes)
})

test('a new title, new rules or new code make the navigation again: the sidebar shows the new title, not the recorded one', () => {
  const cacheRoot = tempSite('navigation-')
  navigationOf(cacheRoot)
  const route = source.pages.find((page) => page.route.startsWith('/docs/leads/'))!.route
  const renamed = navigationOf(cacheRoot, { pageMap: retitled(raw, route, 'A title no build had') })
  expect(renamed.walked).toBe(true)
  expect(renamed.fragments).toContain('A title no build had')
  expect(renamed.fragments).toBe(renamed.fresh)

  const finer = compileAccess({ ...shipped, lists: { ...shipped.lists, financeUsers: 'support1' }, rules: [{ path: '/docs/internal/to-be-refined', match: 'prefix', require: 'financeUsers' }, ...shipped.rules] }, {})
  const ruled = navigationOf(cacheRoot, { access: finer })
  expect(ruled.walked).toBe(true)
  expect(ruled.fragments).toBe(ruled.fresh)
  expect(ruled.fragments).not.toBe(navigationOf(tempSite('navigation-')).fragments)

  navigationOf(cacheRoot)
  expect(navigationOf(cacheRoot, { code: 'other code' }).walked).toBe(true)
  expect(navigationOf(cacheRoot).walked).toBe(true)
})

test("an edit of a page whose digest keys a folder's order (navigationOrder.ts) makes the navigation again; an edit of another page does not", () => {
  const cacheRoot = tempSite('navigation-')
  const finer = compileAccess({ ...shipped, lists: { ...shipped.lists, financeUsers: 'support1' }, rules: [{ path: '/docs/internal/to-be-refined/finance', match: 'prefix', require: 'financeUsers' }, ...shipped.rules] }, {})
  const first = navigationOf(cacheRoot, { access: finer })
  expect(first.walked).toBe(true)
  // One page keys each folder's order whose entries are placed among entries some of their readers
  // do not see: the internal section among the sections, and the pages beside the finance folder.
  const plan = planFor(source.pages, finer)
  const inputs = pageMapInputs(source, finer)
  const changes = (route: string) => JSON.stringify([...freshFragments(raw, plan, inputs, (asked) => (asked === route ? 'edited' : source.byRoute(asked)?.digest))]) !== first.fresh
  const internal = source.pages.filter((page) => page.route.startsWith('/docs/internal/')).map((page) => page.route)
  const keyed = internal.filter(changes)
  expect(keyed).toHaveLength(2)
  expect(keyed.filter((route) => route.startsWith('/docs/internal/to-be-refined/'))).toHaveLength(1)
  const other = internal.find((route) => !keyed.includes(route))!
  expect(navigationOf(cacheRoot, { access: finer, digests: { [other]: 'edited' } }).walked).toBe(false)
  const again = navigationOf(cacheRoot, { access: finer, digests: { [keyed[0]]: 'edited' } })
  expect(again.walked).toBe(true)
  expect(again.fragments).toBe(again.fresh)
  expect(again.fragments).not.toBe(first.fragments)
})
