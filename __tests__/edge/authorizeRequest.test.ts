/** @jest-environment node */
import path from 'node:path'
import { audienceSummaries, planAggregates } from '../../lib/access/planAggregates'
import { scanContent } from '../../pipeline/content/contentSource'
import shipped from '../../access.config'
import { access, compileAccess, decideAccess } from '../../lib/access'
import { READER_VIEW_PATH, decideForView, routeManifestKey } from '../../lib/access/readerView'
import { authorizeRequest, type AuthorizerDeps } from '../../edge/authorizeRequest'
import { readerViewFor, readerViewSources } from '../../edge/readerViewFor'
import type { CompiledAccess } from '../../lib/access/compileAccess'
import { ABSENT_OBJECT_KEY, OVERSIZED_COOKIES_PAGE } from '../../lib/pathFormats'
import type { AccessLogRecord } from '../../edge/accessLog'
import { createIdTokenVerifier, groupsOf } from '../../edge/tokenVerifier'
import { MAX_COOKIE_HEADER_BYTES, readRefreshToken } from '../../edge/readIdToken'
import { CLIENT, POOL, cognitoLocalKeyPair, cookiesFor, idClaims, newKeyPair, signJwt, unsignedJwt } from './tokens'

const prodKey = newKeyPair('prod-key-1')
const attackerKey = newKeyPair('prod-key-1') // same kid, different key: a forged signature

/** The shipped site's plan: what the build tells the authority about its audiences. */
const routes = scanContent(path.resolve(__dirname, '../..')).pages.map((page) => page.route)
const plan = planAggregates({ access, routes })
const homeIndex = plan.search.find((spec) => spec.pages.includes('/'))!.basePath

const deps: AuthorizerDeps = {
  access,
  assetRoutes: { '/_next/static/chunks/framework-abc.js': '/login', '/_next/static/chunks/9860-0123456789abcdef.js': '/docs/internal/intro' },
  audiences: audienceSummaries(plan),
  clientId: CLIENT,
  verifyIdToken: createIdTokenVerifier({ userPoolId: POOL, clientId: CLIENT, jwks: { keys: [prodKey.jwk as never] }, fetchUnknownKeys: false }),
}

const request = (path: string, cookie?: string, query = '') => authorizeRequest({ path, query, cookieHeaders: cookie ? [cookie] : [] }, deps)
const tokenFor = (username: string, overrides = {}) => signJwt(idClaims(username, overrides), prodKey)

describe('a valid token gets the decision of the rules', () => {
  test('leads1 reads the leads docs and is served exactly the decided file', async () => {
    expect(await request('/docs/leads/intro', cookiesFor('leads1', tokenFor('leads1')))).toEqual({ kind: 'serve', objectKey: '/docs/leads/intro.html' })
  })
  test('leads1 is sent to /unauthorized for an internal page, and gets 403 for an internal chunk', async () => {
    const cookie = cookiesFor('leads1', tokenFor('leads1'))
    expect(await request('/docs/internal/intro', cookie)).toEqual({ kind: 'redirect', location: '/unauthorized?from=%2Fdocs%2Finternal%2Fintro' })
    expect(await request('/_next/static/chunks/pages/docs/internal/intro-0123456789abcdef.js', cookie)).toEqual({ kind: 'forbidden' })
    expect(await request('/_next/static/chunks/9860-0123456789abcdef.js', cookie)).toEqual({ kind: 'forbidden' })
  })
  test("a page's data (what the browser's router fetches to move to it) is decided as its page, whatever the build", async () => {
    const leads = cookiesFor('leads1', tokenFor('leads1'))
    const internal = cookiesFor('internal1', tokenFor('internal1'))
    for (const build of ['0123456789abcdef0123', 'other-build']) {
      expect(await request(`/_next/data/${build}/docs/leads/intro.json`, leads)).toEqual({ kind: 'serve', objectKey: `/_next/data/${build}/docs/leads/intro.json` })
      expect(await request(`/_next/data/${build}/docs/internal/intro.json`, leads)).toEqual({ kind: 'forbidden' })
      expect(await request(`/_next/data/${build}/docs/internal/intro.json`, internal)).toEqual({ kind: 'serve', objectKey: `/_next/data/${build}/docs/internal/intro.json` })
      expect(await request(`/_next/data/${build}/DOCS/Internal/intro.json`, leads)).toEqual({ kind: 'forbidden' })
      // Not signed in: a bare 401, not the sign-in page (the router expects JSON).
      expect(await request(`/_next/data/${build}/docs/internal/intro.json`)).toEqual({ kind: 'unauthorized' })
      // The home page's data is `index.json`: any signed-in reader, nobody else.
      expect(await request(`/_next/data/${build}/index.json`, leads)).toEqual({ kind: 'serve', objectKey: `/_next/data/${build}/index.json` })
      expect(await request(`/_next/data/${build}/index.json`)).toEqual({ kind: 'unauthorized' })
    }
  })
  test('public files need no token', async () => {
    expect(await request('/login')).toEqual({ kind: 'serve', objectKey: '/login.html' })
    expect(await request('/_next/static/chunks/framework-abc.js')).toEqual({ kind: 'serve', objectKey: '/_next/static/chunks/framework-abc.js' })
  })
  test('an unknown file needs full access (default deny)', async () => {
    expect(await request('/secret-report.pdf', cookiesFor('internal1', tokenFor('internal1')))).toEqual({ kind: 'forbidden' })
    expect(await request('/secret-report.pdf', cookiesFor('admin', tokenFor('admin')))).toEqual({ kind: 'serve', objectKey: '/secret-report.pdf' })
  })
  test('no token redirects to /login with the path and query to come back to', async () => {
    expect(await request('/docs/leads/intro', undefined, 'tab=1')).toEqual({ kind: 'redirect', location: '/login?next=%2Fdocs%2Fleads%2Fintro%3Ftab%3D1' })
  })
})

