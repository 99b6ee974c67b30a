/**
 * Links to a page's headings in Chromium against the audit build. Every id of a page carries the
 * clobber prefix (`user-content-…`, pipeline/compile/pageSanitizer.mjs), so no element of a page
 * can take the name of one of the site's (`__next`, `__NEXT_DATA__`). The table of contents and
 * the headings' anchors link to the prefixed ids; a deep link without the prefix (an older link,
 * `/docs/x#heading`) still reaches the heading (lib/render/useUnprefixedHash.ts).
 */
import type { Browser, Page } from 'playwright-core'
import { launchBrowser, signInThroughForm, watchErrors } from './browser'
import { siteEnv } from './siteEnv'

let browser: Browser
let page: Page
let errors: string[]
const { siteUrl } = siteEnv()

const PAGE = '/docs/internal/data-lake/integration-sources/hoowla/case-enrichements'
const HEADING = 'enrichment-watermark-reconciliation'

beforeAll(async () => {
  browser = await launchBrowser()
})
afterAll(async () => {
  await browser?.close()
})
beforeEach(async () => {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } })
  page = await context.newPage()
  errors = watchErrors(page)
  await signInThroughForm(page, 'internal1', PAGE)
  await page.getByRole('heading', { level: 1 }).first().waitFor()
})
afterEach(async () => {
  await page.context().close()
})

/** Waits until the heading with `id` is in the top of the window, the page scrolled to it. */
async function headingInView(id: string) {
  await page.waitForFunction(
    (target) => {
      const top = document.getElementById(target)?.getBoundingClientRect().top ?? -1
      return window.scrollY > 0 && top >= 0 && top < 400
    },
    id,
    { timeout: 5000 }
  )
}

test("the page's headings have prefixed ids, and the Next data and root are the site's, once", async () => {
  // Headings only: the theme's own components in the article (Headless UI's tabs) make ids of their own.
  const ids = await page.locator('article :is(h2, h3, h4, h5, h6)[id]').evaluateAll((elements) => elements.map((element) => element.id))
  expect(ids.length).toBeGreaterThan(0)
  expect(ids.filter((id) => !id.startsWith('user-content-'))).toEqual([])
  await expect(page.locator('[id="__NEXT_DATA__"]').evaluateAll((elements) => elements.map((element) => element.tagName))).resolves.toEqual(['SCRIPT'])
  await expect(page.locator('[id="__next"]').count()).resolves.toBe(1)
  expect(errors).toEqual([])
})

test('the table of contents and the heading anchors link to the prefixed ids, and a click lands on the heading', async () => {
  const link = page.locator('.site-toc a', { hasText: 'Enrichment watermark reconciliation' })
  await expect(link.getAttribute('href')).resolves.toBe(`#user-content-${HEADING}`)
  await expect(page.locator(`#user-content-${HEADING} a.subheading-anchor`).getAttribute('href')).resolves.toBe(`#user-content-${HEADING}`)
  await link.click()
  await page.waitForURL((url) => url.hash === `#user-content-${HEADING}`)
  await headingInView(`user-content-${HEADING}`)
  expect(errors).toEqual([])
})

test('a deep link without the prefix opens the page at the heading', async () => {
  await page.goto(`${siteUrl}${PAGE}#${HEADING}`)
  await page.getByRole('heading', { level: 1 }).first().waitFor()
  await headingInView(`user-content-${HEADING}`)
  expect(new URL(page.url()).hash).toBe(`#${HEADING}`)
  expect(errors).toEqual([])
})

test('a link without the prefix from another page lands on the heading after the move', async () => {
  await page.goto(`${siteUrl}/docs/internal/intro`)
  await page.getByRole('heading', { level: 1 }).first().waitFor()
  // A client-side move, as a writer's link to `/docs/…#heading` makes it.
  await page.evaluate((href) => (window as unknown as { next: { router: { push: (url: string) => Promise<boolean> } } }).next.router.push(href), `${PAGE}#${HEADING}`)
  await page.waitForURL((url) => url.pathname === PAGE)
  await headingInView(`user-content-${HEADING}`)
  expect(errors).toEqual([])
})
