/** @jest-environment node */
/**
 * The planner of derived files against access rules of any shape, over the real page tree: nested
 * prefix rules, exact rules on pages, lists with shared members, groups. For each random
 * configuration and each reader, both directions:
 * - soundness: no search index, llms file, page catalog or Markdown page that a reader can fetch
 *   holds a page that reader may not open;
 * - completeness: every page a reader may open is in a search index they can fetch, every docs
 *   page (the docs' root /docs and every section's page) is in an llms.txt and a page catalog they
 *   can fetch, and the reader's view names both,
 *   and a tab for the section; the AI tools' server finds every catalog of the reader's audiences.
 * Public pages, a home page for a list only, a fallback for any signed-in reader and protection off
 * are drawn too. Each file is governed as the edge governs it (the asset-route map, then its path).
 * The same checker, run on the per-section grouping the build used before, finds leaks: so it can fail.
 */
import path from 'node:path'
import fc from 'fast-check'
import shipped from '../../access.config'
import { compileAccess, decideAccess, type AccessConfig, type CompiledAccess, type PathRule } from '../../lib/access'
import { governingRoute } from '../../lib/access/governingRoute'
import { objectKeyFor } from '../../lib/access/objectKey'
import { folderWordsPath, inSection, sectionPrefix } from '../../lib/access/sectionPaths'
import type { AccessUser } from '../../lib/access/types'
import { audiencesOf, PART_OF_SECTION, readerViewFor, readerViewSources } from '../../edge/readerViewFor'
import { audienceSummaries, planAggregates, type AggregatePlan } from '../../lib/access/planAggregates'
import { assetRoutesOf } from './helpers/assetRoutes'
import { scanContent } from '../../pipeline/content/contentSource'
import { rootLlmsTxt } from '../../edge/rootLlmsTxt'

const ROUTES = scanContent(path.resolve(__dirname, '../..')).pages.map((page) => page.route)
/** Every folder that holds a page (where a prefix rule may sit), and every page (where an exact rule may). */
const FOLDERS = [...new Set(ROUTES.flatMap((route) => route.split('/').slice(1, -1).map((_, at, parts) => '/' + parts.slice(0, at + 1).join('/'))))]
  .filter((folder) => folder.startsWith('/docs'))
  .sort()
const USERS = ['admin', 'ann', 'bob', 'cat', 'dan', 'eve']
const GROUPS = ['g1', 'g2']
const LISTS = ['fullAccessUsers', 'listA', 'listB', 'listC']

/** An aggregate as a reader meets it: a file they can fetch or not, and the pages it holds. */
interface Aggregate {
  key: string
  /** The route whose rule governs the file at the edge. */
  route: string
  pages: readonly string[]
  kind: 'search' | 'llms' | 'markdown' | 'catalog'
}

/** Every planned file, governed as the edge governs it: through the asset-route map the build writes, then its own path. */
function aggregatesOf(plan: AggregatePlan, access: CompiledAccess): Aggregate[] {
  // Pagefind names its files by their content: any name, under the index's folder.
  const searchKeys = (spec: AggregatePlan['search'][number]) => [`${spec.basePath}pagefind-entry.json`, `${spec.basePath}index/en_1.pf_index`, `${spec.basePath}fragment/en_9f3c2a1.pf_fragment`]
  const assetRoutes = assetRoutesOf(access, { plannedRoutes: plan.routes })
  const routeOf = (key: string) => governingRoute(objectKeyFor(key) as string, assetRoutes) as string
  return [
    ...plan.search.flatMap((spec) => searchKeys(spec).map((key) => ({ key, route: routeOf(key), pages: spec.pages, kind: 'search' as const }))),
    ...plan.llms.map((file) => ({ key: file.key, route: routeOf(file.key), pages: file.pages, kind: 'llms' as const })),
    ...plan.markdown.map((file) => ({ key: file.key, route: routeOf(file.key), pages: [file.route], kind: 'markdown' as const })),
    ...plan.catalogs.map((file) => ({ key: file.key, route: routeOf(file.key), pages: file.pages, kind: 'catalog' as const })),
  ]
}