describe('token attacks are treated as no sign-in', () => {
  const loginFor = { kind: 'redirect', location: '/login?next=%2Fdocs%2Finternal%2Fintro' }
  const attempt = (cookie: string) => request('/docs/internal/intro', cookie)

  test('a forged signature', async () => {
    expect(await attempt(cookiesFor('admin', signJwt(idClaims('admin'), attackerKey)))).toEqual(loginFor)
  })
  test('alg none', async () => {
    expect(await attempt(cookiesFor('admin', unsignedJwt(idClaims('admin'), prodKey.kid)))).toEqual(loginFor)
  })
  test('an expired token', async () => {
    const past = Math.floor(Date.now() / 1000) - 7200
    expect(await attempt(cookiesFor('admin', tokenFor('admin', { iat: past, auth_time: past, exp: past + 3600 })))).toEqual(loginFor)
  })
  test('a token without an expiry, or with one that is not a time: Cognito signs none such, and aws-jwt-verify checks exp only when present', async () => {
    for (const exp of [undefined, '9999999999', null]) expect(await attempt(cookiesFor('admin', tokenFor('admin', { exp })))).toEqual(loginFor)
  })
  test('a token for another app client', async () => {
    expect(await attempt(cookiesFor('admin', tokenFor('admin', { aud: 'someotherclient00000000000' })))).toEqual(loginFor)
  })
  test('a token from another pool (issuer)', async () => {
    expect(await attempt(cookiesFor('admin', tokenFor('admin', { iss: 'https://cognito-idp.eu-west-2.amazonaws.com/eu-west-2_Other' })))).toEqual(loginFor)
  })
  test('an access token in place of the ID token', async () => {
    const accessToken = signJwt({ ...idClaims('admin'), token_use: 'access', client_id: CLIENT, aud: undefined, username: 'admin' }, prodKey)
    expect(await attempt(cookiesFor('admin', accessToken))).toEqual(loginFor)
  })
  test("a token signed with cognito-local's public key when production keys are configured", async () => {
    const local = cognitoLocalKeyPair()
    expect(await attempt(cookiesFor('admin', signJwt(idClaims('admin'), local)))).toEqual(loginFor)
  })
  test('a token that is not a JWT', async () => {
    expect(await attempt(cookiesFor('admin', 'not.a.jwt'))).toEqual(loginFor)
    expect(await attempt(cookiesFor('admin', 'garbage'))).toEqual(loginFor)
  })
})

