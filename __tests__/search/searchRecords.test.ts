/** @jest-environment node */
import fc from 'fast-check'
import shipped from '../../access.config'
import { access, compileAccess, decide, decideAccess, type AccessConfig } from '../../lib/access'
import { assertGrouping, pageRecords, SearchIndexLeakError, splitHeadingKey, type IndexGroup, type NextraSearchData } from '../../lib/search/searchRecords'
import { groupSearchRecords } from '../fixtures/searchGroups'
import { normalisePath } from '../../lib/access/normalisePath'
import { planAggregates } from '../../lib/access/planAggregates'
import { NEXTRA_DATA, ROLES } from './fixtures'

/** The plan the build makes for these pages (lib/access/planAggregates.ts): one index per audience. */
const planOf = (data: NextraSearchData, rules = access) => planAggregates({ access: rules, routes: Object.keys(data).flatMap((route) => normalisePath(route) ?? []) })
const plan = planOf(NEXTRA_DATA)
const grouped = groupSearchRecords(NEXTRA_DATA, plan, access)
const group = (id: string) => grouped.groups.find((candidate) => candidate.spec.id === id) as IndexGroup
const groupOf = (route: string) => grouped.groups.find((candidate) => candidate.pages.includes(route)) as IndexGroup
const urls = (id: string) => group(id).records.map((record) => record.url)

describe('grouping records into per-audience indexes', () => {
  test('each page goes to exactly the index of its audience: its section, or the home page and the /docs root each alone', () => {
    expect(group('leads').pages).toEqual(['/docs/leads/endpoints/create-quote', '/docs/leads/intro'])
    expect(group('internal').pages).toEqual(['/docs/internal/data-lake/integration-sources/hoowla/case-enrichements', '/docs/internal/intro'])
    expect(group('support-twilio').pages).toEqual(['/docs/support-twilio/sql-queries/search-by-phone'])
    expect(groupOf('/').pages).toEqual(['/'])
    expect(groupOf('/docs').pages).toEqual(['/docs'])
    const everyRecord = grouped.groups.flatMap((g) => g.records.map((record) => record.url))
    expect(new Set(everyRecord).size).toBe(everyRecord.length)
    expect(grouped.skipped).toEqual([])
  })

  test('heading records link to the heading anchor; the intro links to the page', () => {
    expect(urls('internal')).toEqual([
      '/docs/internal/data-lake/integration-sources/hoowla/case-enrichements',
      '/docs/internal/data-lake/integration-sources/hoowla/case-enrichements#processing-steps',
      '/docs/internal/data-lake/integration-sources/hoowla/case-enrichements#enrichment-watermark-reconciliation',
      '/docs/internal/data-lake/integration-sources/hoowla/case-enrichements#monitoring',
      '/docs/internal/intro',
      '/docs/internal/intro#c-tips',
    ])
    const reconciliation = group('internal').records.find((record) => record.url.endsWith('#enrichment-watermark-reconciliation'))!
    expect(reconciliation.text).toBe('Each case stores an enriched_until watermark.')
    expect(reconciliation.meta).toEqual({ title: 'Hoowla case enrichments pipeline', section: 'Internal', heading: 'Enrichment watermark reconciliation' })
  })

  test('every reader of an index may read every page in it, for each shipped role', () => {
    for (const role of ROLES) {
      const user = { username: role }
      for (const g of grouped.groups) {
        if (decide(g.spec.governedBy, user) !== 'allow') continue
        for (const record of g.records) expect([role, record.url, decide(record.url, user)]).toEqual([role, record.url, 'allow'])
      }
    }
  })

  test('a folder that needs full access inside a section gets an index of its own, which internal readers cannot load', () => {
    const config: AccessConfig = {
      ...shipped,
      rules: [{ path: '/docs/internal/secret', match: 'prefix', require: 'fullAccessUsers' }, ...shipped.rules],
    }
    const custom = compileAccess(config)
    const data: NextraSearchData = { ...NEXTRA_DATA, '/docs/internal/secret/keys': { title: 'Keys', data: { '': 'root keys' } } }
    const result = groupSearchRecords(data, planOf(data, custom), custom)
    const secret = result.groups.find((g) => g.pages.includes('/docs/internal/secret/keys'))!
    expect(secret.pages).toEqual(['/docs/internal/secret/keys'])
    expect(secret.spec.basePath).toBe('/docs/internal/secret/_pagefind/')
    expect(decideAccess(custom, secret.spec.governedBy, { username: 'internal1' })).toBe('deny')
    expect(decideAccess(custom, secret.spec.governedBy, { username: 'admin' })).toBe('allow')
    expect(result.groups.find((g) => g.spec.id === 'internal')!.pages).not.toContain('/docs/internal/secret/keys')
  })

  test('full-access routes are in no index that a reader without full access can load', () => {
    const data: NextraSearchData = { ...NEXTRA_DATA, '/changelog': { title: 'Changelog', data: { '': 'Release notes.' } } }
    const result = groupSearchRecords(data, planOf(data), access)
    for (const g of result.groups) {
      for (const role of ROLES.filter((name) => name !== 'admin')) {
        if (decide(g.spec.governedBy, { username: role }) !== 'allow') continue
        expect(g.pages).not.toContain('/docs')
        expect(g.pages).not.toContain('/changelog')
      }
    }
  })

  test('with protection off every signed-in reader may load every index, and grouping stays per audience', () => {
    const open = compileAccess({ ...shipped, protectDocs: false })
    const openPlan = planOf(NEXTRA_DATA, open)
    const result = groupSearchRecords(NEXTRA_DATA, openPlan, open)
    expect(result.groups.find((g) => g.spec.id === 'leads')!.pages).toEqual(group('leads').pages)
    for (const spec of openPlan.search) expect(decideAccess(open, spec.governedBy, { username: 'outsider' })).toBe('allow')
  })

  test('public pages are an audience of their own: an index that anyone may load holds them and nothing else', () => {
    const data: NextraSearchData = { ...NEXTRA_DATA, '/login': { title: 'Sign in', data: { '': 'Sign in.' } } }
    const result = groupSearchRecords(data, planOf(data), access)
    const publicIndex = result.groups.find((g) => g.pages.includes('/login'))!
    expect(publicIndex.pages).toEqual(['/login'])
    expect(decide(publicIndex.spec.governedBy, null)).toBe('allow')
    expect(result.skipped).toEqual([])
  })

  test('a page the plan does not know is in no index, and is reported', () => {
    const data: NextraSearchData = { ...NEXTRA_DATA, '/docs/leads/new': { title: 'New', data: { '': 'x' } } }
    const result = groupSearchRecords(data, plan, access)
    expect(result.skipped).toEqual([{ route: '/docs/leads/new', reason: 'not a page of the plan' }])
  })
})

