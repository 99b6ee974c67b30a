/** @jest-environment node */
import shipped from '../../access.config'
import { compileAccess, decideAccess, type AccessConfig } from '../../lib/access'
import { governingRoute } from '../../lib/access/governingRoute'
import { assetRoutesOf } from './helpers/assetRoutes'

/** A chunk the leads and internal pages share, mapped under a set of rules. */
function sharedChunkRoute(config: AccessConfig): { access: ReturnType<typeof compileAccess>; route: string } {
  const access = compileAccess(config, {})
  const routes = assetRoutesOf(access, { pages: { '/docs/leads/intro': ['static/chunks/shared-0123456789abcdef.js'], '/docs/internal/intro': ['static/chunks/shared-0123456789abcdef.js'] } })
  return { access, route: routes['/_next/static/chunks/shared-0123456789abcdef.js'] }
}

test('code that readers of different lists share reaches every signed-in reader, and no anonymous visitor', () => {
  const { access, route } = sharedChunkRoute(shipped)
  expect(route).toBe('/')
  for (const username of ['leads1', 'internal1']) expect(decideAccess(access, route, { username })).toBe('allow')
  expect(decideAccess(access, route, null)).toBe('login')
})

test('when the home page itself needs a list, shared code does not take its rule: every reader can still load it', () => {
  const { access, route } = sharedChunkRoute({ ...shipped, rules: [{ path: '/', match: 'exact', require: 'leadsUsers' }] })
  for (const username of ['leads1', 'internal1']) expect([username, decideAccess(access, route, { username })]).toEqual([username, 'allow'])
})

test("a writer's file at the root of public/ follows its own path's rule (full access), as the link check says: no file there is the site's (its logo and icon are its code)", () => {
  const access = compileAccess(shipped, {})
  const routes = assetRoutesOf(access, {})
  for (const file of ['/logo.svg', '/favicon.svg', '/internal-org-chart.png']) {
    expect(routes[file]).toBeUndefined()
    expect(decideAccess(access, file, null)).toBe('login')
    expect(decideAccess(access, file, { username: 'leads1' })).toBe('deny')
  }
})

test("an earlier build's code, kept for tabs open on its pages, reaches the readers of those tabs; its page chunk keeps its page's rule, its route manifests and anything else unknown the fallback", () => {
  const access = compileAccess(shipped, {})
  const routes = assetRoutesOf(access, { pages: { '/docs/leads/intro': ['static/chunks/69-0123456789abcdef.js'], '/docs/internal/intro': ['static/chunks/69-0123456789abcdef.js'] } })
  const decide = (key: string, reader: { username: string } | null) => decideAccess(access, governingRoute(key, routes)!, reader)
  for (const earlier of ['/_next/static/chunks/115.deadbeefdeadbeef.js', '/_next/static/css/deadbeefdeadbeef.css', '/_next/static/media/font.deadbeef.woff2']) {
    for (const username of ['leads1', 'internal1', 'support1']) expect([earlier, username, decide(earlier, { username })]).toEqual([earlier, username, 'allow'])
    expect([earlier, decide(earlier, null)]).toEqual([earlier, 'login'])
  }
  // A page's own chunk of an earlier build: its page's rule, here the sign-in page's.
  expect(decide('/_next/static/chunks/pages/login-deadbeefdeadbeef.js', null)).toBe('allow')
  // The docs route's and Next's own page code, which every page loads: shared code's rule.
  for (const shared of ['/_next/static/chunks/pages/[[...slug]]-deadbeefdeadbeef.js', '/_next/static/chunks/pages/_app-deadbeefdeadbeef.js', '/_next/static/chunks/pages/_error-deadbeefdeadbeef.js']) {
    expect([shared, decide(shared, { username: 'support1' }), decide(shared, null)]).toEqual([shared, 'allow', 'login'])
  }
  // Its build manifest, which an open tab loaded with its page, and an audience's route manifest
  // (gone at once, uploadOrder.ts): today's rule for their path, the fallback.
  expect(decide('/_next/static/OLDBUILD/_buildManifest.js', { username: 'leads1' })).toBe('deny')
  expect(decide('/_next/static/OLDBUILD/_routes/a495082fa19.js', { username: 'leads1' })).toBe('deny')
  expect(decide('/_next/data/OLDBUILD/docs/internal/intro.json', { username: 'leads1' })).toBe('deny')
})

test("the polyfills a browser without ES modules loads before any page's code are the sign-in page's, as the framework is", () => {
  const access = compileAccess(shipped, {})
  const routes = assetRoutesOf(access, { polyfillFiles: ['static/chunks/polyfills-42372ed130431b0a.js'] })
  expect(decideAccess(access, routes['/_next/static/chunks/polyfills-42372ed130431b0a.js'], null)).toBe('allow')
})