describe('cookie attacks', () => {
  test('a cookie name that claims another user: the reader is who the token says', async () => {
    // leads1's valid token filed under admin's name.
    const cookie = cookiesFor('admin', tokenFor('leads1'))
    expect(await request('/docs/internal/intro', cookie)).toEqual({ kind: 'redirect', location: '/unauthorized?from=%2Fdocs%2Finternal%2Fintro' })
    expect(await request('/docs/leads/intro', cookie)).toEqual({ kind: 'serve', objectKey: '/docs/leads/intro.html' })
  })
  test('an oversized cookie header is not read: a page request goes to the page that explains it (not to sign-in, which would loop), a file is refused', async () => {
    const cookie = cookiesFor('admin', tokenFor('admin')) + '; padding=' + 'x'.repeat(MAX_COOKIE_HEADER_BYTES)
    expect(await request('/docs/internal/intro', cookie)).toEqual({ kind: 'redirect', location: OVERSIZED_COOKIES_PAGE })
    expect(await request('/_next/static/chunks/9860-0123456789abcdef.js', cookie)).toEqual({ kind: 'forbidden' })
    // The explaining page and the sign-in page are public, so they load whatever the cookies.
    expect(await request(OVERSIZED_COOKIES_PAGE, cookie)).toEqual({ kind: 'serve', objectKey: `${OVERSIZED_COOKIES_PAGE}.html` })
    expect(await request('/login', cookie)).toEqual({ kind: 'serve', objectKey: '/login.html' })
  })
  test('duplicate token cookies with different values are ambiguous and ignored', async () => {
    const prefix = `CognitoIdentityServiceProvider.${CLIENT}`
    const cookie = `${cookiesFor('admin', tokenFor('admin'))}; ${prefix}.admin.idToken=${tokenFor('leads1')}`
    expect(await request('/docs/internal/intro', cookie)).toEqual({ kind: 'redirect', location: '/login?next=%2Fdocs%2Finternal%2Fintro' })
  })
  test('the same cookie sent twice with the same value still works', async () => {
    const token = tokenFor('admin')
    const cookie = `${cookiesFor('admin', token)}; ${cookiesFor('admin', token)}`
    expect(await request('/docs/internal/intro', cookie)).toEqual({ kind: 'serve', objectKey: '/docs/internal/intro.html' })
  })
  test('split across two Cookie headers, as HTTP/2 may send them', async () => {
    const [a, b] = cookiesFor('admin', tokenFor('admin')).split('; ')
    expect(await authorizeRequest({ path: '/docs/internal/intro', query: '', cookieHeaders: [a, b] }, deps)).toEqual({ kind: 'serve', objectKey: '/docs/internal/intro.html' })
  })
})

describe('path tricks get the decision of the normalised path, and serve the normalised file', () => {
  const leads = () => cookiesFor('leads1', tokenFor('leads1'))
  const cases: Array<[string, object]> = [
    ['/docs/leads/..%2finternal/intro', { kind: 'redirect', location: '/unauthorized?from=%2Fdocs%2Fleads%2F..%252finternal%2Fintro' }],
    ['/docs/leads/%2e%2e/internal/intro', { kind: 'redirect', location: '/unauthorized?from=%2Fdocs%2Fleads%2F%252e%252e%2Finternal%2Fintro' }],
    ['/docs/leads/../internal/intro', { kind: 'redirect', location: '/unauthorized?from=%2Fdocs%2Fleads%2F..%2Finternal%2Fintro' }],
    ['/DOCS/INTERNAL/intro', { kind: 'redirect', location: '/unauthorized?from=%2FDOCS%2FINTERNAL%2Fintro' }],
    ['//docs//leads//intro', { kind: 'serve', objectKey: '/docs/leads/intro.html' }],
    ['/docs/leads/intro/', { kind: 'serve', objectKey: '/docs/leads/intro.html' }],
    ['/docs/leads/intro.html', { kind: 'serve', objectKey: '/docs/leads/intro.html' }],
    ['/DOCS/LEADS/INTRO', { kind: 'serve', objectKey: '/docs/leads/intro.html' }],
    ['/docs/leadsx', { kind: 'redirect', location: '/unauthorized?from=%2Fdocs%2Fleadsx' }],
    ['/docs/leads/%252e%252e/internal/intro', { kind: 'badRequest' }],
    ['/../etc/passwd', { kind: 'badRequest' }],
  ]
  test.each(cases)('%s', async (path, expected) => {
    expect(await request(path, leads())).toEqual(expected)
  })
})

describe('verified tokens are remembered only as long as they are valid', () => {
  test('a token verified once is still refused after it expires', async () => {
    jest.useFakeTimers({ now: Date.now(), doNotFake: ['nextTick', 'setImmediate', 'queueMicrotask'] })
    try {
      const now = Math.floor(Date.now() / 1000)
      const shortLived = signJwt(idClaims('admin', { iat: now, auth_time: now, exp: now + 60 }), prodKey)
      expect(await request('/docs/internal/intro', cookiesFor('admin', shortLived))).toEqual({ kind: 'serve', objectKey: '/docs/internal/intro.html' })
      jest.setSystemTime(Date.now() + 61_000)
      expect(await request('/docs/internal/intro', cookiesFor('admin', shortLived))).toEqual({ kind: 'redirect', location: '/login?next=%2Fdocs%2Finternal%2Fintro' })
    } finally {
      jest.useRealTimers()
    }
  })
  test('a forged token that differs from a cached one only in its signature is refused', async () => {
    const good = tokenFor('admin')
    expect(await request('/docs/internal/intro', cookiesFor('admin', good))).toEqual({ kind: 'serve', objectKey: '/docs/internal/intro.html' })
    const [head, body] = good.split('.')
    const forged = `${head}.${body}.${signJwt(idClaims('admin'), attackerKey).split('.')[2]}`
    expect(await request('/docs/internal/intro', cookiesFor('admin', forged))).toEqual({ kind: 'redirect', location: '/login?next=%2Fdocs%2Finternal%2Fintro' })
  })
})

