/** @jest-environment node */
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { access } from '../../lib/access'
import type { PageMapFragment } from '../../lib/navigation/mergePageMaps'
import { sitePaths, type SitePaths } from '../../pipeline/steps/paths'
import { governingRoute } from '../../lib/access/governingRoute'
import { planAggregates } from '../../lib/access/planAggregates'
import { postbuild, PostbuildError } from '../../pipeline/steps/routesStep'

const BUILD_ID = 'b1'

const made: string[] = []
afterAll(() => made.forEach((dir) => fs.rmSync(dir, { recursive: true, force: true })))

/** A small `next build` output: one page per audience, Nextra's global files, and a home search index. */
function builtSite(): SitePaths {
  const paths = sitePaths(fs.mkdtempSync(path.join(os.tmpdir(), 'postbuild-')))
  made.push(paths.root)
  const write = (file: string, text: string) => {
    fs.mkdirSync(path.dirname(file), { recursive: true })
    fs.writeFileSync(file, text)
  }
  const pages: Record<string, string[]> = {
    '/': ['static/chunks/pages/index.js'],
    '/docs/leads/intro': ['static/chunks/pages/docs/leads/intro.js'],
    '/docs/internal/overview': ['static/chunks/pages/docs/internal/overview.js'],
    '/login': ['static/chunks/pages/login.js'],
    '/_app': ['static/chunks/pages/_app.js'],
    '/_error': [],
    '/404': [],
  }
  write(path.join(paths.out, `_next/static/${BUILD_ID}/_buildManifest.js`), `self.__BUILD_MANIFEST=${JSON.stringify({ __rewrites: { afterFiles: [] }, ...pages, sortedPages: Object.keys(pages) })};self.__BUILD_MANIFEST_CB&&self.__BUILD_MANIFEST_CB()`)
  write(path.join(paths.out, `_next/static/${BUILD_ID}/_ssgManifest.js`), 'self.__SSG_MANIFEST=new Set(["/docs/leads/_meta"]);self.__SSG_MANIFEST_CB&&self.__SSG_MANIFEST_CB()')
  for (const files of Object.values(pages)) for (const file of files) write(path.join(paths.out, '_next', file), '/* code */')
  write(path.join(paths.out, '_pagefind/pagefind-entry.json'), '{}')
  write(path.join(paths.out, '_pagefind/fragment/en_1.pf_fragment'), 'x')
  write(path.join(paths.out, 'docs/leads/_pagefind/pagefind-entry.json'), '{}')
  write(path.join(paths.out, 'index.html'), '<html></html>')
  write(path.join(paths.next, 'build-manifest.json'), JSON.stringify({ pages }))
  write(path.join(paths.next, 'react-loadable-manifest.json'), '{}')
  return paths
}

/** The planned files outside their rule's folders: here, a home index the search step wrote under /_pagefind/. */
const homeIndexFiles = (_paths: SitePaths) => ({ '/_pagefind/pagefind-entry.json': '/', '/_pagefind/fragment/en_1.pf_fragment': '/' })
const noPageMaps = new Map<string, PageMapFragment>()
/** The plan's audiences of the small site's pages: each names and governs its route manifest. */
const { audiences } = planAggregates({ access, routes: ['/', '/404', '/docs/internal/overview', '/docs/leads/intro', '/login'] })

test("maps the search step's home index to any signed-in reader and splits the route manifests", () => {
  const paths = builtSite()
  const { routes } = postbuild(paths, { access, buildId: BUILD_ID, plannedRoutes: homeIndexFiles(paths), pageMaps: noPageMaps, audiences })
  expect(routes['/_pagefind/fragment/en_1.pf_fragment']).toBe('/')
  expect(routes['/docs/leads/_pagefind/pagefind-entry.json']).toBeUndefined()
  expect(routes['/_next/static/chunks/pages/docs/leads/intro.js']).toBe('/docs/leads/intro')
  expect(JSON.parse(fs.readFileSync(paths.assetRoutes, 'utf8'))).toEqual(routes)
  const publicManifest = fs.readFileSync(path.join(paths.out, `_next/static/${BUILD_ID}/_buildManifest.js`), 'utf8')
  expect(publicManifest).toContain('/login')
  expect(publicManifest).not.toContain('/docs/')
  // Each audience's routes are in a script of their own, named by the audience and governed by its rule's own path.
  const parts = Object.entries(routes).filter(([key]) => key.includes('/_routes/'))
  expect(parts.map(([, route]) => route).sort()).toEqual(['/', '/docs/internal', '/docs/leads'])
  const home = audiences.find((audience) => audience.pages.includes('/'))!
  expect(parts.map(([key]) => key).sort()).toEqual([`/_next/static/${BUILD_ID}/_routes/${home.id}.js`, `/_next/static/${BUILD_ID}/_routes/internal.js`, `/_next/static/${BUILD_ID}/_routes/leads.js`].sort())
})

