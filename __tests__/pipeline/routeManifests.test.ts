/**
 * @jest-environment node
 *
 * The route manifests as postbuild splits them (pipeline/steps/routeManifests.ts).
 */
import fs from 'node:fs'
import vm from 'node:vm'
import { access } from '../../lib/access'
import { planAggregates } from '../../lib/access/planAggregates'
import { splitRouteManifests } from '../../pipeline/steps/routeManifests'

const { audiences } = planAggregates({ access, routes: ['/', '/docs/leads/intro', '/docs/leads/quotes', '/login'] })

const buildManifest = (pages: Record<string, string[]>) => `self.__BUILD_MANIFEST=${JSON.stringify({ __rewrites: { afterFiles: [] }, ...pages, sortedPages: Object.keys(pages).sort() })};self.__BUILD_MANIFEST_CB&&self.__BUILD_MANIFEST_CB()`
const ssgManifest = (routes: string[]) => `self.__SSG_MANIFEST=new Set(${JSON.stringify(routes)});self.__SSG_MANIFEST_CB&&self.__SSG_MANIFEST_CB()`

/** The public base the loader script hands Next, read back from the script's source. */
function baseOf(loader: string): Record<string, unknown> {
  return JSON.parse(/var base=(\{.*?\}),parts=/.exec(loader)![1]) as Record<string, unknown>
}

test("a route's style sheets come first, each kind in its own order, however the bundler interleaved them", () => {
  const interleaved = splitRouteManifests({ access, audiences, buildId: 'b', buildManifest: buildManifest({ '/login': ['a.css', '1.js', 'b.css', '2.js'], '/[[...slug]]': ['3.js', 'c.css'] }), ssgManifest: ssgManifest(['/[[...slug]]']) })
  const other = splitRouteManifests({ access, audiences, buildId: 'b', buildManifest: buildManifest({ '/login': ['a.css', 'b.css', '1.js', '2.js'], '/[[...slug]]': ['c.css', '3.js'] }), ssgManifest: ssgManifest(['/[[...slug]]']) })
  expect(baseOf(interleaved.buildManifest)).toMatchObject({ '/login': ['a.css', 'b.css', '1.js', '2.js'], '/[[...slug]]': ['c.css', '3.js'] })
  expect(interleaved.buildManifest).toBe(other.buildManifest)
})

test("Next's router still splits a route's files into scripts and style sheets by extension (else their order would matter)", () => {
  const loader = fs.readFileSync(require.resolve('next/dist/client/route-loader.js'), 'utf8')
  expect(loader).toContain("scripts: allFiles.filter((v)=>v.endsWith('.js'))")
  expect(loader).toContain("css: allFiles.filter((v)=>v.endsWith('.css'))")
})

test('the docs route names no page: its pattern is public, and every audience gets its navigation without a route of its own', () => {
  const fragment = { items: [{ name: 'intro', route: '/docs/leads/intro' }], order: {} }
  const split = splitRouteManifests({
    access,
    audiences,
    buildId: 'b',
    buildManifest: buildManifest({ '/login': ['1.js'], '/[[...slug]]': ['2.js'] }),
    ssgManifest: ssgManifest(['/[[...slug]]']),
    pageMaps: new Map([['prefix /docs/leads -> leadsUsers', fragment]]),
  })
  expect(Object.keys(baseOf(split.buildManifest))).toEqual(expect.arrayContaining(['/login', '/[[...slug]]']))
  const self: { __SSG_MANIFEST?: Set<string> } = {}
  vm.runInNewContext(split.ssgManifest, { self })
  expect([...self.__SSG_MANIFEST!]).toEqual(['/[[...slug]]'])
  expect(split.parts).toHaveLength(1)
  expect(split.parts[0].route).toBe('/docs/leads')
  expect(split.parts[0].source).toContain('"route":"/docs/leads/intro"')
})

test("an audience's script keeps its name and governing route when its pages change; only what it holds changes", () => {
  const split = (items: Array<{ name: string; route: string; title: string }>) =>
    splitRouteManifests({
      access,
      audiences,
      buildId: 'b',
      buildManifest: buildManifest({ '/login': ['1.js'], '/[[...slug]]': ['2.js'] }),
      ssgManifest: ssgManifest(['/[[...slug]]']),
      pageMaps: new Map([['prefix /docs/leads -> leadsUsers', { items: items.map(({ name, route, title }) => ({ name, route, frontMatter: { title } })), order: {} }]]),
    }).parts
  const before = split([{ name: 'intro', route: '/docs/leads/intro', title: 'Intro' }])
  // A page added before the first, and a title changed.
  const after = split([{ name: 'added', route: '/docs/leads/added', title: 'Added' }, { name: 'intro', route: '/docs/leads/intro', title: 'Introduction' }])
  expect(after.map(({ key, route }) => [key, route])).toEqual(before.map(({ key, route }) => [key, route]))
  expect(after[0].key).toBe('/_next/static/b/_routes/leads.js')
  expect(after[0].source).not.toBe(before[0].source)
})

test('a route of no audience of the plan fails, naming its rule', () => {
  expect(() =>
    splitRouteManifests({ access, audiences: [], buildId: 'b', buildManifest: buildManifest({ '/login': ['1.js'], '/': ['2.js'] }), ssgManifest: ssgManifest([]) })
  ).toThrow(/no audience of the plan is governed by "exact \/ -> signedIn"/)
})