describe('the reader view: what the authority tells a browser about its reader', () => {
  const manifests = {
    '/_next/static/build1/_routes/aaaa1111.js': '/docs/leads/intro',
    '/_next/static/build1/_routes/bbbb2222.js': '/docs/internal/intro',
    '/_next/static/build1/_routes/cccc3333.js': '/',
  }
  const viewDeps: AuthorizerDeps = { ...deps, assetRoutes: { ...deps.assetRoutes, ...manifests } }
  const viewOf = async (username: string | null) => {
    const outcome = await authorizeRequest({ path: READER_VIEW_PATH, query: '', cookieHeaders: username ? [cookiesFor(username, tokenFor(username))] : [] }, viewDeps)
    if (outcome.kind !== 'view') throw new Error(`expected a view, got ${outcome.kind}`)
    return outcome.view
  }

  test('leads1 learns its own name, its section, its search indexes and its route manifests, and nothing else', async () => {
    const view = await viewOf('leads1')
    expect(view.username).toBe('leads1')
    expect(view.sections.map((section) => section.href)).toEqual(['/docs/leads/intro'])
    expect(view.search.map((index) => index.basePath)).toEqual([homeIndex, '/docs/leads/_pagefind/'])
    expect(view.llms).toEqual(['/docs/leads/llms.txt'])
    expect(view.routeManifests.sort()).toEqual(['/_next/static/build1/_routes/aaaa1111.js', '/_next/static/build1/_routes/cccc3333.js'])
    const text = JSON.stringify(view)
    for (const other of ['admin', 'leads2', 'internal1', 'support1', '/docs/internal', '/docs/support-twilio', 'bbbb2222']) expect(text).not.toContain(other)
  })

  test('a full-access reader is given every section; a signed-in reader on no list only the home page', async () => {
    expect((await viewOf('admin')).sections.map((section) => section.id)).toEqual(['leads', 'internal', 'support-twilio'])
    const outsider = await viewOf('outsider')
    expect(outsider.sections).toEqual([])
    expect(outsider.search.map((index) => index.basePath)).toEqual([homeIndex])
    expect(outsider.llms).toEqual([])
    expect(outsider.routeManifests).toEqual(['/_next/static/build1/_routes/cccc3333.js'])
  })

  test('a visitor with no valid token is told nothing but the public pages', async () => {
    const expected = { username: null, publicPaths: [...access.publicPaths], open: [], elsewhere: false, home: false, sections: [], search: [], llms: [], routeManifests: [] }
    expect(await viewOf(null)).toEqual(expected)
    const forged = await authorizeRequest({ path: READER_VIEW_PATH, query: '', cookieHeaders: [cookiesFor('admin', signJwt(idClaims('admin'), attackerKey))] }, viewDeps)
    expect(forged).toEqual({ kind: 'view', view: expected })
  })

  test.each(['admin', 'leads1', 'internal1', 'support1', 'outsider', null])('the browser decides from the view of %s as the authority decides from the lists', async (username) => {
    const view = await viewOf(username)
    const user = username === null ? null : { username }
    for (const path of ['/', '/docs', '/login', '/unauthorized', '/404', '/docs/leads/intro', '/docs/leads/endpoints/create-quote', '/docs/internal/intro', '/docs/internal/data-lake', '/docs/support-twilio/sql-queries/overall', '/secret', '/DOCS/Leads/intro.html', '/docs/leadsx']) {
      expect([path, decideForView(view, path)]).toEqual([path, decideAccess(access, path, user)])
    }
  })
})

describe('groups in the verified token', () => {
  test('cognito:groups and the federated claim (a list, or text as Cognito maps it) both count; a forged group does not', async () => {
    expect(groupsOf({ 'cognito:groups': ['support-team'] }, 'custom:groups')).toEqual(['support-team'])
    expect(groupsOf({ 'custom:groups': '[support-team, partners]' }, 'custom:groups')).toEqual(['support-team', 'partners'])
    expect(groupsOf({ 'custom:groups': 'a,b', 'cognito:groups': ['a'] }, 'custom:groups')).toEqual(['a', 'b'])
    expect(groupsOf({ 'custom:groups': 'a' }, null)).toEqual([])
    // A JSON list is read exactly: a name with a comma or quotes is one group, not two.
    expect(groupsOf({ 'custom:groups': '["support-team","Fans, partners"]' }, 'custom:groups')).toEqual(['support-team', 'Fans, partners'])
    expect(groupsOf({ 'custom:groups': '[ "a" , "b" ]' }, 'custom:groups')).toEqual(['a', 'b'])
    const viaGroup = cookiesFor('pat', tokenFor('pat', { 'cognito:groups': ['support-team'] }))
    expect(await request('/docs/support-twilio/intro', viaGroup)).toEqual({ kind: 'serve', objectKey: '/docs/support-twilio/intro.html' })
    expect(await request('/docs/internal/intro', viaGroup)).toMatchObject({ kind: 'redirect', location: expect.stringMatching(/^\/unauthorized/) })
    const forged = cookiesFor('pat', signJwt(idClaims('pat', { 'cognito:groups': ['support-team'] }), attackerKey))
    expect(await request('/docs/support-twilio/intro', forged)).toMatchObject({ kind: 'redirect', location: expect.stringMatching(/^\/login/) })
  })
})

