/** @jest-environment node */
/**
 * The order keys of the page-map fragments (pipeline/navigationOrder.ts). A reader who holds some
 * of the audiences merges their fragments into the writer's order; and a fragment says nothing of
 * what it leaves out: the pages its readers may not open can be added, moved or retitled and the
 * fragment stays the same, byte for byte, nor lets its reader test a guess of it. Two rules finer than a section: a page of the internal
 * guidelines given to full-access readers alone (its readers see its siblings), and a folder given
 * to a list of its own (whose reader sees nothing else of the section).
 */
import shipped from '../../access.config'
import { compileAccess } from '../../lib/access'
import { readersOfMayOpen } from '../../lib/access/decideAccess'
import { mergePageMaps, type PageMapFragment } from '../../lib/navigation/mergePageMaps'
import { pageRoutes, type RawItem } from '../../lib/navigation/shapePageMap'
import { SECTIONS } from '../../lib/navigation/siteNavigation'
import { pageMapFragments, type PageMapInputs } from '../../pipeline/pageMaps'
import { planAggregates } from '../../lib/access/planAggregates'

const GUIDELINES = '/docs/internal/guidelines'
const SECRETS = `${GUIDELINES}/secrets`
const FINANCE = '/docs/internal/finance'
const access = compileAccess(
  {
    ...shipped,
    lists: { ...shipped.lists, financeUsers: 'support1' },
    rules: [{ path: SECRETS, match: 'exact', require: 'fullAccessUsers' }, { path: `${GUIDELINES}/vault`, match: 'exact', require: 'fullAccessUsers' }, { path: FINANCE, match: 'prefix', require: 'financeUsers' }, ...shipped.rules],
  },
  {}
)

const page = (route: string) => ({ name: route.split('/').pop() as string, route, frontMatter: { title: `Title of ${route}` } })
const index = (route: string) => ({ name: 'index', route, frontMatter: { title: `Title of ${route}` } })

interface Site {
  /** The guidelines folder's `_meta` keys, in the writer's order. */
  guidelines: string[]
  /** The internal section's `_meta` keys, in the writer's order. */
  internal: string[]
  /** Pages of the finance folder. */
  finance: string[]
  /** The restricted page's title in its folder's `_meta`. */
  secretsTitle?: string
}

const SITE: Site = { guidelines: ['backups', 'secrets', 'keys', 'recovery'], internal: ['intro', 'finance', 'guidelines', 'zeta'], finance: ['ledger'] }

function rawPageMap(site: Site): RawItem[] {
  return [
    { data: 'meta_top' },
    index('/'),
    {
      name: 'docs',
      route: '/docs',
      children: [
        index('/docs'),
        { name: 'leads', route: '/docs/leads', children: [{ data: 'meta_leads' }, page('/docs/leads/intro')] },
        {
          name: 'internal',
          route: '/docs/internal',
          children: [
            { data: 'meta_internal' },
            page('/docs/internal/intro'),
            page('/docs/internal/zeta'),
            { name: 'guidelines', route: GUIDELINES, children: [{ data: 'meta_guidelines' }, index(GUIDELINES), ...site.guidelines.map((name) => page(`${GUIDELINES}/${name}`))] },
            { name: 'finance', route: FINANCE, children: [{ data: 'meta_finance' }, index(FINANCE), ...site.finance.map((name) => page(`${FINANCE}/${name}`))] },
          ],
        },
      ],
    },
  ]
}

/** Each page's digest, as the content source gives it: the text behind it is what a reader who may not open the page never has. */
const digestOf = (route: string) => `the digest of ${route}`

function fragmentsOf(site: Site, secretOf: (route: string) => string = digestOf) {
  const metas: Record<string, Record<string, unknown>> = {
    '/': { index: { title: 'Home', type: 'page', display: 'hidden' }, docs: { title: 'Docs', type: 'page', display: 'hidden' } },
    '/docs/leads': { intro: 'Intro' },
    '/docs/internal': Object.fromEntries(site.internal.map((key) => [key, key])),
    [GUIDELINES]: Object.fromEntries(site.guidelines.map((key) => [key, key === 'secrets' ? (site.secretsTitle ?? 'Secrets') : key])),
    [FINANCE]: Object.fromEntries(site.finance.map((key) => [key, key])),
  }
  const inputs: PageMapInputs = { access, sections: SECTIONS, topMeta: metas['/'], loadMeta: (route) => metas[route] }
  const raw = rawPageMap(site)
  const plan = planAggregates({ access, routes: pageRoutes(raw) })
  return { plan, fragments: pageMapFragments(raw, plan, inputs, secretOf) }
}

const metaKeys = (items: readonly RawItem[], route: string): string[] | undefined => {
  for (const item of items) {
    if ('children' in item) {
      if (item.route === route) return Object.keys((item.children.find((child) => 'data' in child) as { data: Record<string, unknown> }).data)
      const inner = metaKeys(item.children, route)
      if (inner) return inner
    }
  }
  return undefined
}

