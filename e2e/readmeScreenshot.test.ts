/**
 * The README's picture of the product, taken from the built site on every run so that it stays
 * true: a changed layout shows as a changed image in review. leads1 signs in and opens the leads
 * introduction, a page the audit build leaves as it ships (its markers are in other pages, and the
 * leads image's marker is an SVG comment, which draws nothing), but for the separator the audit
 * plants in the section's sidebar, which the test takes out of the picture.
 */
import fs from 'node:fs'
import path from 'node:path'
import { PLANTED_MARKER } from '../scripts/audit/markers'
import { launchBrowser, signInThroughForm } from './browser'

/** Where the README links the image. */
export const SCREENSHOT = path.resolve(__dirname, '../docs/images/docs-page.png')

test('leads1 reading the leads introduction, as the README shows it', async () => {
  const browser = await launchBrowser()
  try {
    // A fixed window, light colours and no motion, so the same site draws the same picture.
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, deviceScaleFactor: 1, colorScheme: 'light', reducedMotion: 'reduce', locale: 'en-GB', timezoneId: 'UTC' })
    const page = await context.newPage()
    await signInThroughForm(page, 'leads1', '/docs/leads/intro')
    await page.getByRole('heading', { level: 1, name: 'Leads API introduction' }).waitFor()
    // The reader is known (their menu is in the navbar), and the page's images and fonts are drawn.
    await page.locator('.nextra-nav-container').getByText('leads1', { exact: true }).waitFor()
    await page.waitForLoadState('networkidle')
    await page.evaluate(async () => {
      await document.fonts.ready
      await Promise.all([...document.images].map((image) => (image.complete ? null : new Promise((done) => image.addEventListener('load', done, { once: true })))))
      window.scrollTo(0, 0)
    })
    // The separator the audit plants in the section's own _meta (scripts/audit/buildAuditSite.ts
    // markMeta) is no part of the shipped site: it goes from the picture, as nothing else may.
    await page.evaluate(() => {
      for (const item of document.querySelectorAll('.nextra-sidebar-container li')) if (/^leakmeta\w+$/.test((item as HTMLElement).innerText.trim())) item.remove()
    })
    // What the picture shows is what a reader of the shipped site sees: no audit marker.
    await expect(page.locator('body').innerText()).resolves.not.toMatch(PLANTED_MARKER)
    const image = await page.screenshot({ animations: 'disabled', caret: 'hide' })
    fs.mkdirSync(path.dirname(SCREENSHOT), { recursive: true })
    fs.writeFileSync(SCREENSHOT, image)
    expect(image.length).toBeGreaterThan(10_000)
  } finally {
    await browser.close()
  }
})
