/**
 * A reader's session in the browser: what Next's route manifest and the navigation know of, client-side navigation
 * within the reader's sections, and reading on past a token's expiry.
 */
import type { Page, Request } from 'playwright-core'
import { TOKEN_MINUTES } from '../lib/auth/authSettings'
import { setGroupMembership } from '../scripts/audit/cognitoSession'
import { freshPagePerTest, signInThroughForm, watchErrors } from './browser'
import { siteEnv } from './siteEnv'

const { siteUrl, cognitoUrl, homeIndex } = siteEnv()
const currentPage = freshPagePerTest()
let page: Page
beforeEach(() => {
  page = currentPage()
})

/** The routes Next's client-side route manifest holds once it has loaded. */
async function manifestRoutes(): Promise<string[]> {
  await page.waitForFunction(() => (window as unknown as { __BUILD_MANIFEST?: unknown }).__BUILD_MANIFEST !== undefined)
  return page.evaluate(() => Object.keys((window as unknown as { __BUILD_MANIFEST: Record<string, unknown> }).__BUILD_MANIFEST).filter((key) => key.startsWith('/')))
}

/** The page routes of the navigation fragments (one per audience) that the reader's route manifests brought. */
async function fragmentRoutes(): Promise<string[]> {
  await page.waitForFunction(() => ((window as unknown as { __docsPageMaps?: unknown[] }).__docsPageMaps ?? []).length > 0)
  return page.evaluate(() => {
    type Item = { route?: string; children?: Item[] }
    const routes = (items: Item[]): string[] => items.flatMap((item) => (item.children ? routes(item.children) : item.route ? [item.route] : []))
    return ((window as unknown as { __docsPageMaps: Array<{ items: Item[] }> }).__docsPageMaps).flatMap((fragment) => routes(fragment.items))
  })
}

/** Every docs page is served by this one route: its pattern names no page. */
const DOCS_ROUTE = '/[[...slug]]'

test('the sign-in page gives an anonymous visitor a route manifest of the public pages only', async () => {
  await page.goto(siteUrl + '/login')
  // The public pages (the sign-in, error and AI-tool pages), Next's error page and the docs route's pattern.
  expect((await manifestRoutes()).sort()).toEqual([...siteEnv().access.publicPaths, '/_error', DOCS_ROUTE].sort())
})

test("leads1's route manifest names no page, and its navigation holds the leads pages and the home page, and no other section", async () => {
  await signInThroughForm(page, 'leads1', '/docs/leads/intro')
  expect((await manifestRoutes()).filter((route) => !siteEnv().access.publicPaths.has(route)).sort()).toEqual(['/_error', DOCS_ROUTE].sort())
  const routes = await fragmentRoutes()
  expect(routes).toEqual(expect.arrayContaining(['/', '/docs/leads/intro', '/docs/leads/endpoints/create-quote']))
  expect(routes.filter((route) => /^\/docs\/(internal|support-twilio)|^\/docs$/.test(route))).toEqual([])
})

test('admin moves between sections client-side: the page is never reloaded', async () => {
  await signInThroughForm(page, 'admin', '/docs/leads/intro')
  await page.getByRole('heading', { level: 1, name: 'Leads API introduction' }).waitFor()
  await manifestRoutes()
  // A full page load would forget this.
  await page.evaluate(() => ((window as unknown as { __sameDocument: boolean }).__sameDocument = true))
  await page.locator('.nextra-nav-container').getByRole('link', { name: 'Internal', exact: true }).click()
  await page.waitForURL(/\/docs\/internal\/intro$/)
  await page.getByRole('heading', { level: 1 }).filter({ hasText: 'Internal' }).first().waitFor()
  expect(await page.evaluate(() => (window as unknown as { __sameDocument?: boolean }).__sameDocument)).toBe(true)
})