/** What is wrong with a set of aggregates for one reader; empty when sound and complete. */
function violations(access: CompiledAccess, aggregates: readonly Aggregate[], user: NonNullable<AccessUser>): string[] {
  const mayOpen = (route: string) => decideAccess(access, route, user) === 'allow'
  const fetchable = aggregates.filter((aggregate) => mayOpen(aggregate.route))
  const found: string[] = []
  for (const aggregate of fetchable) {
    for (const page of aggregate.pages) if (!mayOpen(page)) found.push(`${user.username} can fetch ${aggregate.key}, which holds ${page}`)
  }
  // The docs' root page (/docs) is a docs page like those of the sections, though it is in none.
  const isDocsPage = (route: string) => route === '/docs' || access.sections.some((section) => inSection(route, section.id))
  for (const page of ROUTES.filter(mayOpen)) {
    const reach = (kind: Aggregate['kind']) => fetchable.some((aggregate) => aggregate.kind === kind && aggregate.pages.includes(page))
    if (!reach('search')) found.push(`${user.username} may open ${page} but no search index they can fetch holds it`)
    if (isDocsPage(page) && !reach('llms')) found.push(`${user.username} may open ${page} but no llms file they can fetch holds it`)
    if (isDocsPage(page) && !reach('catalog')) found.push(`${user.username} may open ${page} but no page catalog they can fetch holds it`)
  }
  return found
}

/** The view the authority gives the reader names every index and llms.txt they can fetch, and a tab per section they may open any page of. */
function viewProblems(access: CompiledAccess, plan: AggregatePlan, user: NonNullable<AccessUser>): string[] {
  const view = readerViewFor(readerViewSources(access, {}, audienceSummaries(plan)), user)
  const mayOpen = (route: string) => decideAccess(access, route, user) === 'allow'
  const found: string[] = []
  // The indexes that hold a page the reader may open (each holds the pages of one rule, so all of them).
  const expectedSearch = plan.search.filter((spec) => spec.pages.some(mayOpen)).map((spec) => spec.basePath)
  if (JSON.stringify(view.search.map((index) => index.basePath)) !== JSON.stringify(expectedSearch)) found.push(`${user.username}'s view names the indexes ${JSON.stringify(view.search)}, not ${JSON.stringify(expectedSearch)}`)
  for (const section of access.sections) {
    const opens = ROUTES.some((route) => inSection(route, section.id) && mayOpen(route))
    const tab = view.sections.find((candidate) => candidate.id === section.id)
    if (opens !== Boolean(tab)) found.push(`${user.username}: section ${section.id} tab ${tab ? 'shown' : 'missing'}, though they ${opens ? 'may' : 'may not'} open a page of it`)
    if (tab && !mayOpen(tab.href)) found.push(`${user.username}: the ${section.id} tab opens ${tab.href}, which they may not open`)
    if (tab && !mayOpen(section.entry) && tab.description === section.description) found.push(`${user.username}: the ${section.id} card describes the whole section, of which they may open only part`)
    const opensAll = ROUTES.filter((route) => inSection(route, section.id)).every(mayOpen)
    // The section's words are for readers of what its folder holds, not of its index page alone.
    if (tab && tab.description === section.description && !opensAll && !mayOpen(folderWordsPath(sectionPrefix(section.id)))) {
      found.push(`${user.username}: the ${section.id} card describes the whole section, though they are no reader of its folder and may open only part of it`)
    }
    if (tab && opensAll && tab.description !== section.description) found.push(`${user.username}: the ${section.id} card says only part of the section is theirs, though they may open all of it`)
  }
  const canFetch = (key: string) => mayOpen(governingRoute(objectKeyFor(key) as string, plan.routes) as string)
  for (const llms of view.llms) if (!canFetch(llms)) found.push(`${user.username}'s view names ${llms}, which they cannot fetch`)
  // The AI tools' server reads the catalogs of the audiences it finds for the reader.
  for (const audience of audiencesOf(readerViewSources(access, {}, audienceSummaries(plan)), user)) {
    if (audience.catalog && !canFetch(audience.catalog)) found.push(`${user.username} holds ${audience.id}, whose catalog ${audience.catalog} they cannot fetch`)
  }
  return found
}

