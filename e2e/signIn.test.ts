/** Issue flows, as a person would do them: sign in, read, get turned away, sign out. */
import type { Page } from 'playwright-core'
import { isSiteCode } from '../edge/cacheHeaders'
import { freshPagePerTest, signInThroughForm } from './browser'
import { PASSWORD, siteEnv } from './siteEnv'

const { siteUrl } = siteEnv()
const currentPage = freshPagePerTest()
let page: Page
beforeEach(() => {
  page = currentPage()
})

test('leads1 signs in through the form and lands on the leads docs they asked for', async () => {
  await signInThroughForm(page, 'leads1', '/docs/leads/intro')
  expect(new URL(page.url()).pathname).toBe('/docs/leads/intro')
  await page.getByRole('heading', { level: 1, name: 'Leads API introduction' }).waitFor()
  await page.locator('.nextra-nav-container').getByText('leads1', { exact: true }).waitFor()
  // Only the leads tab: no link to a section leads1 may not open is rendered.
  await expect(page.locator('a[href^="/docs/internal"], a[href^="/docs/support-twilio"]').count()).resolves.toBe(0)
})

test('leads1 opening an internal page lands on /unauthorized, which names them', async () => {
  await signInThroughForm(page, 'leads1', '/docs/leads/intro')
  await page.goto(siteUrl + '/docs/internal/intro')
  await page.waitForURL(/\/unauthorized/)
  await page.getByText('You are signed in as').waitFor()
  await expect(page.getByText('You are signed in as').textContent()).resolves.toContain('leads1')
  await expect(page.content()).resolves.not.toContain('Data lake')
})

test('signing out lands on /login, and the docs then ask for sign-in again', async () => {
  await signInThroughForm(page, 'leads1', '/docs/leads/intro')
  await page.getByRole('button', { name: 'Sign out' }).click()
  await page.waitForURL(/\/login/)
  const cookies = await page.context().cookies()
  expect(cookies.filter((cookie) => cookie.name.endsWith('.idToken'))).toEqual([])
  await page.goto(siteUrl + '/docs/leads/intro')
  await page.waitForURL(/\/login\?next=%2Fdocs%2Fleads%2Fintro/)
})

test("after signing out, Back asks the edge for the page the reader left, and shows none of it", async () => {
  await signInThroughForm(page, 'leads1', '/docs/leads/intro')
  // A page opened whole: after the sign-out, Back would take it from the browser's cache if it could.
  await page.goto(siteUrl + '/docs/leads/environments')
  await page.getByRole('heading', { level: 1 }).waitFor()
  await page.getByRole('button', { name: 'Sign out' }).click()
  await page.waitForURL(/\/login/)
  const shown: string[] = []
  page.on('response', (response) => {
    if (new URL(response.url()).pathname.startsWith('/docs/')) shown.push(`${response.status()} ${new URL(response.url()).pathname}`)
  })
  await page.goBack()
  await page.waitForURL(/\/login\?next=%2Fdocs%2Fleads%2Fenvironments/)
  // The edge answered: a redirect, not the page from the disk cache (200) or from the back/forward cache (no response).
  expect(shown).toEqual(['302 /docs/leads/environments'])
})

test("after signing out, the browser's cache gives the next person none of the files the reader fetched (search, navigation, images)", async () => {
  const fetched = new Set<string>()
  page.on('response', (response) => {
    const url = new URL(response.url())
    if (url.origin === new URL(siteUrl).origin && response.status() === 200) fetched.add(url.pathname)
  })
  await signInThroughForm(page, 'leads1', '/docs/leads/intro')
  await page.getByRole('heading', { level: 1, name: 'Leads API introduction' }).waitFor()
  const searchBox = page.locator('.nextra-nav-container').getByRole('combobox', { name: 'Search documentation' })
  await searchBox.click()
  await searchBox.fill('quote')
  await page.locator('.nextra-nav-container .site-search-panel [role="option"]').first().waitFor({ timeout: 20000 })
  await page.getByRole('button', { name: 'Sign out' }).click()
  await page.waitForURL(/\/login/)
  // The route manifest, the search files and the page's image were fetched while signed in.
  const kinds = (paths: string[]) => ['/_routes/', '/_pagefind/', '/images/'].filter((kind) => paths.some((path) => path.includes(kind)))
  expect(kinds([...fetched])).toEqual(['/_routes/', '/_pagefind/', '/images/'])
  // What someone at this browser's console gets from its cache, and what the edge gives them now.
  const answers = await page.evaluate(
    (paths) =>
      Promise.all(
        paths.map(async (path) => {
          const cached = await fetch(path, { cache: 'force-cache', redirect: 'manual' })
          const fresh = await fetch(path, { cache: 'no-store', redirect: 'manual' })
          return { path, cached: cached.status, fresh: fresh.status }
        })
      ),
    [...fetched]
  )
  // A file the edge now refuses (401 or 403; a redirect would read as 0) must not come from the
  // cache either, but the site's own code, the same for every reader.
  expect(answers.filter((answer) => answer.fresh !== 200 && answer.cached === 200 && !isSiteCode(decodeURIComponent(answer.path)))).toEqual([])
  expect(answers.filter((answer) => answer.fresh !== 200).length).toBeGreaterThan(0)
})