test(`a reader whose ID token has expired (${TOKEN_MINUTES} minutes) keeps reading: the tokens renew once, with no password and no loop`, async () => {
  const errors = watchErrors(page)
  await signInThroughForm(page, 'leads1', '/docs/leads/intro')
  const idToken = async () => (await page.context().cookies()).find((cookie) => cookie.name.endsWith('.leads1.idToken'))?.value
  const before = await idToken()
  const renewals: Request[] = []
  page.on('request', (request) => {
    if (request.url().startsWith(cognitoUrl) && request.method() === 'POST' && /GetTokensFromRefreshToken|InitiateAuth/.test(request.headers()['x-amz-target'] ?? '')) renewals.push(request)
  })
  // The computer's clock moves past the token's expiry.
  await page.clock.install({ time: Date.now() + (TOKEN_MINUTES + 1) * 60_000 })
  await page.goto(siteUrl + '/docs/leads/environments')
  await page.getByRole('heading', { level: 1 }).first().waitFor()
  await page.waitForFunction((old) => !document.cookie.includes(`${old}`), before)
  expect(await idToken()).not.toBe(before)
  // Give a loop time to show itself, then read on.
  await page.waitForTimeout(2000)
  expect(renewals.map((request) => request.headers()['x-amz-target'])).toEqual(['AWSCognitoIdentityProviderService.GetTokensFromRefreshToken'])
  await page.locator('.nextra-nav-container').getByText('leads1', { exact: true }).waitFor()
  await page.goto(siteUrl + '/docs/leads/intro')
  await page.getByRole('heading', { level: 1, name: 'Leads API introduction' }).waitFor()
  expect(new URL(page.url()).pathname).toBe('/docs/leads/intro')
  expect(renewals).toHaveLength(1)
  expect(errors).toEqual([])
})

test('a reader whose sign-in cookies grew too large is told so, clears them with one button and can sign in again', async () => {
  await signInThroughForm(page, 'leads1', '/docs/leads/intro')
  const { hostname } = new URL(siteUrl)
  // Stale cookies from earlier sessions pile up until the Cookie header is about 18 kB: more than
  // the authorizer reads (16 KiB), less than CloudFront accepts (20 KiB).
  const stored = await page.evaluate(() => document.cookie.length)
  const stale = Math.floor((18 * 1024 - stored) / 1060)
  await page.context().addCookies(
    Array.from({ length: stale }, (_, at) => ({ name: `CognitoIdentityServiceProvider.stale${at}.idToken`, value: 'x'.repeat(1000), domain: hostname, path: '/' }))
  )
  expect(await page.evaluate(() => document.cookie.length)).toBeGreaterThan(16 * 1024)
  await page.goto(siteUrl + '/docs/leads/environments')
  await page.waitForURL(/\/session-too-large$/)
  await page.getByRole('button', { name: 'Clear sign-in cookies and sign in again' }).click()
  await page.waitForURL(/\/login/)
  expect((await page.context().cookies()).filter((cookie) => cookie.name.startsWith('CognitoIdentityServiceProvider.'))).toEqual([])
  await signInThroughForm(page, 'leads1', '/docs/leads/intro')
  expect(new URL(page.url()).pathname).toBe('/docs/leads/intro')
})

test('supportlead reads the support docs through the support-team group, and loses them at the first token refresh after leaving it', async () => {
  const supportIndex = '/docs/support-twilio/_pagefind/0/pagefind-entry.json'
  await signInThroughForm(page, 'supportlead', '/docs/support-twilio/intro')
  expect(new URL(page.url()).pathname).toBe('/docs/support-twilio/intro')
  await page.locator('.nextra-nav-container').getByRole('link', { name: 'Twilio support', exact: true }).waitFor()
  const view = await page.evaluate(async () => (await fetch('/_reader.json')).json())
  expect(view.search.map((index: { basePath: string }) => index.basePath)).toEqual([homeIndex, '/docs/support-twilio/_pagefind/'])
  expect(await page.evaluate(async (url) => (await fetch(url)).status, supportIndex)).toBe(200)

  await setGroupMembership(cognitoUrl, 'supportlead', 'support-team', false)
  try {
    const idToken = async () => (await page.context().cookies()).find((cookie) => cookie.name.endsWith('.supportlead.idToken'))?.value
    const before = await idToken()
    // Until the token is renewed the old one still grants the group; past its expiry it is renewed without it.
    await page.clock.install({ time: Date.now() + (TOKEN_MINUTES + 1) * 60_000 })
    await page.goto(siteUrl + '/')
    await page.waitForFunction((old) => !document.cookie.includes(`${old}`), before)
    await page.getByText('Your account has no documentation sections yet').waitFor()
    expect(await page.evaluate(async (url) => (await fetch(url)).status, supportIndex)).toBe(403)
    await page.goto(siteUrl + '/docs/support-twilio/intro')
    await page.waitForURL(/\/unauthorized/)
  } finally {
    await setGroupMembership(cognitoUrl, 'supportlead', 'support-team', true)
  }
})
