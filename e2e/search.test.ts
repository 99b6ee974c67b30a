/**
 * Search in Chromium against the audit build, through the authorizing server: each reader's
 * browser requests only the indexes of sections that reader may open, and results link to the
 * heading they matched.
 */
import fs from 'node:fs'
import path from 'node:path'
import zlib from 'node:zlib'
import type { Browser, Page } from 'playwright-core'
import type { FinerMark, MarkedSection } from '../scripts/audit/markers'
import { audienceIdOf } from '../lib/access/planAggregates'
import { SHARD_LIST_FILE, shardBasePaths } from '../lib/search/searchShards'
import { launchBrowser, signInThroughForm, watchErrors } from './browser'
import { siteEnv } from './siteEnv'
import { seededGroupsOf } from '../scripts/cognito/seed'
import { mcpReaderAs } from './mcpSession'

let browser: Browser
let page: Page
let requests: string[]
let failed: string[]
let errors: string[]
const { siteUrl, outDir, markers, audiences, homeIndex, access, decide, finerMarked, marked, routeOfFile, sectionOf, searchShardPages } = siteEnv()

const RECONCILIATION_PAGE = '/docs/internal/data-lake/integration-sources/hoowla/case-enrichements'

/** Requests for search files outside the indexes of the audiences `username` holds (under the build's rules). */
function foreignIndexRequests(username: string): string[] {
  const held = audiences.filter((audience) => audience.search && decide(audience.governedBy, { username }) === 'allow').map((audience) => audience.search as string)
  return requests.filter((path) => path.includes('/_pagefind/') && !held.some((base) => path.startsWith(base)))
}

beforeAll(async () => {
  browser = await launchBrowser()
})
afterAll(async () => {
  await browser?.close()
})
beforeEach(async () => {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } })
  page = await context.newPage()
  requests = []
  failed = []
  // The context sees requests from the page and from any worker it starts.
  context.on('request', (request) => requests.push(new URL(request.url()).pathname))
  context.on('response', (response) => {
    if (response.status() >= 400) failed.push(`${response.status()} ${new URL(response.url()).pathname}`)
  })
  errors = watchErrors(page)
})
afterEach(async () => {
  await page.context().close()
})

/** The search box in the navbar (the theme renders a second one, hidden, for the mobile sidebar). */
const searchBox = () => page.locator('.nextra-nav-container').getByRole('combobox', { name: 'Search documentation' })

/** Types a query and waits until search has answered (results or "no results"); fails with the page's errors if search could not load. */
async function search(term: string) {
  await searchBox().click()
  await searchBox().fill(term)
  const panel = page.locator('.nextra-nav-container .site-search-panel')
  await panel.locator('[role="option"], [role="alert"], :text("No results for")').first().waitFor({ timeout: 20000 })
  if ((await panel.getByRole('alert').count()) > 0) {
    throw new Error(`search could not be loaded; page errors:\n${errors.join('\n')}`)
  }
}

const searchRequests = () => requests.filter((path) => path.includes('/_pagefind/'))

test('leads1 finds nothing for an internal-only word, and never requests another section\'s index', async () => {
  await signInThroughForm(page, 'leads1', '/docs/leads/intro')
  await page.getByRole('heading', { level: 1 }).first().waitFor()
  expect(searchRequests()).toEqual([]) // nothing of search loads with the page
  await search('watermark')
  await page.getByText('No results for “watermark”').waitFor()
  // The same box finds leads text, so "no results" above is not a broken search.
  await searchBox().fill('quote')
  await page.getByRole('option').first().waitFor()
  expect(searchRequests()).toContain(`${homeIndex}pagefind.js`)
  expect(searchRequests()).toContain('/docs/leads/_pagefind/shards.json')
  expect(searchRequests()).toContain('/docs/leads/_pagefind/0/pagefind-entry.json')
  expect(foreignIndexRequests('leads1')).toEqual([])
  expect(failed).toEqual([])
  expect(errors).toEqual([])
})

