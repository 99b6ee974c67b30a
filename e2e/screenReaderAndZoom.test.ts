/**
 * What a screen reader, a reader who asked for less motion, and a reader zoomed to 320 CSS px meet
 * (issue #48): landmarks and one h1 per page, the route progress and sign-in errors said aloud,
 * no moving bar or zoom, and no page that scrolls both ways (only tables and code scroll sideways).
 */
import type { Browser, BrowserContext, Page } from 'playwright-core'
import { readerState } from './a11y'
import { launchBrowser } from './browser'
import { siteEnv } from './siteEnv'

const { siteUrl } = siteEnv()

let browser: Browser
let signedIn: Awaited<ReturnType<typeof readerState>>
let context: BrowserContext
let page: Page
beforeAll(async () => {
  browser = await launchBrowser()
  signedIn = await readerState(browser, 'admin')
})
afterAll(async () => {
  await browser?.close()
})
afterEach(async () => {
  await context?.close()
})

async function open(path: string, options: { width?: number; signedIn?: boolean; reducedMotion?: 'reduce' | 'no-preference' } = {}): Promise<void> {
  context = await browser.newContext({ viewport: { width: options.width ?? 1280, height: 800 }, storageState: options.signedIn === false ? undefined : signedIn, reducedMotion: options.reducedMotion ?? 'no-preference' })
  page = await context.newPage()
  await page.goto(siteUrl + path)
  await page.locator('.nextra-nav-container').waitFor()
  await page.waitForLoadState('networkidle')
}

/**
 * A route change as Next's router reports it (its static `Router.events`), held open for as long
 * as the test likes: a change slower than the bar's 200 ms delay, without depending on how fast
 * this machine serves the next page. The page itself does not move.
 */
const routeChange = (event: 'routeChangeStart' | 'routeChangeComplete') =>
  page.evaluate((name) => {
    const router = (window as unknown as { next: { router: { constructor: { events: { emit(event: string, url: string, options: object): void } } } } }).next.router
    router.constructor.events.emit(name, '/docs/leads/environments', { shallow: false })
  }, event)

describe('landmarks and headings', () => {
  test.each([
    ['/docs/leads/intro', true],
    ['/', true],
    ['/docs', true],
    ['/connected-tools', true],
    ['/login', false],
    ['/unauthorized', false],
    ['/404', false],
  ])('%s has one banner, one main, one contentinfo, navigation landmarks each with its own name, and one h1', async (path, asReader) => {
    await open(path, { signedIn: asReader })
    await page.getByRole('heading', { level: 1 }).first().waitFor()
    await expect(page.getByRole('banner').count()).resolves.toBe(1)
    await expect(page.getByRole('main').count()).resolves.toBe(1)
    await expect(page.getByRole('contentinfo').count()).resolves.toBe(1)
    await expect(page.getByRole('heading', { level: 1 }).count()).resolves.toBe(1)
    const names = await page.getByRole('navigation').evaluateAll((navs) => navs.map((nav) => nav.getAttribute('aria-label') ?? ''))
    expect(names).toContain('Site')
    expect(names.filter((name) => name === '')).toEqual([])
    expect(new Set(names).size).toBe(names.length)
  })
})

describe('said aloud', () => {
  test('a slow route change is announced politely while the bar shows, and the status falls silent when the page has come', async () => {
    await open('/docs/leads/intro')
    const status = page.locator('[role="status"][aria-live="polite"].sr-only')
    await expect(status.textContent()).resolves.toBe('')
    await routeChange('routeChangeStart')
    await status.filter({ hasText: 'Loading page…' }).waitFor({ state: 'attached', timeout: 5000 })
    await page.locator('#nprogress .bar').waitFor({ state: 'attached' })
    await routeChange('routeChangeComplete')
    await page.waitForFunction(() => document.querySelector('.sr-only[role="status"]')?.textContent === '')
  })

  test('a wrong password is announced: the sign-in error is an alert', async () => {
    await open('/login?next=%2Fdocs%2Fleads%2Fintro', { signedIn: false })
    await page.getByLabel('Username').fill('leads1')
    await page.getByLabel('Password', { exact: true }).fill('not-the-password')
    await page.getByRole('button', { name: 'Sign in' }).click()
    await page.getByRole('alert').filter({ hasText: /incorrect username or password/i }).waitFor({ timeout: 15000 })
  })
})

describe('prefers-reduced-motion', () => {
  const durations = (selector: string) => page.locator(selector).first().evaluate((element) => getComputedStyle(element).transitionDuration.split(', ').map(parseFloat))

  test('the route progress bar does not animate', async () => {
    await open('/docs/leads/intro', { reducedMotion: 'reduce' })
    await routeChange('routeChangeStart')
    await page.locator('#nprogress .bar').waitFor({ state: 'attached', timeout: 5000 })
    expect(Math.max(...(await durations('#nprogress .bar')))).toBe(0)
    await routeChange('routeChangeComplete')
  })

  test('a zoomed image opens without moving, where it would otherwise animate', async () => {
    const zoomDurations = async (reducedMotion: 'reduce' | 'no-preference') => {
      await open('/docs/leads/intro', { reducedMotion })
      const image = page.locator('main img').first()
      await page.locator('main img.medium-zoom-image').first().waitFor({ state: 'attached', timeout: 10000 })
      await image.scrollIntoViewIfNeeded()
      await image.click()
      await page.locator('.medium-zoom-overlay').waitFor({ state: 'attached' })
      const result = [...(await durations('.medium-zoom-image')), ...(await durations('.medium-zoom-overlay'))]
      await context.close()
      return Math.max(...result)
    }
    expect(await zoomDurations('no-preference')).toBeGreaterThan(0)
    expect(await zoomDurations('reduce')).toBe(0)
  })
})

describe('at 320 CSS px (400 % zoom of a 1280 px window)', () => {
  test.each([['/docs/leads/endpoints/create-quote'], ['/docs/support-twilio/sql-queries'], ['/docs/leads/intro'], ['/'], ['/connected-tools']])(
    '%s scrolls only up and down; only tables and code scroll sideways',
    async (path) => {
      await open(path, { width: 320 })
      await page.getByRole('heading', { level: 1 }).first().waitFor()
      const wide = await page.evaluate(() => {
        const root = document.scrollingElement!
        const pageScrolls = root.scrollWidth > root.clientWidth + 1
        // Elements whose own content is wider than they are, and that let the reader scroll it.
        const scrollers = [...document.querySelectorAll<HTMLElement>('body *')].filter((element) => {
          const overflow = getComputedStyle(element).overflowX
          return (overflow === 'auto' || overflow === 'scroll') && element.scrollWidth > element.clientWidth + 1 && element.getClientRects().length > 0
        })
        const allowed = (element: HTMLElement) => element.matches('.table-scroll, pre, pre *, code') || element.closest('pre') !== null || element.querySelector(':scope > pre, :scope > code') !== null
        return { pageScrolls, others: scrollers.filter((element) => !allowed(element)).map((element) => `${element.tagName.toLowerCase()}.${element.className}`.slice(0, 80)) }
      })
      expect(wide).toEqual({ pageScrolls: false, others: [] })
    }
  )
})
