/**
 * Rules finer than a section, as readers meet them in Chromium. The finance audit profile gives
 * the internal section's finance folder to support1 alone (who may open nothing else of the
 * section) and restricts the secrets-management page to full access (scripts/audit/markers.ts
 * AUDIT_PROFILES). The leak audit and search tests hold for every profile; these name its pages.
 */
import fs from 'node:fs'
import path from 'node:path'
import type { Browser, Page } from 'playwright-core'
import { launchBrowser, signInThroughForm, watchErrors } from './browser'
import { siteEnv } from './siteEnv'

const { siteUrl, profile, outDir } = siteEnv()
if (profile !== 'finance') throw new Error(`e2e/finerRules.test.ts walks the finance audit profile's pages; this build is of the "${profile}" profile`)
const FINANCE = '/docs/internal/to-be-refined/finance'
let browser: Browser

beforeAll(async () => {
  browser = await launchBrowser()
})
afterAll(async () => {
  await browser?.close()
})

async function readerPage(username: string, path: string): Promise<{ page: Page; errors: string[] }> {
  const page = await (await browser.newContext({ viewport: { width: 1280, height: 800 } })).newPage()
  const errors = watchErrors(page)
  await signInThroughForm(page, username, path)
  await page.getByRole('heading', { level: 1 }).first().waitFor()
  return { page, errors }
}

/** The desktop sidebar's links, once the reader's navigation has settled. */
async function sidebarLinks(page: Page): Promise<string[]> {
  const sidebar = page.locator('aside.nextra-sidebar-container, .nextra-sidebar-container').first()
  await sidebar.waitFor()
  await page.waitForTimeout(500)
  return sidebar.locator('a').evaluateAll((links) => links.map((link) => new URL((link as HTMLAnchorElement).href).pathname))
}

/** Opens every collapsed folder of the sidebar, so its links are rendered. */
async function expandSidebar(page: Page): Promise<void> {
  for (let round = 0; round < 6; round++) {
    const closed = page.locator('.nextra-sidebar-container button[aria-expanded="false"], .nextra-sidebar-container li:not(.open) > button')
    if ((await closed.count()) === 0) return
    await closed.first().click()
    await page.waitForTimeout(100)
  }
}

test('a reader who holds only a folder of a section gets a tab for the section that opens that folder, and a sidebar of just that folder', async () => {
  const { page, errors } = await readerPage('support1', '/')
  const tab = page.locator('.nextra-nav-container').getByRole('link', { name: 'Internal' })
  await tab.waitFor()
  await tab.click()
  await page.waitForURL((url) => url.pathname.startsWith(FINANCE))
  await page.getByRole('heading', { level: 1 }).first().waitFor()
  const links = await sidebarLinks(page)
  expect(links.filter((link) => link.startsWith('/docs/internal/')).every((link) => link.startsWith(FINANCE))).toBe(true)
  expect(links).toEqual(expect.arrayContaining([`${FINANCE}/quill-crm-api`, `${FINANCE}/quill-money-api`]))
  expect(links).not.toContain('/docs/internal/intro')
  expect(errors).toEqual([])
  await page.context().close()
})

test('a full-access reader on an internal page finds the finance folder and the full-access page in its sidebar', async () => {
  const { page, errors } = await readerPage('admin', '/docs/internal/to-be-refined')
  await page.waitForFunction(() => Array.isArray((window as unknown as { __docsPageMaps?: unknown[] }).__docsPageMaps))
  await expandSidebar(page)
  const links = await sidebarLinks(page)
  expect(links).toContain('/docs/internal/to-be-refined/active-directory')
  expect(links).toContain(FINANCE)
  expect(errors).toEqual([])
  await page.goto(siteUrl + '/docs/internal/guidelines')
  await page.getByRole('heading', { level: 1 }).first().waitFor()
  await expandSidebar(page)
  expect(await sidebarLinks(page)).toContain('/docs/internal/guidelines/secrets-management')
  await page.context().close()
})

test('an internal reader sees neither the finance folder nor the full-access page, and is answered for each as for a path that is not there', async () => {
  const { page, errors } = await readerPage('internal1', '/docs/internal/to-be-refined')
  await expandSidebar(page)
  const links = await sidebarLinks(page)
  expect(links).toContain('/docs/internal/to-be-refined/active-directory')
  expect(links.filter((link) => link.startsWith(FINANCE) || link.endsWith('/secrets-management'))).toEqual([])
  // What a made-up path beside each gets: "no access" there would confirm what the reader is not shown.
  const answer = async (key: string) => {
    const response = await page.request.get(siteUrl + key, { maxRedirects: 0 })
    return [response.status(), response.headers()['content-type'], response.headers()['cache-control'], await response.text()]
  }
  const madeUp = await answer('/docs/internal/to-be-refined/no-such-page')
  const dataFolder = `/_next/data/${fs.readdirSync(path.join(outDir, '_next/data'))[0]}`
  expect(madeUp[0]).toBe(404)
  for (const path of [`${FINANCE}/quill-crm-api`, FINANCE, '/docs/internal/guidelines/secrets-management', `${FINANCE}/llms.txt`, '/docs/internal/guidelines/secrets-management.md', `${dataFolder}${FINANCE}/quill-crm-api.json`]) {
    expect([path, await answer(path)]).toEqual([path, madeUp])
  }
  // A reader of neither the folder nor anything around it is told they may not open it.
  const leads = await readerPage('leads1', '/docs/leads/intro')
  expect((await leads.page.request.get(siteUrl + `${FINANCE}/quill-crm-api`, { maxRedirects: 0 })).headers().location).toMatch(/^\/unauthorized/)
  await leads.page.context().close()
  expect(errors).toEqual([])
  await page.context().close()
})
