/**
 * The first pages a visitor who is not signed in sees (sign-in, no access, not found, oversized
 * cookies) in Debian's Chromium: they log no console error and request nothing the visitor is
 * refused. Next's link prefetches a page's data and code as soon as the link is in view; a link to
 * the home page prefetched from the sign-in page was refused by the edge with the sign-in page's
 * HTML, which the browser then refused to run as a script.
 */
import type { Page, Response } from 'playwright-core'
import { READER_VIEW_PATH } from '../lib/access/readerView'
import { freshPagePerTest } from './browser'
import { siteEnv } from './siteEnv'

const { siteUrl } = siteEnv()
const currentPage = freshPagePerTest()

interface Watch {
  consoleErrors: string[]
  /** Every response but the page's own document: its path and status. */
  subresources: Array<{ path: string; status: number }>
}

function watch(page: Page): Watch {
  const seen: Watch = { consoleErrors: [], subresources: [] }
  page.on('console', (message) => {
    if (message.type() === 'error') seen.consoleErrors.push(message.text())
  })
  page.on('pageerror', (error) => seen.consoleErrors.push(`uncaught: ${error.message}`))
  page.on('response', (response: Response) => {
    const request = response.request()
    if (request.isNavigationRequest() && request.frame() === page.mainFrame()) return
    const url = new URL(response.url())
    if (url.origin === siteUrl) seen.subresources.push({ path: url.pathname + url.search, status: response.status() })
  })
  return seen
}

test.each(['/login', '/login?next=%2F', '/unauthorized', '/404', '/session-too-large'])(
  'a visitor who is not signed in opens %s: no console error, and nothing requested is refused',
  async (pagePath) => {
    const page = currentPage()
    const seen = watch(page)
    const readerView = page.waitForResponse((response) => new URL(response.url()).pathname === READER_VIEW_PATH)
    const document = await page.goto(siteUrl + pagePath)
    expect(document?.status()).toBe(200)
    // The authority has named the visitor (nobody), so the page's links are what it shows them,
    // and Next's prefetch of the links in view has started; then every request has ended.
    await readerView
    await page.locator('.nextra-nav-container').waitFor()
    await page.waitForLoadState('networkidle')

    expect(seen.consoleErrors).toEqual([])
    // The page did load its scripts and ask who the reader is: the watch saw its requests.
    expect(seen.subresources.map((response) => response.path)).toContain(READER_VIEW_PATH)
    expect(seen.subresources.filter((response) => response.path.endsWith('.js')).length).toBeGreaterThan(0)
    expect(seen.subresources.filter((response) => response.status !== 200)).toEqual([])
  }
)
