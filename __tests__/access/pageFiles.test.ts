/** @jest-environment node */
/**
 * A page's two files as Next's static export names them, and the page a file of that name is
 * (lib/access/pageFiles.ts): what the edge serves for a route and decides a data file by, what the
 * page preloads, and what the build keeps of the last out/.
 */
// What Next's export names a page's HTML by, and its router a page's data file by.
import { normalizePagePath } from 'next/dist/shared/lib/page-path/normalize-page-path'
import getAssetPathFromRoute from 'next/dist/shared/lib/router/utils/get-asset-path-from-route'
import { governingRoute } from '../../lib/access/governingRoute'
import { objectKeyFor } from '../../lib/access/objectKey'
import { NotCanonicalRouteError, pageDataFile, pageHtmlFile, routeOfDataFile, routeOfHtmlFile } from '../../lib/access/pageFiles'
import { markdownKeyOf } from '../../lib/pathFormats'

const BUILD = 'b1d2'
/** The home page, a section's page, a nested one, a folder named `index` below the top and at the top, and a route with a non-ASCII character. */
const ROUTES = ['/', '/docs', '/docs/leads/intro', '/docs/leads/api/v2/calls', '/docs/index/x', '/index/x', '/index/index/y', '/docs/café']

test('the files of `/` are index.*; of any other route, the route', () => {
  expect(pageHtmlFile('/')).toBe('/index.html')
  expect(pageDataFile(BUILD, '/')).toBe('/_next/data/b1d2/index.json')
  expect(pageHtmlFile('/docs/leads/intro')).toBe('/docs/leads/intro.html')
  expect(pageDataFile(BUILD, '/docs/leads/api/v2/calls')).toBe('/_next/data/b1d2/docs/leads/api/v2/calls.json')
  expect(pageDataFile(BUILD, '/docs/index/x')).toBe('/_next/data/b1d2/docs/index/x.json')
})

test("every route's files are named as Next's router and export name them, a top `index` folder with a second one", () => {
  for (const route of ROUTES) {
    expect([route, pageHtmlFile(route)]).toEqual([route, `${normalizePagePath(route)}.html`])
    expect([route, pageDataFile(BUILD, route)]).toEqual([route, `/_next/data/${BUILD}${getAssetPathFromRoute(route, '.json')}`])
  }
  // So the home page's files and those of a top folder named `index` never meet.
  expect(pageHtmlFile('/index/x')).toBe('/index/index/x.html')
})

test('a route that is not canonical is refused, naming it: `/docs/x/index` is a spelling of `/docs/x`', () => {
  for (const route of ['/docs/x/index', '/index', '/docs/X', '/docs/x/', 'docs/x', '/docs/caf%C3%A9']) {
    expect(() => pageDataFile(BUILD, route)).toThrow(NotCanonicalRouteError)
    expect(() => pageHtmlFile(route)).toThrow(`"${route}" is not a canonical route`)
  }
})

test('each file is its page again, both directions round-trip', () => {
  for (const route of ROUTES) {
    expect([route, routeOfHtmlFile(pageHtmlFile(route))]).toEqual([route, route])
    expect([route, routeOfDataFile(pageDataFile(BUILD, route))]).toEqual([route, route])
    // The edge serves a route's request from its HTML file and decides its data file as that route.
    expect([route, objectKeyFor(route)]).toEqual([route, pageHtmlFile(route)])
    expect([route, governingRoute(pageDataFile(BUILD, route), {})]).toEqual([route, route])
    // Its Markdown too, with no entry baked for it: a folder's index page's lies outside the folder.
    expect([route, governingRoute(markdownKeyOf(route), {})]).toEqual([route, route])
  }
  expect(governingRoute('/docs/internal/alpha.MD', {})).toBe('/docs/internal/alpha')
})

test('a file is its page in any case and encoding a request may spell it with', () => {
  expect(routeOfDataFile('/_next/data/b1d2/DOCS/Leads/Intro.json')).toBe('/docs/leads/intro')
  expect(routeOfDataFile('/_next/data/b1d2/docs/caf%C3%A9.json')).toBe('/docs/café')
  expect(routeOfDataFile('/_next/data/b1d2/INDEX.json')).toBe('/')
  expect(routeOfHtmlFile('/docs/leads/intro.HTML')).toBe('/docs/leads/intro')
  // A name only a non-canonical route would have is its canonical route's, as the rules read it.
  expect(routeOfDataFile('/_next/data/b1d2/docs/x/index.json')).toBe('/docs/x')
})

test("a name no page's files have is no page: not a page's file, or a top `index` folder without its second one", () => {
  for (const key of ['/_next/data/b1d2/index/x.json', '/index/x.html', '/_next/data/b1d2/docs/x.js', '/docs/x.json', '/_next/data/docs.json', '/docs/x.md']) {
    expect([key, routeOfDataFile(key) ?? routeOfHtmlFile(key)]).toEqual([key, null])
  }
  // A bad encoding reads as no page (normalisePath refuses it).
  expect(routeOfDataFile('/_next/data/b1d2/docs/%E0%A4%A.json')).toBeNull()
})
