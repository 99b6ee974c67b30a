/** Issue flows, as a person would do them: sign in, read, get turned away, sign out. */
import type { Page } from 'playwright-core'
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