test('admin finds the internal page for "watermark"', async () => {
  await signInThroughForm(page, 'admin', '/')
  await search('watermark')
  const options = page.getByRole('option')
  await options.first().waitFor()
  const hrefs = await options.evaluateAll((links) => links.map((link) => link.getAttribute('href') ?? ''))
  expect(hrefs.some((href) => href.startsWith(RECONCILIATION_PAGE))).toBe(true)
  expect(hrefs.every((href) => href.startsWith('/docs/internal/'))).toBe(true)
  await expect(options.first().locator('mark').first().textContent()).resolves.toMatch(/watermark/i)
  expect(failed).toEqual([])
  expect(errors).toEqual([])
})

test('internal1 opens a heading result and lands on that heading', async () => {
  await signInThroughForm(page, 'internal1', '/docs/internal/intro')
  await page.getByRole('heading', { level: 1 }).first().waitFor()
  await search('Enrichment watermark reconciliation')
  const result = page.getByRole('option').filter({ hasText: 'Enrichment watermark reconciliation' }).first()
  // A page's ids carry the clobber prefix (pipeline/compile/pageSanitizer.mjs), and search links to the heading's own id.
  await expect(result.getAttribute('href')).resolves.toBe(`${RECONCILIATION_PAGE}#user-content-enrichment-watermark-reconciliation`)
  await result.click()
  await page.waitForURL((url) => url.pathname === RECONCILIATION_PAGE)
  expect(new URL(page.url()).hash).toBe('#user-content-enrichment-watermark-reconciliation')
  const heading = page.locator('#user-content-enrichment-watermark-reconciliation')
  await heading.waitFor()
  await expect(heading.textContent()).resolves.toContain('Enrichment watermark reconciliation')
  // The page opens at the heading, not at its top.
  await page.waitForFunction(() => {
    const top = document.getElementById('user-content-enrichment-watermark-reconciliation')?.getBoundingClientRect().top ?? -1
    return window.scrollY > 0 && top >= 0 && top < 400
  }, undefined, { timeout: 5000 })
  expect(foreignIndexRequests('internal1')).toEqual([])
  expect(requests.filter((path) => path.includes('/_pagefind/')).length).toBeGreaterThan(0)
  expect(failed).toEqual([])
  expect(errors).toEqual([])
})

test('keyboard: "/" focuses the search box, arrows and Enter open a result', async () => {
  await signInThroughForm(page, 'leads1', '/docs/leads/intro')
  await searchBox().waitFor() // rendered once the reader is known
  await page.keyboard.press('/')
  await expect(searchBox().evaluate((input) => input === document.activeElement)).resolves.toBe(true)
  await page.keyboard.type('quote fees')
  await page.getByRole('option').first().waitFor()
  const first = await page.getByRole('option').first().getAttribute('href')
  await page.keyboard.press('ArrowDown')
  await page.keyboard.press('ArrowUp')
  await page.keyboard.press('Enter')
  await page.waitForURL((url) => url.pathname + url.hash === first)
  expect(errors).toEqual([])
})

/** Pagefind's files are gzip-compressed, so the leak audit's plain-text search cannot see into them; this opens them. */
function indexText(dir: string): string {
  let text = ''
  for (const entry of fs.readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile() || !/\.(pf_fragment|pf_index|pf_meta|pf_filter)$/.test(entry.name)) continue
    const raw = fs.readFileSync(path.join(entry.parentPath, entry.name))
    text += zlib.gunzipSync(raw).toString('utf8') + '\n'
  }
  return text
}