describe('a file the build put under another rule than its own path keeps that rule in every spelling', () => {
  const page = '/docs/internal/guidelines/secrets-management'
  const restricted = compileAccess({ ...shipped, rules: [{ path: page, match: 'exact', require: 'fullAccessUsers' }, ...shipped.rules] }, {})
  const restrictedDeps: AuthorizerDeps = { ...deps, access: restricted, assetRoutes: { [`${page}.md`]: page } }
  test.each([`${page}.md`, `${page.toUpperCase()}.MD`, '/docs/internal/guidelines/Secrets-Management.md'])('internal1 is refused %s (as a path that is not there), leads1 too (as refused)', async (spelling) => {
    const outcome = await authorizeRequest({ path: spelling, query: '', cookieHeaders: [cookiesFor('internal1', tokenFor('internal1'))] }, restrictedDeps)
    expect(outcome).toEqual({ kind: 'serve', objectKey: ABSENT_OBJECT_KEY })
    expect(await authorizeRequest({ path: spelling, query: '', cookieHeaders: [cookiesFor('leads1', tokenFor('leads1'))] }, restrictedDeps)).toEqual({ kind: 'forbidden' })
  })
})

describe('a reader refused by a rule finer than what they may open around it learns nothing of it: the answer is that of a path that is not there', () => {
  const folder = '/docs/internal/data-lake'
  const page = `${folder}/data-sources`
  // The folder opened to every signed-in reader, one page of it narrowed to full access; the internal section as shipped.
  const nested = compileAccess({ ...shipped, rules: [{ path: page, match: 'exact', require: 'fullAccessUsers' }, { path: folder, match: 'prefix', require: 'signedIn' }, ...shipped.rules] }, {})
  const nestedDeps: AuthorizerDeps = { ...deps, access: nested }
  const navigate = { mode: 'navigate', dest: 'document' }
  const ask = (path: string, user: string, log?: (record: AccessLogRecord) => void) =>
    authorizeRequest({ path, query: '', cookieHeaders: [cookiesFor(user, tokenFor(user))], fetchMetadata: navigate }, nestedDeps, log)

  test('the narrowed page and its Markdown: not there, for a reader the folder lets in (leads1) and one the section does (internal1)', async () => {
    for (const user of ['leads1', 'internal1']) {
      for (const path of [page, `${page}.md`]) expect([user, path, await ask(path, user)]).toEqual([user, path, { kind: 'serve', objectKey: ABSENT_OBJECT_KEY }])
      // A made-up page beside it is the reader's to open, and so not there either, at the origin.
      expect(await ask(`${folder}/made-up`, user)).toEqual({ kind: 'serve', objectKey: `${folder}/made-up.html` })
    }
    expect(await ask(page, 'admin')).toEqual({ kind: 'serve', objectKey: `${page}.html` })
  })

  test("a folder's rule whose index page an exact rule takes still decides the folder's other pages: its readers refused a narrowed page there learn nothing of it, and their view opens the folder", async () => {
    // The folder's index page given its own rule, as docs/access.md describes; its folder opened to
    // finance, one page of it narrowed to full access; and the same on the internal section's own index page.
    const lists = { ...shipped.lists, financeUsers: 'fin1' }
    const indexed = compileAccess(
      {
        ...shipped,
        lists,
        rules: [{ path: page, match: 'exact', require: 'fullAccessUsers' }, { path: folder, match: 'exact', require: 'signedIn' }, { path: folder, match: 'prefix', require: 'financeUsers' }, { path: '/docs/internal', match: 'exact', require: 'fullAccessUsers' }, ...shipped.rules],
      },
      {}
    )
    const asUser = (path: string, user: string) => authorizeRequest({ path, query: '', cookieHeaders: [cookiesFor(user, tokenFor(user))], fetchMetadata: navigate }, { ...deps, access: indexed })
    for (const user of ['fin1', 'internal1']) {
      for (const path of [page, `${page}.md`]) expect([user, path, await asUser(path, user)]).toEqual([user, path, { kind: 'serve', objectKey: ABSENT_OBJECT_KEY }])
    }
    // A made-up page beside it: fin1's to open (not there, at the origin); for internal1, whom the
    // folder's rule refuses and the section's lets in, not there as well.
    expect(await asUser(`${folder}/made-up`, 'fin1')).toEqual({ kind: 'serve', objectKey: `${folder}/made-up.html` })
    expect(await asUser(`${folder}/made-up`, 'internal1')).toEqual({ kind: 'serve', objectKey: ABSENT_OBJECT_KEY })
    // The browser's view agrees with the authority on the folder's pages.
    const view = readerViewFor(readerViewSources(indexed, {}, audienceSummaries(planAggregates({ access: indexed, routes }))), { username: 'fin1' })
    expect(decideForView(view, `${folder}/overview`)).toBe(decideAccess(indexed, `${folder}/overview`, { username: 'fin1' }))
    expect(decideForView(view, `${folder}/overview`)).toBe('allow')
  })

  test("a rule that opens a section's images to every signed-in reader: the view of a reader who may open no page of the section names neither its path nor the section", () => {
    const images = compileAccess({ ...shipped, rules: [{ path: '/docs/internal/images', match: 'prefix', require: 'signedIn' }, ...shipped.rules] }, {})
    const sources = readerViewSources(images, {}, audienceSummaries(planAggregates({ access: images, routes })))
    // The images themselves are theirs (they follow their own path's rule); the view is only for pages.
    expect(decideAccess(images, '/docs/internal/images/data-lake-overview.svg', { username: 'outsider' })).toBe('allow')
    expect(JSON.stringify(readerViewFor(sources, { username: 'outsider' }))).not.toContain('/docs/internal')
    // A reader of the section is told of the rule, as of every rule they pass.
    expect(readerViewFor(sources, { username: 'internal1' }).open).toContainEqual({ path: '/docs/internal/images', match: 'prefix' })
  })

  test('a fallback that lets the reader in is around the sections it refuses them: a section is not there for them, as a made-up path beside it is not (a review read the section names off the answers)', async () => {
    const asUser = (access: CompiledAccess, path: string, user: string) => authorizeRequest({ path, query: '', cookieHeaders: [cookiesFor(user, tokenFor(user))], fetchMetadata: navigate }, { ...deps, access })
    const openElsewhere = compileAccess({ ...shipped, fallback: 'signedIn' }, {})
    for (const path of ['/docs/internal/intro', '/docs/support-twilio/made-up', '/docs/internal']) expect([path, await asUser(openElsewhere, path, 'leads1')]).toEqual([path, { kind: 'serve', objectKey: ABSENT_OBJECT_KEY }])
    // Beside it, a path no rule names: leads1's to open, and not at the origin.
    expect(await asUser(openElsewhere, '/docs/internalx/intro', 'leads1')).toEqual({ kind: 'serve', objectKey: '/docs/internalx/intro.html' })
    // Where a prefix rule on / leaves the fallback no path, nothing is around the section: no access, as beside it.
    const allRuled = compileAccess({ ...shipped, fallback: 'signedIn', rules: [...shipped.rules, { path: '/', match: 'prefix', require: 'fullAccessUsers' }] }, {})
    for (const path of ['/docs/internal/intro', '/docs/internalx/intro']) expect([path, await asUser(allRuled, path, 'leads1')]).toEqual([path, { kind: 'redirect', location: expect.stringMatching(/^\/unauthorized/) }])
  })

  test('the fallback that refuses the reader is around nothing, and a section rule an earlier rule shadows whole decides nothing: a reader refused a section is sent to /unauthorized', async () => {
    const asUser = (access: CompiledAccess, path: string, user: string) => authorizeRequest({ path, query: '', cookieHeaders: [cookiesFor(user, tokenFor(user))], fetchMetadata: navigate }, { ...deps, access })
    expect(await asUser(compileAccess(shipped, {}), '/docs/internal/intro', 'leads1')).toMatchObject({ kind: 'redirect', location: expect.stringMatching(/^\/unauthorized/) })
    const shadowed = compileAccess({ ...shipped, lists: { ...shipped.lists, partnerUsers: 'internal1' }, rules: [{ path: '/docs/leads', match: 'prefix', require: 'partnerUsers' }, ...shipped.rules] }, {})
    expect(await asUser(shadowed, '/docs/leads/intro', 'leads1')).toMatchObject({ kind: 'redirect', location: expect.stringMatching(/^\/unauthorized/) })
  })

  test("an audience's own files (its route manifest, its folder) that a signed-in reader may not fetch are not there, as a made-up audience's are: its id, a hash of its rule, names no rule that exists", async () => {
    const build = '0123456789abcdef0123'
    const audienceDeps: AuthorizerDeps = {
      ...nestedDeps,
      assetRoutes: { ...deps.assetRoutes, [routeManifestKey(build, 'a1111111111')]: page, '/_audiences/a1111111111/': page, [routeManifestKey(build, 'internal')]: '/docs/internal/intro' },
    }
    const fetch = (key: string, user: string | null) => authorizeRequest({ path: key, query: '', cookieHeaders: user ? [cookiesFor(user, tokenFor(user))] : [] }, audienceDeps)
    const files = (id: string) => [routeManifestKey(build, id), routeManifestKey(build, id).toUpperCase(), `/_audiences/${id}/pages.json`, `/_AUDIENCES/${id.toUpperCase()}/_pagefind/pagefind-entry.json`]
    // The narrowed page's audience (a reader the section lets in, one it does not), another section's manifest, and ids no rule has.
    for (const user of ['internal1', 'leads1']) {
      for (const key of [...files('a1111111111'), ...files('a2222222222'), routeManifestKey(build, 'nosection')]) expect([user, key, await fetch(key, user)]).toEqual([user, key, { kind: 'serve', objectKey: ABSENT_OBJECT_KEY }])
    }
    expect(await fetch(routeManifestKey(build, 'internal'), 'leads1')).toEqual({ kind: 'serve', objectKey: ABSENT_OBJECT_KEY })
    // Whoever may fetch them is served them; a visitor not signed in is asked to sign in, for the made-up as for the real.
    expect(await fetch(routeManifestKey(build, 'a1111111111'), 'admin')).toEqual({ kind: 'serve', objectKey: routeManifestKey(build, 'a1111111111') })
    for (const key of [...files('a1111111111'), ...files('a2222222222')]) expect(await fetch(key, null)).toEqual({ kind: 'unauthorized' })
  })

  test('a reader nothing around the path lets in is still sent to /unauthorized; the access log says refused either way', async () => {
    const records: AccessLogRecord[] = []
    expect(await ask('/docs/internal/intro', 'leads1', (record) => records.push(record))).toMatchObject({ kind: 'redirect', location: expect.stringMatching(/^\/unauthorized/) })
    await ask(page, 'leads1', (record) => records.push(record))
    expect(records.map(({ path, decision, outcome }) => [path, decision, outcome])).toEqual([
      ['/docs/internal/intro', 'deny', 'redirect'],
      [page, 'deny', 'forbidden'],
    ])
  })
})