test('a planned folder governs the search files under it, whatever they are named, and may hold none yet', () => {
  const paths = builtSite()
  const { routes } = postbuild(paths, { access, buildId: BUILD_ID, plannedRoutes: { '/_pagefind/': '/', '/_empty/': '/' }, pageMaps: noPageMaps, audiences })
  expect(routes['/_pagefind/']).toBe('/')
  expect(routes['/_pagefind/fragment/en_1.pf_fragment']).toBeUndefined()
  expect(governingRoute('/_pagefind/fragment/en_1.pf_fragment', routes)).toBe('/')
  expect(governingRoute('/_pagefind/fragment/en_2ab.pf_fragment', routes)).toBe('/')
})

test('fails, naming the file, when a search file the search step wrote is not in out/', () => {
  const paths = builtSite()
  fs.rmSync(path.join(paths.out, '_pagefind'), { recursive: true })
  expect(() => postbuild(paths, { access, buildId: BUILD_ID, plannedRoutes: homeIndexFiles(paths), pageMaps: noPageMaps, audiences })).toThrow(PostbuildError)
  expect(() => postbuild(builtSite(), { access, buildId: BUILD_ID, plannedRoutes: { '/_pagefind/missing.json': '/' }, pageMaps: noPageMaps, audiences })).toThrow(/\/_pagefind\/missing\.json/)
})

test('refuses to run twice on the same out/, instead of mapping a split manifest', () => {
  const paths = builtSite()
  postbuild(paths, { access, buildId: BUILD_ID, plannedRoutes: homeIndexFiles(paths), pageMaps: noPageMaps, audiences })
  expect(() => postbuild(paths, { access, buildId: BUILD_ID, plannedRoutes: homeIndexFiles(paths), pageMaps: noPageMaps, audiences })).toThrow(/post-built already/)
})

test("each audience's page-map fragment ships in that audience's route script, and in no other file", () => {
  const paths = builtSite()
  const fragment: PageMapFragment = { items: [{ name: 'leads', route: '/docs/leads', children: [{ name: 'intro', route: '/docs/leads/intro', frontMatter: { title: 'Leadsmarker intro' } }] }], order: { '/docs/leads': { intro: 0 } } }
  const { routes, files } = postbuild(paths, { access, buildId: BUILD_ID, plannedRoutes: homeIndexFiles(paths), pageMaps: new Map([['prefix /docs/leads -> leadsUsers', fragment]]), audiences })
  const holding = files.filter((key) => fs.readFileSync(path.join(paths.out, key), 'utf8').includes('Leadsmarker'))
  expect(holding).toHaveLength(1)
  expect(holding).toEqual([`/_next/static/${BUILD_ID}/_routes/leads.js`])
  expect(routes[holding[0]]).toBe('/docs/leads')
  const manifest = fs.readFileSync(path.join(paths.out, `_next/static/${BUILD_ID}/_buildManifest.js`), 'utf8')
  expect(manifest).toContain('__docsPageMaps')
})

test("refuses a file named like a mapped one but for its case, which the edge would decide by that file's rule (a writer's Pagefind-Entry.json served as the home page's search index)", () => {
  const paths = builtSite()
  fs.writeFileSync(path.join(paths.out, '_pagefind/Pagefind-Entry.json'), '{"protected":1}')
  const run = () => postbuild(paths, { access, buildId: BUILD_ID, plannedRoutes: homeIndexFiles(paths), pageMaps: noPageMaps, audiences })
  expect(run).toThrow(/\/_pagefind\/Pagefind-Entry\.json \(named like \/_pagefind\/pagefind-entry\.json but for its case\)[\s\S]*Rename it/)
})

test('refuses a file inside a mapped folder spelt in another case', () => {
  const paths = builtSite()
  fs.mkdirSync(path.join(paths.out, '_PAGEFIND'), { recursive: true })
  fs.writeFileSync(path.join(paths.out, '_PAGEFIND/x.json'), '{}')
  expect(() => postbuild(paths, { access, buildId: BUILD_ID, plannedRoutes: { '/_pagefind/': '/' }, pageMaps: noPageMaps, audiences })).toThrow(/\/_PAGEFIND\/x\.json \(named like \/_pagefind\/ but for its case\)/)
})


test("refuses a case twin inside a section's search folder, which the routes step lists with the rest", () => {
  const paths = builtSite()
  fs.mkdirSync(path.join(paths.out, 'docs/leads/_pagefind/Index'), { recursive: true })
  fs.writeFileSync(path.join(paths.out, 'docs/leads/_pagefind/Index/x.json'), '{}')
  const run = () => postbuild(paths, { access, buildId: BUILD_ID, plannedRoutes: { '/_pagefind/': '/', '/docs/leads/_pagefind/index/': '/docs/leads' }, pageMaps: noPageMaps, audiences })
  expect(run).toThrow(/\/docs\/leads\/_pagefind\/Index\/x\.json \(named like \/docs\/leads\/_pagefind\/index\/ but for its case\)/)
})