test('each built index holds its own audience\'s marked text and no other\'s (decompressed)', () => {
  const sections = Object.keys(markers.body) as MarkedSection[]
  const finer = Object.keys(finerMarked) as FinerMark[]
  const found: Record<string, string[]> = {}
  for (const audience of audiences) {
    const text = indexText(path.join(outDir, audience.search!.slice(1))).toLowerCase()
    found[audience.id] = [
      ...sections.flatMap((section) => [
        ...(text.includes(markers.body[section].toLowerCase()) ? [`body:${section}`] : []),
        ...(text.includes(markers.title[section].toLowerCase()) ? [`title:${section}`] : []),
      ]),
      ...finer.flatMap((mark) => [
        ...(text.includes(markers.finer[mark].body.toLowerCase()) ? [`body:${mark}`] : []),
        ...(text.includes(markers.finer[mark].title.toLowerCase()) ? [`title:${mark}`] : []),
      ]),
    ]
  }
  // Each marked page is in its own audience's index (the pages its rule governs) and no other;
  // the finer rules' pages are audiences of their own, apart from their sections'.
  const expected: Record<string, string[]> = Object.fromEntries(audiences.map((audience) => [audience.id, []]))
  const place = (file: string, name: string) => expected[audienceIdOf(access, routeOfFile(file)) as string].push(`body:${name}`, `title:${name}`)
  for (const section of sections) place(marked[section].page, section)
  for (const mark of finer) place(finerMarked[mark], mark)
  for (const mark of finer) expect(audienceIdOf(access, routeOfFile(finerMarked[mark]))).not.toBe(sectionOf(routeOfFile(finerMarked[mark])).id)
  expect(found).toEqual(expected)
  // No search bundle anywhere else in out/ (a stray one would fall to another path's rule): each
  // is a shard its audience's shard list names (lib/search/searchShards.ts).
  const bundles = fs.readdirSync(outDir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && entry.name === 'pagefind-entry.json')
    .map((entry) => '/' + path.relative(outDir, entry.parentPath).split(path.sep).join('/') + '/')
  const listed = audiences.flatMap((audience) => shardBasePaths(audience.search!, JSON.parse(fs.readFileSync(path.join(outDir, audience.search!.slice(1), SHARD_LIST_FILE), 'utf8'))))
  expect(bundles.sort()).toEqual(listed.sort())
})

/** Each page of an index's shards, as built: its route, its shard and its text (lib/search/searchShards.ts). */
function shardedPages(basePath: string): Array<{ shard: string; route: string; text: string }> {
  return shardBasePaths(basePath, JSON.parse(fs.readFileSync(path.join(outDir, basePath.slice(1), SHARD_LIST_FILE), 'utf8'))).flatMap((shard) => {
    const dir = path.join(outDir, shard.slice(1), 'fragment')
    return fs.readdirSync(dir).map((name) => {
      // A fragment is gzip around "pagefind_dcd" and the page's JSON.
      const fragment = JSON.parse(zlib.gunzipSync(fs.readFileSync(path.join(dir, name))).subarray(12).toString('utf8')) as { url: string; content: string }
      return { shard, route: fragment.url, text: fragment.content.toLowerCase() }
    })
  })
}