describe('the build check (assertGrouping)', () => {
  const move = (from: string, to: string, route: string): IndexGroup[] =>
    grouped.groups.map((g) => {
      const moved = group(from).records.filter((record) => record.route === route)
      if (g.spec.id === to) return { ...g, records: [...g.records, ...moved] }
      if (g.spec.id === from) return { ...g, records: g.records.filter((record) => record.route !== route) }
      return g
    })

  test('passes on the real grouping', () => {
    expect(() => assertGrouping(grouped.groups, access)).not.toThrow()
  })

  test('throws, naming the page, when a leads page lands in the internal index', () => {
    expect(() => assertGrouping(move('leads', 'internal', '/docs/leads/intro'), access)).toThrow(SearchIndexLeakError)
    expect(() => assertGrouping(move('leads', 'internal', '/docs/leads/intro'), access)).toThrow(/\/docs\/leads\/intro, which prefix \/docs\/leads -> leadsUsers governs/)
  })

  test('throws, naming the page, when an internal page lands in the home index', () => {
    const page = '/docs/internal/data-lake/integration-sources/hoowla/case-enrichements'
    expect(() => assertGrouping(move('internal', groupOf('/').spec.id, page), access)).toThrow(new RegExp(`search index ${groupOf('/').spec.id} .*${page}`))
  })

  test('throws when a full-access page outside every section lands in the home index', () => {
    const home = groupOf('/').spec.id
    const groups = grouped.groups.map((g) =>
      g.spec.id === home ? { ...g, records: [...g.records, ...pageRecords('/docs', NEXTRA_DATA['/docs'], 'Home')] } : g
    )
    expect(() => assertGrouping(groups, access)).toThrow(/would hold \/docs, which fallback -> fullAccessUsers governs/)
  })

  test('throws when a record\'s URL points at another page than its own', () => {
    const groups = grouped.groups.map((g) =>
      g.spec.id === 'leads' ? { ...g, records: [{ ...g.records[0], url: '/docs/internal/intro#x' }, ...g.records.slice(1)] } : g
    )
    expect(() => assertGrouping(groups, access)).toThrow(/does not point at its page/)
  })

  test('property: for any routes, every grouped record is readable by every reader of its index, and every page is placed or reported', () => {
    const segment = fc.stringMatching(/^[a-z][a-z0-9-]{0,8}$/)
    const route = fc.tuple(fc.constantFrom('/docs/leads', '/docs/internal', '/docs/support-twilio', '/docs', '', '/docs/leadsx', '/login'), fc.array(segment, { maxLength: 3 }))
      .map(([prefix, rest]) => [prefix, ...rest].join('/') || '/')
    fc.assert(
      fc.property(fc.uniqueArray(route, { maxLength: 20 }), (routes) => {
        const data: NextraSearchData = Object.fromEntries(routes.map((r) => [r, { title: r, data: { '': 'text', 'h#H': 'more' } }]))
        const result = groupSearchRecords(data, planOf(data), access)
        for (const g of result.groups) {
          for (const role of ROLES) {
            if (decide(g.spec.governedBy, { username: role }) !== 'allow') continue
            for (const record of g.records) if (decide(record.route, { username: role }) !== 'allow') return false
          }
        }
        const placed = result.groups.flatMap((g) => g.pages).length + result.skipped.length
        return placed === new Set(Object.keys(data)).size
      })
    )
  })
})

describe('records of one page', () => {
  test('splitHeadingKey keeps a # inside the heading text', () => {
    expect(splitHeadingKey('c-tips#C# tips')).toEqual({ id: 'c-tips', heading: 'C# tips' })
    expect(splitHeadingKey('')).toEqual({ id: '', heading: '' })
  })

  test('table cells and lines become plain prose; a page without intro text is still findable by its title', () => {
    const records = pageRecords('/docs/leads/x', { title: 'X page', data: { 'fields#Fields': 'a\tb\nc' } }, 'Leads API')
    expect(records).toEqual([
      { route: '/docs/leads/x', url: '/docs/leads/x', text: '', meta: { title: 'X page', section: 'Leads API' } },
      { route: '/docs/leads/x', url: '/docs/leads/x#fields', text: 'a b c', meta: { title: 'X page', section: 'Leads API', heading: 'Fields' } },
    ])
  })
})
