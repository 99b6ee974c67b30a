/** @jest-environment node */
import { access, decide } from '../../lib/access'
import { governingRoute } from '../../lib/access/governingRoute'
import { objectKeyFor } from '../../lib/access/objectKey'
import { HOME_INDEX_BASE_PATH, indexForRoute, readableIndexes, searchIndexSpecs } from '../../lib/search/searchIndexes'
import { computeAssetRoutes, searchFileRoutes } from '../../pipeline/steps/assetRoutes'

const specs = searchIndexSpecs()
const readable = (username: string | null) => readableIndexes(username === null ? null : { username }, decide).map((spec) => spec.id)

test('the home index files the search step names are mapped to "/"', () => {
  const files = ['/_pagefind/pagefind.js', '/_pagefind/pagefind-entry.json', '/_pagefind/fragment/en_1.pf_fragment', '/docs/leads/_pagefind/pagefind.js']
  const routes = computeAssetRoutes({
    searchFileRoutes: searchFileRoutes(specs, (spec) => files.filter((key) => key.startsWith(spec.basePath))),
    access,
    manifest: { pages: {} },
    files,
    readText: () => '',
    publicRootFiles: [],
    publicRoute: '/login',
    loadable: {},
    routeOfSource: () => null,
  })
  expect(routes['/_pagefind/fragment/en_1.pf_fragment']).toBe('/')
  expect(routes['/docs/leads/_pagefind/pagefind.js']).toBeUndefined()
})

test('each index is governed, as the edge sees its files, by the route the search box checks', () => {
  const routes = { '/_pagefind/pagefind-entry.json': '/', '/_pagefind/fragment/en_1.pf_fragment': '/' }
  for (const spec of specs) {
    for (const file of ['pagefind-entry.json', 'fragment/en_1.pf_fragment']) {
      const route = governingRoute(objectKeyFor(spec.basePath + file) as string, routes)
      for (const username of ['admin', 'leads1', 'internal1', 'support1', 'outsider']) {
        expect([spec.id, username, decide(route as string, { username })]).toEqual([spec.id, username, decide(spec.governedBy, { username })])
      }
    }
  }
})

test.each([
  ['admin', ['home', 'leads', 'internal', 'support-twilio']],
  ['leads1', ['home', 'leads']],
  ['leads5', ['home', 'leads']],
  ['internal1', ['home', 'internal']],
  ['support1', ['home', 'support-twilio']],
  ['outsider', ['home']],
  [null, []],
])('%s may load the indexes %j', (username, expected) => {
  expect(readable(username)).toEqual(expected)
})

test('indexForRoute picks the section index, the home index for /, and nothing for /docs', () => {
  const pick = (route: string) => {
    const choice = indexForRoute(access, route, specs)
    return choice.kind === 'index' ? choice.spec.id : 'skip'
  }
  expect(pick('/docs/leads/intro')).toBe('leads')
  expect(pick('/docs/internal/data-lake')).toBe('internal')
  expect(pick('/docs/support-twilio')).toBe('support-twilio')
  expect(pick('/')).toBe('home')
  expect(pick('/docs')).toBe('skip')
  expect(pick('/docs/leadsx/intro')).toBe('skip')
  expect(pick('/anything')).toBe('skip')
})
