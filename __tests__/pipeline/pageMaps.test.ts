/** @jest-environment node */
/**
 * The page maps under a rule finer than a section: a folder of the internal section given to a list
 * of its own. Nextra collects `_meta` files as imports; the build inlines them as data, so each
 * audience's page map names only its own entries, Nextra's validation accepts every one of them,
 * and a reader who holds both audiences sees both, in the writer's order.
 */
import path from 'node:path'
import shipped from '../../access.config'
import { compileAccess } from '../../lib/access'
import { mergePageMaps } from '../../lib/navigation/mergePageMaps'
import { pageRoutes, type RawItem } from '../../lib/navigation/shapePageMap'
import { SECTIONS } from '../../lib/navigation/siteNavigation'
import { audiencePageMap, pageMapFragments, type PageMapInputs } from '../../pipeline/pageMaps'
import { planAggregates } from '../../lib/access/planAggregates'
import { normalizeWithNextra } from '../components/helpers/pageMaps'
import { pageTree, type PageTreeNode } from '../../mcp/pageTree'

const FINANCE = '/docs/internal/to-be-refined/finance'
const access = compileAccess({ ...shipped, lists: { ...shipped.lists, financeUsers: 'support1' }, rules: [{ path: FINANCE, match: 'prefix', require: 'financeUsers' }, ...shipped.rules] }, {})

const page = (route: string, title: string) => ({ name: route.split('/').pop() as string, route, frontMatter: { title } })
const index = (route: string, title: string) => ({ name: 'index', route, frontMatter: { title } })
/** What Nextra collects: every `_meta` as the name of its import. */
function rawPageMap(): RawItem[] {
  return [
    { data: 'meta_top' },
    index('/', 'Home'),
    {
      name: 'docs',
      route: '/docs',
      children: [
        index('/docs', 'Documentation'),
        {
          name: 'internal',
          route: '/docs/internal',
          children: [
            { data: 'meta_internal' },
            page('/docs/internal/intro', 'Internal introduction'),
            {
              name: 'to-be-refined',
              route: '/docs/internal/to-be-refined',
              children: [
                { data: 'meta_refined' },
                index('/docs/internal/to-be-refined', 'To be refined'),
                page('/docs/internal/to-be-refined/active-directory', 'Active Directory notes'),
                { name: 'finance', route: FINANCE, children: [{ data: 'meta_finance' }, index(FINANCE, 'Finance'), page(`${FINANCE}/quill-crm-api`, 'Quill CRM API')] },
                page('/docs/internal/to-be-refined/zeta', 'Zeta notes'),
              ],
            },
          ],
        },
      ],
    },
  ]
}
const METAS: Record<string, Record<string, unknown>> = {
  '/': { index: { title: 'Home', type: 'page', display: 'hidden' }, docs: { title: 'Docs', type: 'page', display: 'hidden' } },
  '/docs/internal': { intro: 'Introduction', 'to-be-refined': 'To be refined' },
  '/docs/internal/to-be-refined': { 'active-directory': 'Active Directory', finance: 'Finance', zeta: 'Zeta' },
  [FINANCE]: { 'quill-crm-api': 'Quill CRM API' },
}
const inputs: PageMapInputs = { access, sections: SECTIONS, topMeta: METAS['/'], loadMeta: (route) => METAS[route] }
/** A page's digest, as the content source gives it (it keys the order where a fragment's readers may not open their folder's other pages). */
const textOf = (route: string) => `the digest of ${route}`
const plan = planAggregates({ access, routes: pageRoutes(rawPageMap()) })
const financeId = plan.audiences.find((audience) => audience.pages.includes(FINANCE))!.id

const folder = (items: RawItem[], ...names: string[]): RawItem[] =>
  names.reduce((level, name) => (level.find((item) => 'children' in item && item.name === name) as { children: RawItem[] }).children, items)
const metaOf = (items: RawItem[]) => (items.find((item) => 'data' in item) as { data: Record<string, unknown> }).data
const routesIn = (items: readonly RawItem[]): string[] => allRoutes(items).sort()
const allRoutes = (items: readonly RawItem[]): string[] => items.flatMap((item) => ('children' in item ? allRoutes(item.children) : 'route' in item ? [item.route] : []))

test("the internal audience's page map names nothing of the finance folder, and Nextra accepts it", () => {
  const internal = audiencePageMap(rawPageMap(), 'internal', inputs, plan)
  expect(routesIn(internal).filter((route) => route.startsWith(FINANCE))).toEqual([])
  expect(Object.keys(metaOf(folder(internal, 'internal', 'to-be-refined')))).toEqual(['active-directory', 'zeta'])
  expect(JSON.stringify(internal)).not.toMatch(/finance|Quill/i)
  expect(() => normalizeWithNextra(internal, '/docs/internal/to-be-refined/active-directory')).not.toThrow()
})