// Only a build given small shards has several internal ones (scripts/audit/markers.ts searchShardPages);
// `npm test` runs this file against two such builds.
const acrossShards = searchShardPages === null ? test.skip : test
acrossShards('internal1 finds, with one word, the two pages that have it, each in another shard of the internal index', async () => {
  const internal = '/docs/internal/_pagefind/'
  const held = audiences.filter((audience) => audience.search && decide(audience.governedBy, { username: 'internal1' }) === 'allow').map((audience) => audience.search as string)
  expect(held).toContain(internal)
  const pages = held.flatMap(shardedPages)
  expect(new Set(pages.filter((page) => page.shard.startsWith(internal)).map((page) => page.shard)).size).toBeGreaterThan(1)
  // A word on exactly two pages, in two shards. Pagefind also answers with pages of near words,
  // below the pages that have the word itself.
  const pagesWith = (text: string) => pages.filter((page) => page.text.includes(text))
  const words = [...new Set(pages.flatMap((page) => page.text.match(/\b[a-z]{7,}\b/g) ?? []))].sort()
  const word = words.find((candidate) => {
    const found = pagesWith(candidate)
    return found.length === 2 && found[0].shard !== found[1].shard && found.every((page) => page.shard.startsWith(internal))
  })
  if (!word) throw new Error('the audit build has no word on exactly two pages of two internal shards')
  await signInThroughForm(page, 'internal1', '/docs/internal/intro')
  await search(word)
  await page.getByRole('option').first().waitFor()
  const hrefs = await page.locator('.nextra-nav-container .site-search-panel [role="option"]').evaluateAll((links) => links.map((link) => link.getAttribute('href') ?? ''))
  expect(hrefs.slice(0, 2).map((href) => href.split('#')[0]).sort()).toEqual(pagesWith(word).map((found) => found.route).sort())
  expect(foreignIndexRequests('internal1')).toEqual([])
  expect(failed).toEqual([])
  expect(errors).toEqual([])
})

test('each audience of a rule finer than a section finds its pages in search, and no one else does', async () => {
  const cases = ['admin', 'leads1', 'internal1', 'support1', 'supportlead'].flatMap((username) =>
    (Object.keys(finerMarked) as FinerMark[]).map((mark) => [username, mark, decide(routeOfFile(finerMarked[mark]), { username, groups: seededGroupsOf(username) }) === 'allow'] as const)
  )
  // The profile proves something only if each finer rule changes who finds its page: not the
  // readers of its section's entry page.
  for (const mark of Object.keys(finerMarked) as FinerMark[]) {
    const route = routeOfFile(finerMarked[mark])
    const entry = sectionOf(route).entry
    const finders = cases.filter(([, m, found]) => m === mark && found).map(([username]) => username)
    expect([mark, finders]).not.toEqual([mark, cases.filter(([username, m]) => m === mark && decide(entry, { username, groups: seededGroupsOf(username) }) === 'allow').map(([username]) => username)])
  }
  const first = page
  for (const username of new Set(cases.map(([name]) => name))) {
    // A fresh browser for each reader: nothing of the last one's search stays. The reader signs in
    // once, and each mark is searched in a page of its own.
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } })
    try {
      for (const [index, [, mark, expected]] of cases.filter(([name]) => name === username).entries()) {
        page = await context.newPage()
        errors = watchErrors(page)
        if (index === 0) await signInThroughForm(page, username, '/')
        else {
          await page.goto(siteUrl + '/')
          // Signed in and drawn: the reader's name is in the navbar.
          await page.locator('.nextra-nav-container').getByText(username, { exact: true }).waitFor()
        }
        await search(markers.finer[mark].body)
        const found = (await page.locator('.nextra-nav-container .site-search-panel').getByRole('option').count()) > 0
        expect([username, mark, found]).toEqual([username, mark, expected])
        expect(errors).toEqual([])
        await page.close()
      }
    } finally {
      await context.close()
    }
  }
  page = first
}, 120_000)

test.each([
  ['leads1', '/docs/leads/intro', 'quote'],
  ['internal1', '/docs/internal/intro', 'deployment'],
  ['support1', '/docs/support-twilio/intro', 'call'],
])("%s's AI tool: search_docs answers with the search box's results, in its order", async (username, entry, term) => {
  await signInThroughForm(page, username, entry)
  await search(term)
  const box = await page.locator('.nextra-nav-container .site-search-panel [role="option"]').evaluateAll((links) => links.map((link) => link.getAttribute('href')))
  const tool = await mcpReaderAs(username)
  try {
    const answer = await tool.call('search_docs', { query: term, limit: 8 })
    const routes = (answer.structured as { results: Array<{ route: string }> }).results.map((result) => result.route)
    expect(box.length).toBeGreaterThan(1)
    expect(routes).toEqual(box)
  } finally {
    await tool.close()
  }
})