describe("an audience's folder decides every file under it, whatever the search step named it", () => {
  // A leads audience's folder, one file in it the map names itself, and a public folder. Files
  // the map does not place fall to the fallback (full access only), which would refuse leads1.
  const folderDeps: AuthorizerDeps = { ...deps, assetRoutes: { '/_audiences/a1/': '/docs/leads', '/_audiences/a1/public.txt': '/login', '/_audiences/p/': '/login' } }
  const as = (username: string, path: string) => authorizeRequest({ path, query: '', cookieHeaders: [cookiesFor(username, tokenFor(username))] }, folderDeps)
  // Refused as a file that is not there: a made-up audience's answer.
  const refused = { kind: 'serve', objectKey: ABSENT_OBJECT_KEY }
  test.each(['/_audiences/a1/_pagefind/fragment/en_1a2b3c4.pf_fragment', '/_audiences/a1/_pagefind/pagefind-entry.json', '/_AUDIENCES/A1/_pagefind/index/en_9.pf_index', '/_audiences/a1/llms.txt'])(
    'leads1 may open %s, which internal1 is refused',
    async (file) => {
      expect(await as('leads1', file)).toMatchObject({ kind: 'serve' })
      expect(await as('internal1', file)).toEqual(refused)
    }
  )
  test('a file the map names keeps its own route; a folder whose name only starts alike is not governed by it', async () => {
    expect(await as('internal1', '/_audiences/a1/public.txt')).toMatchObject({ kind: 'serve' })
    expect(await as('internal1', '/_audiences/p/_pagefind/pagefind.js')).toMatchObject({ kind: 'serve' })
    expect(await as('internal1', '/_audiences/pq/_pagefind/pagefind.js')).toEqual(refused)
    expect(await as('leads1', '/_audiences/a12/llms.txt')).toEqual(refused)
  })
})

