/** Smoke test of the built site in Chromium: home, a page of each section, colour mode, not-found. */
import type { Browser, Page } from 'playwright-core'
import { launchBrowser, signInThroughForm } from './browser'
import { siteEnv } from './siteEnv'

let browser: Browser
let page: Page
const { siteUrl } = siteEnv()

beforeAll(async () => {
  browser = await launchBrowser()
  page = await browser.newPage({ viewport: { width: 1280, height: 800 } })
  await signInThroughForm(page, 'admin', '/')
})
afterAll(async () => {
  await browser?.close()
})

test('the home page greets the reader and links each section', async () => {
  await page.goto(siteUrl + '/')
  await page.getByRole('heading', { level: 1, name: 'Platform documentation' }).waitFor()
  await page.locator('.section-cards a').first().waitFor()
  await expect(page.locator('.section-cards a').count()).resolves.toBe(3)
  await expect(page.title()).resolves.toContain('Home')
})

test.each([
  ['/docs/leads/endpoints/create-quote', 'Create a quote', 'Leads API'],
  ['/docs/internal/data-lake/integration-sources/hoowla/case-enrichements', 'Hoowla case enrichments pipeline', 'Internal'],
  ['/docs/support-twilio/sql-queries/search-by-phone', 'Search by phone', 'Twilio support'],
])('%s renders with its section sidebar', async (path, heading, tab) => {
  await page.goto(siteUrl + path)
  await page.getByRole('heading', { level: 1, name: heading }).waitFor()
  // The active navbar tab is the section's, and the sidebar holds only that section.
  const sidebarLinks = await page.locator('aside a[href^="/docs/"]').evaluateAll((links) => links.map((link) => link.getAttribute('href') ?? ''))
  expect(sidebarLinks.length).toBeGreaterThan(0)
  expect(sidebarLinks.every((href) => href.startsWith(path.split('/').slice(0, 3).join('/')))).toBe(true)
  await expect(page.locator('.nextra-nav-container').getByRole('link', { name: tab }).count()).resolves.toBeGreaterThan(0)
  // Table of contents: levels 2 and 3 only.
  const tocDepths = await page.locator('.site-toc li').evaluateAll((items) => items.map((item) => item.className))
  expect(tocDepths.length).toBeGreaterThan(0)
  expect(tocDepths.every((name) => name === 'site-toc-depth-2' || name === 'site-toc-depth-3')).toBe(true)
})

test('the colour toggle switches to dark, and the choice survives a reload', async () => {
  await page.goto(siteUrl + '/docs/leads/intro')
  await page.getByRole('heading', { level: 1 }).waitFor()
  await expect(page.evaluate(() => document.documentElement.classList.contains('dark'))).resolves.toBe(false)
  await page.locator('aside').getByTitle('Change theme').click()
  await page.getByRole('option', { name: 'Dark' }).click()
  await expect(page.evaluate(() => document.documentElement.classList.contains('dark'))).resolves.toBe(true)
  await page.reload()
  await page.getByRole('heading', { level: 1 }).waitFor()
  await expect(page.evaluate(() => document.documentElement.classList.contains('dark'))).resolves.toBe(true)
  await expect(page.evaluate(() => localStorage.getItem('theme'))).resolves.toBe('dark')
  await page.locator('aside').getByTitle('Change theme').click()
  await page.getByRole('option', { name: 'Light' }).click()
})

test('an unknown path shows the not-found page with status 404', async () => {
  const response = await page.goto(siteUrl + '/docs/leads/no-such-page')
  expect(response?.status()).toBe(404)
  await page.getByRole('heading', { level: 1, name: 'Page not found' }).waitFor()
})

test('every page of the content and the status pages are in out/ as HTML', async () => {
  const fs = await import('node:fs')
  const path = await import('node:path')
  const { scanContent } = await import('../pipeline/content/contentSource')
  const { objectKeyFor } = await import('../lib/access/objectKey')
  const { dir, outDir } = siteEnv()
  const routes = [...scanContent(dir).pages.map((page) => page.route), '/login', '/unauthorized', '/404']
  const missing = routes.filter((route) => !fs.existsSync(path.join(outDir, objectKeyFor(route)!)))
  expect(missing).toEqual([])
  expect(routes.length).toBeGreaterThan(100)
})

test("the build's scripts hold nothing of npm run dev's: neither its events' path nor its problems' box", async () => {
  const fs = await import('node:fs')
  const path = await import('node:path')
  const { DEV_PROPS_EVENTS_PATH } = await import('../lib/render/devPropsEvents')
  const { outDir } = siteEnv()
  const scripts = (fs.readdirSync(path.join(outDir, '_next/static'), { recursive: true }) as string[]).filter((file) => file.endsWith('.js'))
  expect(scripts.length).toBeGreaterThan(10)
  const holding = scripts.filter((file) => /_dev\/props-events|did not pass the content check|dev-problems/.test(fs.readFileSync(path.join(outDir, '_next/static', file), 'utf8')))
  expect(holding).toEqual([])
  expect(DEV_PROPS_EVENTS_PATH).toBe('/_dev/props-events')
})

test('a docs page downloads no sign-in code while the session is fresh', async () => {
  // Amplify and the sign-in code load only when a session must be renewed or the reader signs
  // out; a bundler's chunking that shares them with every page costs each page ~140 kB.
  const scripts: Array<Promise<string>> = []
  const onResponse = (response: import('playwright-core').Response) => {
    if (response.request().resourceType() === 'script') scripts.push(response.text().then((text) => `${response.url()}\n${text}`))
  }
  const fresh = await browser.newPage({ viewport: { width: 1280, height: 800 } })
  await fresh.context().addCookies(await page.context().cookies())
  fresh.on('response', onResponse)
  try {
    await fresh.goto(siteUrl + '/docs/leads/intro')
    await fresh.getByRole('heading', { level: 1 }).waitFor()
    await fresh.waitForLoadState('networkidle')
    const loaded = await Promise.all(scripts)
    expect(loaded.length).toBeGreaterThan(3)
    expect(loaded.filter((script) => script.includes('cognito-idp')).map((script) => script.split('\n')[0])).toEqual([])
  } finally {
    await fresh.close()
  }
})
