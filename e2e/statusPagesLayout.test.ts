/** The common layout on the pages that are not docs: sign-in, no access, not found. */
import type { Page } from 'playwright-core'
import { freshPagePerTest, signInThroughForm, watchErrors } from './browser'
import { siteEnv } from './siteEnv'

const { siteUrl } = siteEnv()
const currentPage = freshPagePerTest()
let page: Page
beforeEach(() => {
  page = currentPage()
})

/** What every page carries: skip link, navbar with logo, colour mode, language and version, and the footer. */
async function expectCommonLayout() {
  await page.locator('.nextra-nav-container').waitFor()
  await expect(page.getByRole('link', { name: 'Skip to content' }).count()).resolves.toBe(1)
  // The skip link has exactly one target.
  await expect(page.locator('#reach-skip-nav').count()).resolves.toBe(1)
  await expect(page.locator('.nextra-nav-container a[href="/"]').count()).resolves.toBeGreaterThan(0)
  await page.getByTitle('Change theme').first().waitFor({ state: 'attached' })
  await page.getByRole('button', { name: 'Language: English' }).first().waitFor({ state: 'attached' })
  await page.getByRole('button', { name: 'Docs version: Next' }).first().waitFor({ state: 'attached' })
  await page.locator('footer').first().waitFor({ state: 'attached' })
  await expect(page.locator('main').count()).resolves.toBe(1)
}

// The not-found page by its own path: an unknown path needs full access, so the edge sends an
// anonymous visitor to sign in and a leads reader to /unauthorized before any "not found".
test.each(['/login', '/unauthorized', '/404'])('anonymous on %s: the common layout, and no section tab, search or user menu', async (path) => {
  const errors = watchErrors(page)
  await page.goto(siteUrl + path)
  await expectCommonLayout()
  // The reader's view has arrived (nothing more will be added), and it added nothing.
  await page.waitForFunction(() => (window as unknown as { __BUILD_MANIFEST?: unknown }).__BUILD_MANIFEST !== undefined)
  await expect(page.locator('a[href^="/docs"]').count()).resolves.toBe(0)
  await expect(page.getByPlaceholder('Search documentation…').count()).resolves.toBe(0)
  await expect(page.locator('.user-menu').count()).resolves.toBe(0)
  expect(errors).toEqual([])
})

test.each(['/unauthorized', '/404'])("leads1 on %s: the common layout with the reader's section tab, search and user menu", async (path) => {
  await signInThroughForm(page, 'leads1', '/docs/leads/intro')
  await page.goto(siteUrl + path)
  await expectCommonLayout()
  await page.locator('.nextra-nav-container').getByRole('link', { name: 'Leads API', exact: true }).waitFor()
  await page.getByPlaceholder('Search documentation…').first().waitFor({ state: 'attached' })
  await page.locator('.user-menu').getByText('leads1').waitFor()
  await expect(page.locator('a[href^="/docs/internal"], a[href^="/docs/support-twilio"]').count()).resolves.toBe(0)
})

test('a full-access reader on a path that does not exist gets the not-found page in the common layout, with every tab', async () => {
  await signInThroughForm(page, 'admin', '/')
  const response = await page.goto(siteUrl + '/no-such-page')
  expect(response?.status()).toBe(404)
  await expectCommonLayout()
  await page.getByRole('heading', { name: 'Page not found' }).waitFor()
  for (const tab of ['Leads API', 'Internal', 'Twilio support']) await page.locator('.nextra-nav-container').getByRole('link', { name: tab, exact: true }).waitFor()
})

test('the not-found link stays readable in dark mode', async () => {
  await page.emulateMedia({ colorScheme: 'dark' })
  await page.addInitScript(() => localStorage.setItem('theme', 'dark'))
  await page.goto(siteUrl + '/404')
  const link = page.getByRole('link', { name: 'Go to the home page' })
  await link.waitFor()
  const color = await link.evaluate((element) => getComputedStyle(element).color)
  // Light blue (#93c5fd), not the light theme's dark blue.
  expect(color).toBe('rgb(147, 197, 253)')
})
