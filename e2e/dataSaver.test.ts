/**
 * SPEC: prefetching is skipped on 2g or data-saver connections. Next skips only the code it would
 * prefetch there; the site's router skips the pages' data files too, which hold their text.
 */
import type { Page } from 'playwright-core'
import { freshPagePerTest, signInThroughForm } from './browser'
import { siteEnv } from './siteEnv'

const { siteUrl } = siteEnv()
const page = freshPagePerTest()
const route = '/docs/leads/intro'

/** The pages' data files the browser fetched after opening `route`, the page's own left out. */
async function prefetchedAfterOpening(tab: Page): Promise<string[]> {
  await signInThroughForm(tab, 'leads1', route)
  const fetched: string[] = []
  tab.on('request', (request) => {
    const { pathname } = new URL(request.url())
    if (pathname.startsWith('/_next/data/') && !pathname.endsWith(`${route}.json`)) fetched.push(pathname)
  })
  // A full load, then the reader's pointer on the sidebar's links, as Next prefetches them in view and on hover.
  await tab.goto(siteUrl + route)
  for (const link of (await tab.locator('aside a[href^="/docs/leads/"]').all()).slice(0, 5)) await link.hover()
  await tab.waitForTimeout(1500)
  return fetched
}

test('on an ordinary connection the pages a page links to are prefetched', async () => {
  expect((await prefetchedAfterOpening(page())).length).toBeGreaterThan(0)
})

test.each([
  ['Data Saver', { saveData: true, effectiveType: '4g' }],
  ['a 2g connection', { saveData: false, effectiveType: '2g' }],
])('with %s no page is fetched before the reader opens it, and a click still opens one', async (_name, connection) => {
  await page().addInitScript((value) => Object.defineProperty(Navigator.prototype, 'connection', { configurable: true, get: () => value }), connection)
  expect(await prefetchedAfterOpening(page())).toEqual([])
  await page().locator('aside a[href="/docs/leads/environments"]').first().click()
  await page().waitForURL(/\/docs\/leads\/environments$/)
  await page().getByRole('heading', { level: 1 }).waitFor()
})
