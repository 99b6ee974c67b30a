/**
 * What a reader sees on a sample of pages is what they saw before the pages moved to one route
 * (pages/[[...slug]].tsx rendering compiled documents, with the navigation split out of each
 * page): the page's text, its headings, its table of contents, its sidebar once the navigation
 * has arrived, and search results.
 *
 * The "before" (fixtures/beforeOneRoute.json) was recorded from the audit build of the last commit
 * with a page file per MDX page (e1e1f8f), by this test with REDESIGN_PARITY_RECORD set to the
 * fixture's path. The audit's markers are random per build, so both sides name them `<marker>`.
 * An edit to one of the sampled pages changes what a reader sees, and the fixture must be
 * recorded again from a build of the new content.
 */
import fs from 'node:fs'
import path from 'node:path'
import type { Browser, Page } from 'playwright-core'
import { launchBrowser, signInThroughForm } from './browser'
import { siteEnv } from './siteEnv'

jest.setTimeout(180_000)

const FIXTURE = path.join(__dirname, 'fixtures/beforeOneRoute.json')
const SAMPLE = [
  '/',
  '/docs',
  '/docs/leads/intro',
  '/docs/leads/environments',
  '/docs/leads/endpoints',
  '/docs/leads/endpoints/create-quote',
  '/docs/internal/data-lake/integration-sources/hoowla/case-enrichements',
  '/docs/internal/guidelines/secrets-management',
  '/docs/support-twilio/sql-queries/search-by-phone',
]
const QUERIES = ['watermark', 'quote', 'phone']

interface ReaderSees {
  title: string
  headings: string[]
  toc: string[]
  sidebar: string[]
  breadcrumb: string[]
  text: string
}

const MARKER = /\b(leak(body|image|title|finerbody|finertitle)|audituser)[a-z-]*?[0-9a-f]{12}\b/g
const clean = (text: string) => text.replace(MARKER, '<marker>').replace(/\s+/g, ' ').trim()

let browser: Browser
let page: Page
beforeAll(async () => {
  browser = await launchBrowser()
  page = await (await browser.newContext({ viewport: { width: 1280, height: 800 } })).newPage()
  await signInThroughForm(page, 'admin', '/')
})
afterAll(async () => {
  await browser?.close()
})

/** The links of `selector`, as `href text`, once their number has stopped changing (the navigation arrives after the page). */
async function settledLinks(selector: string): Promise<string[]> {
  let last = -1
  for (let round = 0; round < 20; round++) {
    const count = await page.locator(`${selector} a`).count()
    if (count === last) break
    last = count
    await page.waitForTimeout(400)
  }
  return (await page.locator(`${selector} a`).evaluateAll((links) => links.map((link) => `${link.getAttribute('href')} ${(link as HTMLElement).innerText}`))).map(clean)
}

async function readerSees(route: string): Promise<ReaderSees> {
  await page.goto(siteEnv().siteUrl + route)
  await page.locator('article h1, main h1').first().waitFor()
  await page.waitForFunction(() => ((window as unknown as { __docsPageMaps?: unknown[] }).__docsPageMaps ?? []).length > 0)
  const article = page.locator('article').first()
  return {
    title: clean(await page.title()),
    headings: (await article.locator('h1, h2, h3, h4, h5, h6').evaluateAll((nodes) => nodes.map((node) => `${node.tagName} ${node.id} ${(node as HTMLElement).innerText}`))).map(clean),
    toc: await settledLinks('nav[aria-label="table of contents"]'),
    sidebar: await settledLinks('aside.nextra-sidebar-container'),
    breadcrumb: (await page.locator('.nextra-breadcrumb').allInnerTexts()).map(clean),
    text: clean(await article.innerText()),
  }
}

async function searchResults(term: string): Promise<string[]> {
  const box = page.locator('.nextra-nav-container').getByRole('combobox', { name: 'Search documentation' })
  await box.click()
  await box.fill(term)
  const options = page.locator('.nextra-nav-container .site-search-panel [role="option"]')
  await options.first().waitFor({ timeout: 20_000 })
  await page.waitForTimeout(500)
  return (await options.evaluateAll((nodes) => nodes.map((node) => `${node.getAttribute('href')} ${(node as HTMLElement).innerText}`))).map(clean)
}

async function seen(): Promise<{ pages: Record<string, ReaderSees>; search: Record<string, string[]> }> {
  const pages: Record<string, ReaderSees> = {}
  for (const route of SAMPLE) pages[route] = await readerSees(route)
  const search: Record<string, string[]> = {}
  await page.goto(siteEnv().siteUrl + '/docs/leads/intro')
  await page.locator('article h1').first().waitFor()
  for (const term of QUERIES) search[term] = await searchResults(term)
  return { pages, search }
}

test('a reader sees on each sampled page, and in search, what they saw before the redesign', async () => {
  const now = await seen()
  if (process.env.REDESIGN_PARITY_RECORD) {
    fs.writeFileSync(process.env.REDESIGN_PARITY_RECORD, JSON.stringify(now, null, 1) + '\n')
    return
  }
  const before = JSON.parse(fs.readFileSync(FIXTURE, 'utf8')) as typeof now
  // Since the fixture, every id a page writes carries the clobber prefix, so none can be one of the
  // site's (__NEXT_DATA__): the same headings and links, at `#user-content-…` (a deep link without
  // it still lands, e2e/headingLinks.test.ts). Compared without the prefix, once seen on every page.
  for (const route of SAMPLE.filter((route) => before.pages[route].headings.length > 1)) expect(now.pages[route].headings.slice(1).every((heading) => / user-content-/.test(heading))).toBe(true)
  const unprefixed = (text: string) => text.replace(/^(H\d )user-content-/, '$1').replace(/#user-content-/g, '#')
  for (const seenOnPage of Object.values(now.pages)) {
    seenOnPage.headings = seenOnPage.headings.map(unprefixed)
    seenOnPage.toc = seenOnPage.toc.map(unprefixed)
  }
  for (const term of Object.keys(now.search)) now.search[term] = now.search[term].map(unprefixed)
  // Each page on its own, so a difference names its page.
  for (const route of SAMPLE) expect({ route, ...now.pages[route] }).toEqual({ route, ...before.pages[route] })
  expect(now.search).toEqual(before.search)
  // The comparison is of something: every sampled page has text, headings and a sidebar.
  for (const route of SAMPLE) expect(now.pages[route].text.length).toBeGreaterThan(100)
  expect(Object.values(now.search).every((results) => results.length > 0)).toBe(true)
})