const entriesArb = fc.subarray([...USERS.slice(1), ...GROUPS.map((group) => `group:${group}`)], { minLength: 1 })
// A list, one group required directly, or any signed-in reader.
const requirementArb = fc.constantFrom(...LISTS, `group:${GROUPS[0]}`, 'signedIn')
const ruleArb: fc.Arbitrary<PathRule> = fc.oneof(
  fc.record({ path: fc.constantFrom(...FOLDERS), match: fc.constant('prefix' as const), require: requirementArb }),
  fc.record({ path: fc.constantFrom(...ROUTES), match: fc.constant('exact' as const), require: requirementArb })
)
const configArb: fc.Arbitrary<AccessConfig> = fc
  .record({
    lists: fc.tuple(entriesArb, entriesArb, entriesArb),
    sectionReaders: fc.tuple(requirementArb.filter((r) => r !== 'signedIn'), requirementArb.filter((r) => r !== 'signedIn'), requirementArb.filter((r) => r !== 'signedIn')),
    rules: fc.array(ruleArb, { maxLength: 5 }),
    // The home page: any signed-in reader, as shipped, or only a list's.
    home: requirementArb,
    fallback: fc.constantFrom(...LISTS, 'signedIn'),
    // Mostly on, as shipped; off, any signed-in reader may open everything.
    protectDocs: fc.oneof({ weight: 4, arbitrary: fc.constant(true) }, { weight: 1, arbitrary: fc.constant(false) }),
  })
  .map(({ lists, sectionReaders, rules, home, fallback, protectDocs }) => ({
    ...shipped,
    protectDocs,
    lists: { fullAccessUsers: 'admin', listA: lists[0].join(', '), listB: lists[1].join(', '), listC: lists[2].join(', ') },
    sections: shipped.sections.map((section, at) => ({ ...section, readers: sectionReaders[at] })),
    rules: [...rules, { path: '/', match: 'exact' as const, require: home }],
    fallback,
    // The sign-in and error pages: no docs page may be public (compileAccess refuses one).
    publicPaths: [...shipped.publicPaths],
  }))
const readerArb = fc.record({ username: fc.constantFrom(...USERS), groups: fc.subarray(GROUPS) })

/** The grouping the build used before the planner: one llms file per section, search by section with pages of other rules left out. */
function perSectionAggregates(access: CompiledAccess): Aggregate[] {
  const requirement = (route: string) => {
    const rule = access.rules.find((candidate) => (candidate.match === 'exact' ? candidate.path === route : route === candidate.path || route.startsWith(`${candidate.path}/`)))
    return rule ? rule.require : access.fallback
  }
  return access.sections.flatMap((section) => {
    const pages = ROUTES.filter((route) => inSection(route, section.id))
    const indexNeeds = requirement(`${sectionPrefix(section.id)}/_pagefind/pagefind-entry.json`)
    const indexed = pages.filter((route) => [indexNeeds, 'signedIn'].includes(requirement(route)))
    return [
      { key: `${sectionPrefix(section.id)}/llms-full.txt`, route: `${sectionPrefix(section.id)}/llms-full.txt`, pages, kind: 'llms' as const },
      { key: `${sectionPrefix(section.id)}/_pagefind/pagefind-entry.json`, route: `${sectionPrefix(section.id)}/_pagefind/pagefind-entry.json`, pages: indexed, kind: 'search' as const },
    ]
  })
}

