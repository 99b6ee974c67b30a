/**
 * WCAG 2.2 A and AA on every page kind (issue #48): axe-core's rules in Chromium, in light and dark
 * mode, at 1280 and 390 px, as a reader who may open each page. One browser for the file; each
 * reader signs in once, every page kind at each width is a fresh context holding their cookies, and
 * the page, once drawn, is looked at in one colour mode and then the other.
 */
import type { Browser, BrowserContext, Page } from 'playwright-core'
import { axeFindings, contextAt, describeFinding, MODES, readerState, recordFindings, showMode, WIDTHS, type Finding } from './a11y'
import { launchBrowser } from './browser'
import { signToolIn } from './oauthTool'
import { blockSignInService, expireIdToken } from './signInService'
import { WRITER_COMPONENTS_ROUTE } from '../scripts/audit/buildAuditSite'
import { siteEnv } from './siteEnv'

jest.setTimeout(240_000)
const { siteUrl } = siteEnv()

/** A page kind: how to bring it on screen in a context of its reader. */
interface PageKind {
  name: string
  show: (page: Page, context: BrowserContext) => Promise<void>
}

/** The page has been drawn for its reader: the navbar is there and nothing more is loading. */
async function settled(page: Page): Promise<void> {
  await page.locator('.nextra-nav-container').first().waitFor()
  await page.waitForLoadState('networkidle')
}

const at = (path: string, ready?: (page: Page) => Promise<unknown>): PageKind['show'] => async (page) => {
  await page.goto(siteUrl + path)
  await settled(page)
  await ready?.(page)
}
const heading = (page: Page) => page.getByRole('heading', { level: 1 }).first().waitFor()

async function signInForm(page: Page, password: string): Promise<void> {
  await page.goto(siteUrl + '/login?next=%2Fdocs%2Fleads%2Fintro')
  await page.getByLabel('Username').fill('leads1')
  await page.getByLabel('Password', { exact: true }).fill(password)
  await page.getByRole('button', { name: 'Sign in' }).click()
}

/** The navbar's search box (in the mobile menu at phone width), with results for `query` listed. */
async function searchResults(page: Page, query: string): Promise<void> {
  await at('/docs', heading)(page, page.context())
  let input = page.getByRole('combobox', { name: /search/i }).filter({ visible: true }).first()
  if (!(await input.isVisible())) {
    await page.getByRole('button', { name: 'Menu' }).click()
    input = page.getByRole('combobox', { name: /search/i }).filter({ visible: true }).first()
  }
  await input.fill(query)
  await page.locator('.site-search-result').first().waitFor({ timeout: 20000 })
}

/** The consent page an AI tool sends its reader to; the reader denies once it has been checked. */
async function consentPage(check: (page: Page) => Promise<void>) {
  return async (page: Page) => {
    await signToolIn(async (authorizationUrl) => {
      await page.goto(authorizationUrl.href)
      await page.getByText('wants to sign in to the docs as you').waitFor()
      await settled(page)
      await check(page)
      await page.getByRole('button', { name: 'Deny' }).click()
      await page.waitForURL((url) => url.hostname === '127.0.0.1' && url.pathname === '/callback')
    })
  }
}

const ANONYMOUS: PageKind[] = [
  { name: 'sign-in', show: at('/login', (page) => page.getByLabel('Username').waitFor()) },
  {
    name: 'sign-in, wrong password',
    show: async (page) => {
      await signInForm(page, 'not-the-password')
      await page.locator('.amplify-alert').waitFor({ timeout: 15000 })
    },
  },
  {
    name: 'sign-in, service unreachable',
    show: async (page, context) => {
      const service = await blockSignInService(context)
      await signInForm(page, 'whatever-it-is')
      await page.locator('.amplify-alert').waitFor({ timeout: 15000 })
      await service.unblock()
    },
  },
  { name: '/unauthorized', show: at('/unauthorized', heading) },
  { name: '404', show: at('/404', heading) },
]