test("the finance audience's page map is its section's tab with just the folder, and Nextra accepts it", () => {
  const finance = audiencePageMap(rawPageMap(), financeId, inputs, plan)
  expect(routesIn(finance).filter((route) => route.startsWith('/docs'))).toEqual([FINANCE, `${FINANCE}/quill-crm-api`])
  expect(metaOf(finance)).toMatchObject({ internal: { title: 'Internal', type: 'page' } })
  // The folder above finance is on the path, but its title is its index page's, which finance
  // readers may not open: it keeps its place and is named from its slug.
  expect(metaOf(folder(finance, 'internal'))).toEqual({ 'to-be-refined': 'To Be Refined' })
  expect(Object.keys(metaOf(folder(finance, 'internal', 'to-be-refined')))).toEqual(['finance'])
  expect(JSON.stringify(finance)).not.toMatch(/Active Directory|Internal introduction|Zeta|To be refined/)
  const normalized = normalizeWithNextra(finance, `${FINANCE}/quill-crm-api`)
  expect(normalized.activePath).toEqual(['/docs/internal', '/docs/internal/to-be-refined', FINANCE, `${FINANCE}/quill-crm-api`])
})

test("a reader of the whole section, on a finance page, gets the folder's own title back from the section's fragment", () => {
  const fragments = [...pageMapFragments(rawPageMap(), plan, inputs, textOf).values()]
  const merged = mergePageMaps(audiencePageMap(rawPageMap(), financeId, inputs, plan), fragments)
  expect(metaOf(folder(merged, 'internal'))).toMatchObject({ 'to-be-refined': 'To be refined' })
})

test("each audience's fragment holds its own pages only; merged, a reader of both sees both in the writer's order", () => {
  const fragments = pageMapFragments(rawPageMap(), plan, inputs, textOf)
  const financeFragment = fragments.get(plan.audiences.find((audience) => audience.id === financeId)!.rule)!
  const internalFragment = fragments.get('prefix /docs/internal -> internalUsers')!
  expect(routesIn(financeFragment.items)).toEqual([FINANCE, `${FINANCE}/quill-crm-api`])
  expect(routesIn(internalFragment.items).some((route) => route.startsWith(FINANCE))).toBe(false)
  // The fragment places its keys among the folder's, by number, without naming the others.
  expect(Object.keys(financeFragment.order['/docs/internal/to-be-refined'])).toEqual(['finance'])
  const merged = mergePageMaps(audiencePageMap(rawPageMap(), 'internal', inputs, plan), [internalFragment, financeFragment])
  expect(Object.keys(metaOf(folder(merged, 'internal', 'to-be-refined')))).toEqual(['active-directory', 'finance', 'zeta'])
  expect(routesIn(folder(merged, 'internal', 'to-be-refined'))).toEqual(['/docs/internal/to-be-refined/active-directory', FINANCE, `${FINANCE}/quill-crm-api`, '/docs/internal/to-be-refined/zeta'])
  const normalized = normalizeWithNextra(merged, `${FINANCE}/quill-crm-api`)
  expect(normalized.flat).toEqual(expect.arrayContaining(['/docs/internal/intro', `${FINANCE}/quill-crm-api`]))
  // Merging what a page already has changes nothing.
  expect(mergePageMaps(merged, [financeFragment])).toEqual(merged)
})

test("the AI tools' page tree (mcp/pageTree.ts): a finance reader's holds the finance folder alone under slug-titled folders; a reader of both gets the writer's titles and order", () => {
  const fragments = pageMapFragments(rawPageMap(), plan, inputs, textOf)
  const finance = fragments.get(plan.audiences.find((audience) => audience.id === financeId)!.rule)!
  const internal = fragments.get('prefix /docs/internal -> internalUsers')!
  const flat = (nodes: PageTreeNode[], depth = 0): string[] => nodes.flatMap((node) => [`${'  '.repeat(depth)}${node.title} ${node.route}`, ...flat(node.children ?? [], depth + 1)])
  expect(flat(pageTree([finance]))).toEqual(['Internal /docs/internal', '  To Be Refined /docs/internal/to-be-refined', `    Finance ${FINANCE}`, `      Quill CRM API ${FINANCE}/quill-crm-api`])
  const both = flat(pageTree([internal, finance]))
  expect(both).toContain('  To be refined /docs/internal/to-be-refined')
  expect(both.indexOf(`    Finance ${FINANCE}`)).toBeGreaterThan(both.indexOf('  To be refined /docs/internal/to-be-refined'))
  expect(flat(pageTree([internal]))).not.toContain(`    Finance ${FINANCE}`)
})
