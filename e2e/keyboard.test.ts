/**
 * The site by keyboard only (issue #48): the skip link, Tab through the page in the order it is
 * drawn with a visible focus ring on every stop, `/` and the arrow keys in search, the mobile
 * menu, and the sign-in form's Enter. Nothing here clicks.
 */
import type { Browser, BrowserContext, Page } from 'playwright-core'
import { readerState } from './a11y'
import { launchBrowser } from './browser'
import { PASSWORD, siteEnv } from './siteEnv'

const { siteUrl } = siteEnv()
const DOCS_PAGE = '/docs/leads/intro'

let browser: Browser
let signedIn: Awaited<ReturnType<typeof readerState>>
let context: BrowserContext
let page: Page
beforeAll(async () => {
  browser = await launchBrowser()
  signedIn = await readerState(browser, 'leads1')
})
afterAll(async () => {
  await browser?.close()
})
afterEach(async () => {
  await context?.close()
})

async function open(path: string, width = 1440, state: typeof signedIn | null = signedIn): Promise<void> {
  context = await browser.newContext({ viewport: { width, height: 900 }, storageState: state ?? undefined })
  page = await context.newPage()
  await page.goto(siteUrl + path)
  await page.locator('.nextra-nav-container').waitFor()
  await page.waitForLoadState('networkidle')
}

/** Where the focused element is, as a reader sees the page, and whether its focus ring shows. */
interface Stop {
  region: 'skip' | 'banner' | 'navbar' | 'search' | 'sidebar' | 'article' | 'toc' | 'footer' | 'page'
  text: string
  ring: boolean
}
function focused(): Promise<Stop> {
  return page.evaluate(() => {
    const element = document.activeElement as HTMLElement
    const style = getComputedStyle(element)
    // A ring: an outline or the theme's box-shadow ring, drawn while :focus-visible holds.
    const ring = element.matches(':focus-visible') && ((style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) > 0) || (style.boxShadow !== 'none' && !/^rgba\(0, 0, 0, 0\)/.test(style.boxShadow)))
    const region = element.closest('a[href="#reach-skip-nav"]')
      ? 'skip'
      : element.closest('.nextra-banner-container, [aria-label="Dismiss banner"]')
        ? 'banner'
        : element.closest('.site-search')
          ? 'search'
          : element.closest('.nextra-nav-container')
            ? 'navbar'
            : element.closest('aside')
              ? 'sidebar'
              : element.closest('nav.nextra-toc')
                ? 'toc'
                : element.closest('article')
                  ? 'article'
                  : element.closest('footer')
                    ? 'footer'
                    : 'page'
    return { region, text: (element.getAttribute('aria-label') ?? element.textContent ?? '').trim().slice(0, 40), ring } as Stop
  })
}

/** Each stop of one round of Tab from the top of the page, until focus leaves the page. */
async function tabRound(): Promise<Stop[]> {
  const stops: Stop[] = []
  for (let presses = 0; presses < 200; presses++) {
    await page.keyboard.press('Tab')
    const stop = await focused()
    // Past the last stop, focus leaves the page (the body) and comes round to the skip link again.
    if (stops.length > 0 && (stop.region === 'skip' || (await page.evaluate(() => document.activeElement === document.body)))) break
    stops.push(stop)
  }
  return stops
}

test('the skip link is the first stop, and following it puts the next Tab in the article', async () => {
  await open(DOCS_PAGE)
  await page.keyboard.press('Tab')
  expect(await focused()).toEqual({ region: 'skip', text: 'Skip to content', ring: true })
  await expect(page.getByRole('link', { name: 'Skip to content' }).isVisible()).resolves.toBe(true)
  await page.keyboard.press('Enter')
  await page.keyboard.press('Tab')
  expect((await focused()).region).toBe('article')
})

test('Tab goes navbar, search, sidebar, article, table of contents, footer, in the order they are drawn, each with a visible focus ring', async () => {
  await open(DOCS_PAGE)
  const stops = await tabRound()
  // Ranks in the order the page is drawn (the search box and the navbar's items share its row): Tab never goes back.
  const rank: Record<Stop['region'], number> = { skip: 0, banner: 1, page: 1, navbar: 2, search: 2, sidebar: 3, article: 4, toc: 5, footer: 6 }
  const ranks = stops.map((stop) => rank[stop.region])
  expect(ranks).toEqual([...ranks].sort((a, b) => a - b))
  const met = new Set(stops.map((stop) => stop.region))
  for (const region of ['navbar', 'search', 'sidebar', 'article', 'toc', 'footer'] as const) expect([region, met.has(region)]).toEqual([region, true])
  // The page's links in the article include the previous/next page links at its end.
  expect(stops.filter((stop) => stop.region === 'article').map((stop) => stop.text).join(' ')).toMatch(/Environments/)
  expect(stops.filter((stop) => !stop.ring)).toEqual([])
})