const { plan, fragments } = fragmentsOf(SITE)
const audienceOfRule = (rule: string) => plan.audiences.find((audience) => audience.rule === rule)!

test("each fragment's keys follow the writer's order, and merged, every fragment gives the whole site's order", () => {
  for (const fragment of fragments.values()) {
    for (const [route, keys] of Object.entries(fragment.order)) {
      const sorted = Object.keys(keys).sort((a, b) => keys[a] - keys[b])
      const writer = route === GUIDELINES ? SITE.guidelines : route === '/docs/internal' ? SITE.internal : null
      if (writer) expect(sorted).toEqual(writer.filter((key) => key in keys))
    }
  }
  const merged = mergePageMaps([], [...fragments.values()]) as RawItem[]
  expect(metaKeys(merged, GUIDELINES)).toEqual(SITE.guidelines)
  expect(metaKeys(merged, '/docs/internal')).toEqual(SITE.internal)
  // Any two audiences merged keep the writer's order of what they hold.
  const all = [...fragments.values()]
  for (const one of all) {
    for (const other of all) {
      const pair = mergePageMaps([], [one, other]) as RawItem[]
      const keys = metaKeys(pair, GUIDELINES)
      if (keys) expect(keys).toEqual(SITE.guidelines.filter((key) => keys.includes(key)))
    }
  }
})

test('no key is a place: the smallest key of a folder is no count of the entries before it', () => {
  const internal = fragments.get('prefix /docs/internal -> internalUsers')!
  for (const keys of Object.values(internal.order)) {
    const values = Object.values(keys).sort((a, b) => a - b)
    expect(values[0]).toBeGreaterThan(values.length)
  }
})

/**
 * Sites that differ only in pages given to full-access readers (the guidelines' secrets and vault)
 * or to the finance list: added, moved, retitled.
 */
const HIDDEN_CHANGES: Record<string, { site: Site; changed: string }> = {
  'a restricted page moved to the front of its folder': { site: { ...SITE, guidelines: ['secrets', 'backups', 'keys', 'recovery'] }, changed: SECRETS },
  'a restricted page added beside the others': { site: { ...SITE, guidelines: ['backups', 'secrets', 'keys', 'vault', 'recovery'] }, changed: `${GUIDELINES}/vault` },
  "a restricted folder moved in its section's _meta": { site: { ...SITE, internal: ['intro', 'guidelines', 'zeta', 'finance'] }, changed: FINANCE },
  'a restricted page retitled': { site: { ...SITE, secretsTitle: 'Secrets and keys' }, changed: SECRETS },
  'a page added to a restricted folder': { site: { ...SITE, finance: ['ledger', 'payroll'] }, changed: `${FINANCE}/payroll` },
}

test.each(Object.keys(HIDDEN_CHANGES))('%s: every fragment some of whose readers may not open that page stays the same, byte for byte', (name) => {
  const { site, changed } = HIDDEN_CHANGES[name]
  const { fragments: after } = fragmentsOf(site)
  const unchanged: string[] = []
  for (const [rule, fragment] of fragments) {
    if (readersOfMayOpen(access, audienceOfRule(rule).governedBy, changed)) continue
    expect([rule, JSON.stringify(after.get(rule))]).toEqual([rule, JSON.stringify(fragment satisfies PageMapFragment)])
    unchanged.push(rule)
  }
  // The internal section's readers see the siblings of what changed: the case that leaked.
  expect(unchanged).toContain('prefix /docs/internal -> internalUsers')
})

test("a reader cannot test a guess of the names hidden from them: the finance key among the section's entries follows the text of a page its reader may not open", () => {
  // The finance reader holds one key of /docs/internal, placed between the keys of entries they may
  // not open. Keys made from names alone could be made again from a guessed list of those names
  // (here the true one), and a match would confirm it; with any other text for the pages the reader
  // cannot open, the same names give other keys.
  const financeRule = plan.audiences.find((audience) => audience.rule.includes(FINANCE))!.rule
  const keyOf = (made: ReturnType<typeof fragmentsOf>) => made.fragments.get(financeRule)!.order['/docs/internal'].finance
  const guessed = fragmentsOf(SITE, (route) => (route.startsWith(FINANCE) ? digestOf(route) : `a guess at the text of ${route}`))
  expect(keyOf(guessed)).not.toBe(keyOf({ plan, fragments }))
  // Keys among entries every reader of the folder sees are made from names alone, as before: the
  // guidelines' readers all see its pages, so no text moves them.
  const internal = 'prefix /docs/internal -> internalUsers'
  expect(guessed.fragments.get(internal)!.order[GUIDELINES]).toEqual(fragments.get(internal)!.order[GUIDELINES])
})