test('signing out in one tab reloads the other: nothing it fetched for the reader stays in its memory for the next one', async () => {
  await signInThroughForm(page, 'admin', '/docs/leads/intro')
  const other = await page.context().newPage()
  try {
    await other.goto(siteUrl + '/docs/internal/intro')
    await other.getByRole('heading', { level: 1 }).first().waitFor()
    // What the tab holds of the reader's: its navigation fragments, and Next's page data (this page's, and those it prefetched).
    const held = () =>
      other.evaluate(() => {
        const tab = window as unknown as { __docsPageMaps?: unknown[]; next?: { router?: { sdc?: Record<string, unknown> } }; __sameDocument?: boolean }
        return { sameDocument: tab.__sameDocument === true, internal: /\/docs\/internal/.test(JSON.stringify([tab.__docsPageMaps ?? [], Object.keys(tab.next?.router?.sdc ?? {})])) }
      })
    await other.waitForFunction(() => ((window as unknown as { __docsPageMaps?: unknown[] }).__docsPageMaps ?? []).length > 0)
    await other.evaluate(() => ((window as unknown as { __sameDocument: boolean }).__sameDocument = true))
    expect(await held()).toEqual({ sameDocument: true, internal: true })
    await page.getByRole('button', { name: 'Sign out' }).click()
    await other.waitForURL(/\/login\?next=%2Fdocs%2Finternal%2Fintro/)
    await other.getByLabel('Username').waitFor()
    expect(await held()).toEqual({ sameDocument: false, internal: false })
  } finally {
    await other.close()
  }
})

test('outsider sees the home page and nothing else', async () => {
  await signInThroughForm(page, 'outsider', '/')
  expect(new URL(page.url()).pathname).toBe('/')
  await page.getByText('Your account has no documentation sections yet').waitFor()
  await expect(page.locator('a[href^="/docs"]').count()).resolves.toBe(0)
  for (const path of ['/docs/leads/intro', '/docs/internal/intro', '/docs/support-twilio/intro', '/docs']) {
    await page.goto(siteUrl + path)
    await page.waitForURL(/\/unauthorized/)
  }
})

test('admin sees every section on the home page', async () => {
  await signInThroughForm(page, 'admin', '/')
  const cards = page.locator('.section-cards a')
  await cards.first().waitFor()
  await expect(cards.evaluateAll((links) => links.map((link) => link.getAttribute('href')))).resolves.toEqual([
    '/docs/leads/intro',
    '/docs/internal/intro',
    '/docs/support-twilio/intro',
  ])
})

test('a hostile next= is ignored after sign-in', async () => {
  await page.goto(siteUrl + '/login?next=https://evil.example/phish')
  await page.getByLabel('Username').fill('support1')
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD)
  await page.getByRole('button', { name: 'Sign in' }).click()
  await page.waitForURL((url) => url.pathname === '/' && url.host === new URL(siteUrl).host)
})

test('a wrong password shows the error in a dismissible alert', async () => {
  await page.goto(siteUrl + '/login')
  await page.getByLabel('Username').fill('leads1')
  await page.getByLabel('Password', { exact: true }).fill('wrong-password')
  await page.getByRole('button', { name: 'Sign in' }).click()
  const alert = page.locator('.amplify-alert')
  await alert.waitFor()
  await expect(alert.textContent()).resolves.toContain('Incorrect username or password')
  await alert.getByRole('button').click()
  await expect(page.locator('.amplify-alert').count()).resolves.toBe(0)
})

test('the form offers no password reset the user pool cannot finish: it says who resets one', async () => {
  await page.goto(siteUrl + '/login')
  await page.getByRole('button', { name: 'Sign In', exact: true }).waitFor()
  // The pool has no self-service recovery (infra: accountRecovery NONE), so Cognito refuses a
  // reader's reset: the form names the way that works instead of a button that leads nowhere.
  await page.getByText('Forgot your password? Ask an administrator of this site to reset it.').waitFor()
  await expect(page.getByRole('button', { name: /forgot/i }).count()).resolves.toBe(0)
  await expect(page.getByRole('link', { name: /forgot/i }).count()).resolves.toBe(0)
})