describe('/llms.txt at the root is written for the one reader who asks', () => {
  test('a reader gets the llms files of the audiences they hold and no other; a visitor, where to sign in', async () => {
    const leads = await request('/llms.txt', cookiesFor('leads1', tokenFor('leads1')))
    expect(leads.kind).toBe('llms')
    const text = (leads as { text: string }).text
    expect(text).toContain('](/docs/leads/llms.txt)')
    // The index names the parts of the audience's full text, which lie beside it under its rule.
    expect(text).not.toContain('llms-full')
    expect(text).toContain('leads1')
    expect(text).not.toMatch(/\/docs\/(internal|support-twilio)/)
    const visitor = (await request('/llms.txt')) as { kind: string; text: string }
    expect(visitor.kind).toBe('llms')
    expect(visitor.text).toContain('/login')
    expect(visitor.text).not.toContain('/docs/')
    const admin = (await request('/llms.txt', cookiesFor('admin', tokenFor('admin')))) as { text: string }
    for (const section of ['leads', 'internal', 'support-twilio']) expect(admin.text).toContain(`](/docs/${section}/llms.txt)`)
  })
})

describe('with a federated provider the site has two app clients, and a session of either is a reader', () => {
  const FEDERATED = 'federatedclient00000000000'
  const clients = [CLIENT, FEDERATED]
  const federatedDeps: AuthorizerDeps = {
    ...deps,
    clientId: clients,
    verifyIdToken: createIdTokenVerifier({ userPoolId: POOL, clientId: clients, jwks: { keys: [prodKey.jwk as never] }, fetchUnknownKeys: false, groupsClaim: 'custom:groups' }),
  }
  const federatedRequest = (path: string, cookie: string) => authorizeRequest({ path, query: '', cookieHeaders: [cookie] }, federatedDeps)
  const directoryReader = 'CompanySSO_pat'
  const federatedToken = (overrides = {}) => tokenFor(directoryReader, { aud: FEDERATED, 'custom:groups': '[support-team]', ...overrides })

  test("the federated client's ID token, in its own cookies, is the reader, with the directory's groups", async () => {
    const cookie = cookiesFor(directoryReader, federatedToken(), FEDERATED)
    expect(await federatedRequest('/docs/support-twilio/intro', cookie)).toEqual({ kind: 'serve', objectKey: '/docs/support-twilio/intro.html' })
    expect(await federatedRequest('/docs/internal/intro', cookie)).toMatchObject({ kind: 'redirect', location: expect.stringMatching(/^\/unauthorized/) })
    // The username form's reader is still one.
    expect(await federatedRequest('/docs/leads/intro', cookiesFor('leads1', tokenFor('leads1')))).toEqual({ kind: 'serve', objectKey: '/docs/leads/intro.html' })
  })

  test('without a provider the federated client is not one of the site\'s: its token is no sign-in', async () => {
    expect(await request('/docs/support-twilio/intro', cookiesFor(directoryReader, federatedToken(), FEDERATED))).toMatchObject({ kind: 'redirect', location: expect.stringMatching(/^\/login/) })
    expect(await request('/docs/support-twilio/intro', cookiesFor(directoryReader, federatedToken(), CLIENT))).toMatchObject({ kind: 'redirect', location: expect.stringMatching(/^\/login/) })
  })

  test("a token of another app client in the federated client's cookies is no sign-in", async () => {
    const cookie = cookiesFor(directoryReader, federatedToken({ aud: 'otherclient000000000000000' }), FEDERATED)
    expect(await federatedRequest('/docs/support-twilio/intro', cookie)).toMatchObject({ kind: 'redirect', location: expect.stringMatching(/^\/login/) })
  })

  test("an expired session of one client does not hide a valid one of the other", async () => {
    const expired = cookiesFor('leads1', tokenFor('leads1', { exp: Math.floor(Date.now() / 1000) - 60 }))
    const cookie = `${expired}; ${cookiesFor(directoryReader, federatedToken(), FEDERATED)}`
    expect(await federatedRequest('/docs/support-twilio/intro', cookie)).toEqual({ kind: 'serve', objectKey: '/docs/support-twilio/intro.html' })
  })

  test("the AI tools' sign-in finds the reader's refresh token with the client it belongs to", () => {
    const prefix = `CognitoIdentityServiceProvider.${FEDERATED}`
    const cookie = `${cookiesFor(directoryReader, federatedToken(), FEDERATED)}; ${prefix}.${directoryReader}.refreshToken=fed-refresh`
    expect(readRefreshToken([cookie], clients, directoryReader)).toEqual({ clientId: FEDERATED, refreshToken: 'fed-refresh' })
    expect(readRefreshToken([cookie], clients, 'leads1')).toBeNull()
    expect(readRefreshToken([cookie], CLIENT, directoryReader)).toBeNull()
    const web = `${cookiesFor('leads1', tokenFor('leads1'))}; CognitoIdentityServiceProvider.${CLIENT}.leads1.refreshToken=web-refresh`
    expect(readRefreshToken([web], clients, 'leads1')).toEqual({ clientId: CLIENT, refreshToken: 'web-refresh' })
  })
})
