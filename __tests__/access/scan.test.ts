/** @jest-environment node */
import { distinctiveTitles, knownPaths, noFindings, responseText, scanServed, sectionPathsIn, titlesIn } from '../../scripts/audit/scan'

const FINANCE = '/docs/internal/to-be-refined/finance'
const PAGES = ['/docs/internal/intro', '/docs/internal/to-be-refined', `${FINANCE}`, `${FINANCE}/quill-crm-api`, '/docs/leads/intro']
/** A reader who may open the finance folder and nothing else of the internal section. */
const financeOnly = knownPaths(PAGES, (route) => route === FINANCE || route.startsWith(`${FINANCE}/`))

test('the paths a body names, in every spelling a file may hold them', () => {
  const body = `{"route":"${FINANCE}/quill-crm-api"} href="\\u002Fdocs\\u002Finternal\\u002Fintro" next=%2Fdocs%2Finternal%2Fto-be-refined`
  expect(sectionPathsIn(body, 'internal').sort()).toEqual(['/docs/internal/intro', '/docs/internal/to-be-refined', `${FINANCE}/quill-crm-api`])
})

test("a page's data file is named as its page, as the edge decides it; a bare `<route>.json` is not", () => {
  const body = `<link rel="preload" href="/_next/data/0123abcd/docs/internal/to-be-refined/finance.json"/> "/docs/internal/intro.json"`
  expect(sectionPathsIn(body, 'internal')).toEqual([FINANCE, '/docs/internal/intro.json'])
  expect(sectionPathsIn(body, 'internal').map(financeOnly)).toEqual([true, false])
})

test('a reader may know the pages it may open, their Markdown, source file and chunk, and the folders above them; nothing else', () => {
  for (const known of [`${FINANCE}/quill-crm-api`, `${FINANCE}/quill-crm-api.md`, `${FINANCE}/quill-crm-api.mdx`, `${FINANCE}/quill-crm-api-0123456789abcdef.js`, '/docs/internal/to-be-refined', '/docs/internal']) {
    expect([known, financeOnly(known)]).toEqual([known, true])
  }
  for (const unknown of ['/docs/internal/intro', '/docs/internal/intro.md', '/docs/internal/to-be-refined/active-directory', '/docs/leads/intro']) {
    expect([unknown, financeOnly(unknown)]).toEqual([unknown, false])
  }
})

test('a served file that names a page its reader may not open is a route leak, named with the file', () => {
  const findings = noFindings()
  const context = { role: 'support1', usernames: [], sections: ['internal', 'leads'], mayKnowPath: financeOnly }
  scanServed({ key: '/a.js', status: 200, cacheControl: 'private, no-cache', body: `"${FINANCE}/quill-crm-api" "/docs/internal/intro"`, protected: true }, context, findings)
  expect(findings.routesLeaked).toEqual(['/docs/internal/intro in /a.js'])
  expect([...findings.ownRoutesSeen]).toEqual(['internal'])
})

test("any response is scanned whole, headers and a refusal's body included; a redirect's next= or from= that echoes the request is the reader's own words", () => {
  const findings = noFindings()
  const context = { role: null, usernames: ['lee'], sections: ['internal'], mayKnowPath: financeOnly }
  const echo = responseText('/docs/internal/intro.html', [['location', '/login?next=%2Fdocs%2Finternal%2Fintro'], ['cache-control', 'no-store']], '')
  expect(echo).toBe('location: /login\ncache-control: no-store\n\n')
  scanServed({ key: '/docs/internal/intro', status: 302, cacheControl: 'no-store', body: echo, protected: false }, context, findings)
  const elsewhere = responseText('/docs/internal/intro', [['location', '/unauthorized?from=%2Fdocs%2Finternal%2Farchitecture'], ['link', '</docs/internal/secret>; rel=preload']], '')
  scanServed({ key: '/docs/internal/intro', status: 302, cacheControl: 'no-store', body: elsewhere, protected: false }, context, findings)
  scanServed({ key: '/x', status: 404, cacheControl: 'no-store', body: 'not here; ask lee', protected: false }, context, findings)
  expect(findings.routesLeaked).toEqual(['/docs/internal/architecture in /docs/internal/intro', '/docs/internal/secret in /docs/internal/intro'])
  expect(findings.usernamesLeaked).toEqual(['lee in /x'])
})

test("a distinctive title of a page the reader may not open is a leak, unless the reader's own pages say the same words", () => {
  const titles = distinctiveTitles([
    { route: `${FINANCE}/quill-crm-api`, title: 'Quill CRM API reference' },
    { route: '/docs/internal/intro', title: 'Internal engineering documentation' },
    { route: '/docs/internal/to-be-refined', title: 'To Be Refined' },
    { route: '/docs/internal/short', title: 'Two words' },
    { route: '/login', title: 'Sign in to the docs' },
  ])
  expect([...titles.keys()]).toEqual(['Quill CRM API reference', 'Internal engineering documentation', 'To Be Refined'])
  const mayOpen = (route: string) => route === FINANCE || route.startsWith(`${FINANCE}/`)
  const context = { mayOpen, mayKnowPath: financeOnly, prose: '' }
  const body = 'Quill CRM API reference | Internal engineering documentation | To Be Refined'
  // The folder on the way to the reader's pages is named by its slug's title, which it may know.
  expect(titlesIn(body, titles, context)).toEqual({ seen: [`${FINANCE}/quill-crm-api`], leaked: ['"Internal engineering documentation" (/docs/internal/intro)'] })
  expect(titlesIn(body, titles, { ...context, prose: 'as the Internal engineering documentation says' }).leaked).toEqual([])
})

test("a protected file the browser may keep past a sign-out is a finding, named with its header; the site's own code (content-hashed, Pagefind's engine) is not", () => {
  const findings = noFindings()
  const context = { role: 'support1', usernames: [], sections: [], mayKnowPath: financeOnly }
  const served = (key: string, cacheControl: string | null, isProtected = true) => scanServed({ key, status: 200, cacheControl, body: '', protected: isProtected }, context, findings)
  served('/docs/internal/_pagefind/fragment/en_a.pf_fragment', 'private, no-cache')
  served('/_next/static/0123456789abcdef0123/_routes/internal.js', 'private, max-age=60')
  served('/docs/internal/images/flow.png', 'private, no-store')
  served('/_next/static/chunks/pages/_app-0123456789abcdef.js', 'private, max-age=31536000, immutable')
  served('/docs/internal/_pagefind/0/wasm.en.pagefind', 'private, no-cache')
  served('/logo.svg', 'private, no-cache', false)
  served('/docs/internal/intro.html', 'public, max-age=60')
  expect(findings.storedByBrowser).toEqual(['/docs/internal/_pagefind/fragment/en_a.pf_fragment (200, private, no-cache)', '/_next/static/0123456789abcdef0123/_routes/internal.js (200, private, max-age=60)'])
  expect(findings.sharedCacheable).toEqual(['/docs/internal/intro.html (200, public, max-age=60)'])
})