test('`/` puts focus in search; the arrow keys choose a result, Enter opens it, Escape closes the list', async () => {
  await open(DOCS_PAGE)
  await page.keyboard.press('/')
  const search = page.getByRole('combobox', { name: 'Search documentation' }).filter({ visible: true })
  await expect(search.evaluate((input) => input === document.activeElement)).resolves.toBe(true)
  await page.keyboard.type('quote')
  const options = page.getByRole('option')
  await options.nth(1).waitFor({ timeout: 20000 })
  // The first result is chosen as results arrive; one ArrowDown moves to the second.
  await expect(options.first().getAttribute('aria-selected')).resolves.toBe('true')
  await page.keyboard.press('ArrowDown')
  const second = options.nth(1)
  await expect(second.getAttribute('aria-selected')).resolves.toBe('true')
  await expect(search.getAttribute('aria-activedescendant')).resolves.toBe(await second.getAttribute('id'))
  // Focus stays in the box while the arrows move the choice.
  await expect(search.evaluate((input) => input === document.activeElement)).resolves.toBe(true)
  await page.keyboard.press('Escape')
  await expect(page.getByRole('listbox').count()).resolves.toBe(0)
  await page.keyboard.type(' ')
  await options.first().waitFor({ timeout: 20000 })
  await page.keyboard.press('ArrowDown')
  const href = (await page.locator('[role="option"][aria-selected="true"]').getAttribute('href'))!
  await page.keyboard.press('Enter')
  await page.waitForURL((url) => url.pathname + url.hash === href)
})

test('at phone width the menu opens from the keyboard, holds focus while open, and Escape closes it and returns focus to its button', async () => {
  await open(DOCS_PAGE, 390)
  const button = page.getByRole('button', { name: 'Menu' })
  for (let presses = 0; presses < 20 && !(await button.evaluate((element) => element === document.activeElement)); presses++) await page.keyboard.press('Tab')
  await expect(button.evaluate((element) => element === document.activeElement)).resolves.toBe(true)
  await expect(button.getAttribute('aria-expanded')).resolves.toBe('false')
  await page.keyboard.press('Enter')
  await expect(button.getAttribute('aria-expanded')).resolves.toBe('true')
  // Round and round: every stop is the menu's button or in the open menu, never the covered page.
  const where: string[] = []
  for (let presses = 0; presses < 40; presses++) {
    await page.keyboard.press(presses < 30 ? 'Tab' : 'Shift+Tab')
    where.push(await page.evaluate(() => (document.activeElement?.closest('aside') ? 'menu' : document.activeElement?.closest('.nextra-hamburger') ? 'button' : `outside: ${document.activeElement?.outerHTML.slice(0, 80)}`)))
  }
  expect(where.filter((stop) => stop.startsWith('outside'))).toEqual([])
  expect(where).toContain('menu')
  await page.keyboard.press('Escape')
  await expect(button.getAttribute('aria-expanded')).resolves.toBe('false')
  await expect(button.evaluate((element) => element === document.activeElement)).resolves.toBe(true)
})

test('at phone width a wide table is a named stop with a visible ring, and the arrow keys scroll it sideways', async () => {
  await open('/docs/leads/endpoints/create-quote', 390)
  const table = page.getByRole('region', { name: /^Table: / }).first()
  await table.waitFor()
  let stop: Stop | undefined
  for (let presses = 0; presses < 80 && !(await table.evaluate((element) => element === document.activeElement)); presses++) {
    await page.keyboard.press('Tab')
    stop = await focused()
  }
  await expect(table.evaluate((element) => element === document.activeElement)).resolves.toBe(true)
  expect(stop?.ring).toBe(true)
  await page.keyboard.press('ArrowRight')
  await page.keyboard.press('ArrowRight')
  await page.waitForFunction(() => (document.activeElement as HTMLElement).scrollLeft > 0)
})

test('the sign-in form is filled and sent with the keyboard alone, Enter submitting it', async () => {
  await open('/login?next=%2Fdocs%2Fleads%2Fintro', 1440, null)
  const username = page.getByLabel('Username')
  await username.waitFor()
  await username.focus()
  await page.keyboard.type('leads1')
  await page.keyboard.press('Tab')
  await expect(page.getByLabel('Password', { exact: true }).evaluate((input) => input === document.activeElement)).resolves.toBe(true)
  await page.keyboard.type(PASSWORD)
  await page.keyboard.press('Enter')
  await page.waitForURL((url) => url.pathname === '/docs/leads/intro', { timeout: 15000 })
  await page.getByRole('heading', { level: 1 }).first().waitFor()
})