const ADMIN: PageKind[] = [
  { name: 'home (admin)', show: at('/', heading) },
  { name: '/docs', show: at('/docs', heading) },
  { name: 'docs page with tables and links', show: at('/docs/support-twilio/sql-queries', heading) },
  { name: 'docs page with wide tables and code', show: at('/docs/leads/endpoints/create-quote', heading) },
  { name: 'docs page with a diagram', show: at('/docs/support-twilio/diagram', heading) },
  { name: 'docs page with every writer component', show: at(WRITER_COMPONENTS_ROUTE, heading) },
  { name: 'deeply nested docs page', show: at('/docs/internal/data-lake/integration-sources/hoowla/quote', heading) },
  { name: 'not found (signed in)', show: at('/no-such-page', heading) },
  { name: 'search with results', show: (page) => searchResults(page, 'quote') },
  { name: 'AI tools page', show: at('/connected-tools', heading) },
]

const OUTSIDER: PageKind[] = [{ name: 'home (outsider)', show: at('/', heading) }]

const LEADS: PageKind[] = [
  { name: '/unauthorized (signed in)', show: at('/docs/internal/intro', (page) => page.waitForURL(/\/unauthorized/)) },
  {
    name: 'sign-in service unreachable notice',
    show: async (page, context) => {
      await expireIdToken(context, 'leads1')
      const service = await blockSignInService(context)
      await page.goto(siteUrl + '/docs/leads/environments')
      await page.getByRole('button', { name: 'Try again' }).waitFor({ timeout: 20000 })
      await service.unblock()
    },
  },
]

let browser: Browser
/** Each reader signs in once for the whole file; every view starts from their cookies. */
const states = new Map<string, Promise<Awaited<ReturnType<typeof readerState>>>>()
const stateOf = (username: string | null) => {
  if (!username) return Promise.resolve(undefined)
  if (!states.has(username)) states.set(username, readerState(browser, username))
  return states.get(username)!
}
beforeAll(async () => {
  browser = await launchBrowser()
})
afterAll(async () => {
  await browser?.close()
})

/** axe's findings on `page` as drawn now, in each colour mode in turn. */
async function findingsInEachMode(page: Page, pageName: string, width: number): Promise<Finding[]> {
  const findings: Finding[] = []
  for (const mode of MODES) {
    await showMode(page, mode)
    const view = { mode, width }
    const found = await axeFindings(page, pageName, view)
    recordFindings(found, pageName, view)
    findings.push(...found)
  }
  return findings
}

/** Every page kind of `kinds` at `width` as `username`: the findings, named by rule, page, view and element. */
async function findingsOf(username: string | null, kinds: PageKind[], width: number): Promise<string[]> {
  const state = await stateOf(username)
  const findings: Finding[] = []
  for (const kind of kinds) {
    // A context per page kind: a state one kind leaves (a blocked service, a stale token) stays with it.
    const context = await contextAt(browser, width, state)
    try {
      const page = await context.newPage()
      await kind.show(page, context)
      findings.push(...(await findingsInEachMode(page, kind.name, width)))
    } finally {
      await context.close()
    }
  }
  return findings.map(describeFinding)
}

describe.each(WIDTHS)('at %i px, light and dark', (width) => {
  test(`anonymous pages (sign-in and its error states, /unauthorized, 404) have no WCAG 2.2 A/AA violation [${width}px]`, async () => {
    expect(await findingsOf(null, ANONYMOUS, width)).toEqual([])
  })
  test(`an outsider's home page has none [${width}px]`, async () => {
    expect(await findingsOf('outsider', OUTSIDER, width)).toEqual([])
  })
  test(`a full-access reader's pages (home, docs of every kind, search, AI tools, not found) have none [${width}px]`, async () => {
    expect(await findingsOf('admin', ADMIN, width)).toEqual([])
  })
  test(`a section reader's status pages have none [${width}px]`, async () => {
    expect(await findingsOf('leads1', LEADS, width)).toEqual([])
  })
  test(`the consent page an AI tool sends its reader to has none [${width}px]`, async () => {
    const context = await contextAt(browser, width, await stateOf('leads1'))
    const found: Finding[] = []
    try {
      const page = await context.newPage()
      await (await consentPage(async (shown) => {
        found.push(...(await findingsInEachMode(shown, 'OAuth consent', width)))
      }))(page)
    } finally {
      await context.close()
    }
    expect(found.map(describeFinding)).toEqual([])
  })
})