describe('the aggregate plan, for access rules of any shape', () => {
  test('is sound and complete for every reader, and the reader view names what the reader can fetch', () => {
    fc.assert(
      fc.property(configArb, fc.array(readerArb, { minLength: 1, maxLength: 4 }), (config, readers) => {
        const access = compileAccess(config, {})
        const plan = planAggregates({ access, routes: ROUTES })
        const aggregates = aggregatesOf(plan, access)
        for (const reader of readers) {
          expect(violations(access, aggregates, reader)).toEqual([])
          expect(viewProblems(access, plan, reader)).toEqual([])
        }
      }),
      { numRuns: 300 }
    )
  })

  test("a writer's added pages change no route the authority bakes in: each audience's governing route and the planned routes come from the rules", () => {
    // A page that sorts first in every folder, as a writer adding `0-intro.mdx` would make.
    const added = FOLDERS.map((folder) => `${folder}/0-added`)
    fc.assert(
      fc.property(configArb, (config) => {
        const access = compileAccess(config, {})
        const before = planAggregates({ access, routes: ROUTES })
        const after = planAggregates({ access, routes: [...ROUTES, ...added] })
        const governed = (plan: AggregatePlan) => Object.fromEntries(plan.audiences.map((audience) => [audience.id, audience.governedBy]))
        const kept = Object.keys(governed(before)).filter((id) => id in governed(after))
        expect(Object.fromEntries(kept.map((id) => [id, governed(after)[id]]))).toEqual(Object.fromEntries(kept.map((id) => [id, governed(before)[id]])))
        const newMarkdown = new Set(added.map((route) => `${route}.md`))
        const newAudienceFolders = after.audiences.filter((audience) => !kept.includes(audience.id)).map((audience) => audience.base)
        const planned = Object.entries(after.routes).filter(([key]) => !newMarkdown.has(key) && !newAudienceFolders.includes(key))
        expect(Object.fromEntries(planned)).toEqual(before.routes)
      }),
      { numRuns: 300 }
    )
  })

  test("cut by the pages' sizes, each part of a full text holds pages of its audience alone, and the root llms.txt leads each reader to exactly their audiences' parts", () => {
    // Sizes and a bound that cut the audiences of the real page tree into several parts each.
    const sizesArb = fc.array(fc.integer({ min: 50, max: 6_000 }), { minLength: ROUTES.length, maxLength: ROUTES.length })
    let cut = 0
    fc.assert(
      fc.property(configArb, sizesArb, fc.integer({ min: 2_000, max: 20_000 }), fc.array(readerArb, { minLength: 1, maxLength: 4 }), (config, sizes, bound, readers) => {
        const access = compileAccess(config, {})
        const bytes = new Map(ROUTES.map((route, at) => [route, sizes[at]]))
        const plan = planAggregates({ access, routes: ROUTES, bodyBytes: (route) => bytes.get(route)!, fullTextPartBytes: bound })
        const aggregates = aggregatesOf(plan, access)
        const canFetch = (key: string, user: AccessUser) => decideAccess(access, governingRoute(objectKeyFor(key) as string, plan.routes) as string, user) === 'allow'
        for (const audience of plan.audiences) {
          const parts = plan.llms.filter((file) => file.full && file.audience === audience.id)
          if (parts.length > 1) cut++
          // In its audience's folder, together its docs pages once each.
          for (const part of parts) expect(part.key.startsWith(audience.base)).toBe(true)
          const index = plan.llms.find((file) => !file.full && file.audience === audience.id)
          expect(parts.flatMap((part) => part.pages).sort()).toEqual(index ? [...index.pages].sort() : [])
        }
        for (const reader of readers) {
          expect(violations(access, aggregates, reader)).toEqual([])
          const mayOpen = (route: string) => decideAccess(access, route, reader) === 'allow'
          // The root names indexes; each index lists its own audience's parts (pipeline/steps/buildMarkdown.ts).
          const root = rootLlmsTxt(audiencesOf(readerViewSources(access, {}, audienceSummaries(plan)), reader), reader)
          const named = [...root.matchAll(/\]\((\/[^)]+)\)/g)].map((match) => match[1])
          const indexes = named.map((key) => plan.llms.find((file) => file.key === key && !file.full))
          expect(indexes.every((index) => index !== undefined && canFetch(index.key, reader))).toBe(true)
          const reached = plan.llms.filter((file) => file.full && indexes.some((index) => index!.audience === file.audience))
          for (const part of reached) expect([part.key, part.pages.filter((page) => !mayOpen(page))]).toEqual([part.key, []])
          // And every part they can fetch that holds a page is reached.
          const fetchable = plan.llms.filter((file) => file.full && canFetch(file.key, reader))
          expect(reached.map((part) => part.key).sort()).toEqual(fetchable.map((part) => part.key).sort())
        }
      }),
      { numRuns: 200 }
    )
    expect(cut).toBeGreaterThan(0)
  })

  test('the same check finds leaks in the per-section grouping the build used before', () => {
    const failed = fc.check(
      fc.property(configArb, fc.array(readerArb, { minLength: 1, maxLength: 4 }), (config, readers) => {
        const access = compileAccess(config, {})
        return readers.every((reader) => violations(access, perSectionAggregates(access), reader).length === 0)
      }),
      { numRuns: 300 }
    )
    expect(failed.failed).toBe(true)
  })

  test('the docs root page /docs is in the llms files and page catalog of exactly the audience of its rule', () => {
    // As shipped, no rule names /docs: the fallback (fullAccessUsers) governs it.
    const shippedAccess = compileAccess(shipped, {})
    const draws: AccessConfig[] = [
      shipped,
      // An admin opens the docs root to every signed-in reader, or to a list, with an exact rule or a prefix rule on /docs.
      { ...shipped, rules: [{ path: '/docs', match: 'exact', require: 'signedIn' }, ...shipped.rules] },
      { ...shipped, lists: { ...shipped.lists, listA: 'ann' }, rules: [{ path: '/docs', match: 'exact', require: 'listA' }, ...shipped.rules] },
      { ...shipped, lists: { ...shipped.lists, listA: 'ann' }, rules: [{ path: '/docs', match: 'prefix', require: 'listA' }, ...shipped.rules] },
      { ...shipped, fallback: 'signedIn' },
    ]
    expect(decideAccess(shippedAccess, '/docs', { username: 'admin' })).toBe('allow')
    expect(decideAccess(shippedAccess, '/docs', { username: 'leads1' })).toBe('deny')
    for (const config of draws) {
      const access = compileAccess(config, {})
      const plan = planAggregates({ access, routes: ROUTES })
      const audience = plan.audiences.find((candidate) => candidate.pages.includes('/docs'))!
      const holding = (files: ReadonlyArray<{ pages: readonly string[]; audience: string }>) => files.filter((file) => file.pages.includes('/docs')).map((file) => file.audience)
      expect(holding(plan.llms)).toEqual([audience.id, audience.id])
      expect(holding(plan.catalogs)).toEqual([audience.id])
      expect(plan.markdown.filter((file) => file.route === '/docs').map((file) => file.key)).toEqual(['/docs.md'])
      // Its own title, not an empty one, where the audience holds no section.
      expect(audienceSummaries(plan).find((summary) => summary.id === audience.id)!.title).not.toBe('')
      for (const username of ['admin', 'ann', 'leads1', 'internal1']) expect(violations(access, aggregatesOf(plan, access), { username })).toEqual([])
    }
  })

  test("the issue's example: a finance folder inside internal, for support1 only", () => {
    const config: AccessConfig = {
      ...shipped,
      lists: { ...shipped.lists, financeUsers: 'support1' },
      rules: [{ path: '/docs/internal/to-be-refined/finance', match: 'prefix', require: 'financeUsers' }, ...shipped.rules],
    }
    const access = compileAccess(config, {})
    const plan = planAggregates({ access, routes: ROUTES })
    const finance = plan.audiences.find((audience) => audience.pages.includes('/docs/internal/to-be-refined/finance/quill-crm-api'))!
    expect(finance.base).toBe('/docs/internal/to-be-refined/finance/')
    expect(finance.sections).toEqual([expect.objectContaining({ id: 'internal', entry: '/docs/internal/to-be-refined/finance' })])
    const internal = plan.llms.find((file) => file.key === '/docs/internal/llms-full.txt')!
    expect(internal.pages.some((page) => page.includes('/finance'))).toBe(false)
    // The finance folder's own page is /docs/internal/to-be-refined/finance; its Markdown's path lies outside the folder, so the plan routes it to the page.
    expect(plan.routes['/docs/internal/to-be-refined/finance.md']).toBe('/docs/internal/to-be-refined/finance')
    for (const username of ['internal1', 'support1', 'admin', 'leads1']) expect(violations(access, aggregatesOf(plan, access), { username })).toEqual([])
    // What the per-section grouping did: internal1 could fetch the finance pages' text, support1 could not find them.
    const before = (username: string) => violations(access, perSectionAggregates(access), { username })
    expect(before('internal1')).toContain('internal1 can fetch /docs/internal/llms-full.txt, which holds /docs/internal/to-be-refined/finance/quill-crm-api')
    expect(before('support1')).toContain('support1 may open /docs/internal/to-be-refined/finance/quill-crm-api but no search index they can fetch holds it')
  })

  test("a section's index page and entry opened to every reader by exact rules: its card still describes only their part to readers of none of its folder", () => {
    const config: AccessConfig = {
      ...shipped,
      rules: [{ path: '/docs/internal', match: 'exact', require: 'signedIn' }, { path: '/docs/internal/intro', match: 'exact', require: 'signedIn' }, ...shipped.rules],
    }
    const access = compileAccess(config, {})
    const plan = planAggregates({ access, routes: [...ROUTES, '/docs/internal'] })
    const card = (username: string) => readerViewFor(readerViewSources(access, {}, audienceSummaries(plan)), { username }).sections.find((section) => section.id === 'internal')
    const internal = access.sections.find((section) => section.id === 'internal')!
    expect(card('outsider')?.description).toBe(PART_OF_SECTION)
    expect(card('internal1')?.description).toBe(internal.description)
    expect(viewProblems(access, plan, { username: 'outsider' })).toEqual([])
  })

  test('an exact rule on one page puts the page and its Markdown in files of its own, mapped to the page', () => {
    const page = '/docs/internal/guidelines/secrets-management'
    const access = compileAccess({ ...shipped, rules: [{ path: page, match: 'exact', require: 'fullAccessUsers' }, ...shipped.rules] }, {})
    const plan = planAggregates({ access, routes: ROUTES })
    const own = plan.audiences.find((audience) => audience.pages.includes(page))!
    expect(own.pages).toEqual([page])
    expect(own.base).toMatch(/^\/_audiences\/a[0-9a-f]{10}\/$/)
    expect(plan.routes[`${page}.md`]).toBe(page)
    // Its folder, not each file in it: Pagefind's file names change with the page, the folder does not.
    expect(plan.routes[own.base]).toBe(page)
    expect(governingRoute(`${own.base}_pagefind/fragment/en_1a2b3c4.pf_fragment`, plan.routes)).toBe(page)
    expect(violations(access, aggregatesOf(plan, access), { username: 'internal1' })).toEqual([])
  })
})
