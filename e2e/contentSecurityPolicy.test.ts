/**
 * The Content-Security-Policy in Chromium, through the authorizing server: every kind of page, as
 * an anonymous visitor and as a signed-in reader, and search in use, with no violation. The policy
 * allows inline scripts only by hash (edge/securityHeaders.ts, with the build's
 * .next/script-hashes.json), so a script that is not the build's would be a violation here.
 *
 * Each page records `securitypolicyviolation` events (a listener added before anything of the page
 * runs) and console messages about the Content Security Policy. That the watch can fail is checked
 * twice: every inline script a page ran has its hash in the served policy (without it, it would be a
 * violation), and a page served with the policy minus its hashes does raise violations here.
 */
import fs from 'node:fs'
import path from 'node:path'
import type { Page } from 'playwright-core'
import { readScriptHashesFile } from '../edge/scriptHashesFile'
import { directiveSources } from '../edge/securityHeaders'
import { scriptHash } from '../pipeline/steps/inlineScriptHashes'
import { freshPagePerTest, signInThroughForm } from './browser'
import { siteEnv } from './siteEnv'

const { siteUrl, dir } = siteEnv()
/** The build's hashes: what the server's policy must list, and nothing else. */
const buildHashes = readScriptHashesFile(path.join(dir, '.next/script-hashes.json'))
const currentPage = freshPagePerTest()

interface Watch {
  /** Violations and console messages about the policy, each with the page it happened on. */
  violations: string[]
  /** Each document the page loaded (redirects too): its path, status, policy header and, for a page, its HTML. */
  documents: Array<{ path: string; status: number; policy: string | undefined; html: Promise<string> | null }>
}

/** Watches `page` for violations from before its first navigation on. */
async function watchPolicy(page: Page): Promise<Watch> {
  const watch: Watch = { violations: [], documents: [] }
  await page.exposeFunction('__reportCspViolation', (violation: string) => watch.violations.push(violation))
  await page.addInitScript(() => {
    const report = (window as unknown as { __reportCspViolation: (violation: string) => void }).__reportCspViolation
    document.addEventListener(
      'securitypolicyviolation',
      (event) => report(`${location.pathname}: ${event.effectiveDirective} blocked ${event.blockedURI} at ${event.sourceFile}:${event.lineNumber} ${JSON.stringify(event.sample)}`),
      true
    )
  })
  page.on('console', (message) => {
    if (/content security policy/i.test(message.text())) watch.violations.push(`${new URL(page.url()).pathname}: console ${message.type()}: ${message.text()}`)
  })
  page.on('response', (response) => {
    const request = response.request()
    if (!request.isNavigationRequest() || request.frame() !== page.mainFrame()) return
    const status = response.status()
    const html = status === 200 || status === 404 ? response.text() : null
    html?.catch(() => undefined)
    watch.documents.push({ path: new URL(response.url()).pathname, status, policy: response.headers()['content-security-policy'], html })
  })
  return watch
}

/** Waits until the page has settled (its scripts ran, its requests ended). */
async function settle(page: Page) {
  await page.waitForLoadState('networkidle')
  await page.locator('.nextra-nav-container').waitFor()
  // A moment for late reports to cross from the page.
  await page.waitForTimeout(250)
}

async function visit(page: Page, pagePath: string) {
  await page.goto(siteUrl + pagePath)
  await settle(page)
}

/** The served policy's script-src: the site's files, the build's hashes, WebAssembly for search; never 'unsafe-inline'. */
function expectHashPolicy(policy: string | undefined) {
  const sources = directiveSources(policy ?? '', 'script-src')
  expect(sources).toEqual(["'self'", ...buildHashes.map((hash) => `'${hash}'`), "'wasm-unsafe-eval'"])
}

/**
 * The inline scripts the browser's own parser finds in a page as served: the ones it runs as it
 * parses, each of which the policy must allow by its hash.
 */
function inlineScriptsOf(page: Page, html: string): Promise<string[]> {
  return page.evaluate((source) => {
    const parsed = new DOMParser().parseFromString(source, 'text/html')
    return Array.from(parsed.scripts)
      .filter((script) => !script.src && /^(|module|(text|application)\/(x-)?(javascript|ecmascript))$/i.test(script.type.trim()))
      .map((script) => script.text)
  }, html)
}

/** Every document carried the policy; every inline script of every page was allowed by a hash of it; no violation. */
async function expectNoViolation(page: Page, watch: Watch, visited: string[]) {
  expect(watch.violations).toEqual([])
  expect(watch.documents.map((document) => document.path)).toEqual(expect.arrayContaining(visited))
  for (const document of watch.documents) {
    expectHashPolicy(document.policy)
    if (!document.html) continue
    const hashes = (await inlineScriptsOf(page, await document.html)).map(scriptHash)
    // Each page runs inline scripts, so the policy without their hashes would have been violated.
    expect([document.path, hashes.length > 0]).toEqual([document.path, true])
    for (const hash of hashes) expect([document.path, hash, buildHashes.includes(hash)]).toEqual([document.path, hash, true])
  }
}

test('the build has a handful of inline scripts', () => {
  // Next's export and the theme: the same few on every page (docs/security.md, "Content-Security-Policy"). That a
  // policy without their hashes blocks each is the control test below.
  expect(buildHashes.length).toBeGreaterThan(0)
  expect(buildHashes.length).toBeLessThanOrEqual(8)
})

test('anonymous visitor: home, a docs page, sign-in, no access, not found and oversized cookies raise no violation', async () => {
  const page = currentPage()
  const watch = await watchPolicy(page)
  // Home and a docs page send an anonymous visitor to sign in; the redirect carries the policy too.
  for (const pagePath of ['/', '/docs/leads/intro', '/login', '/unauthorized', '/404', '/session-too-large']) await visit(page, pagePath)
  expect(watch.documents.filter((document) => document.path === '/' || document.path === '/docs/leads/intro').map((document) => document.status)).toEqual([302, 302])
  expect(watch.documents.find((document) => document.path === '/404')?.status).toBe(200)
  await expectNoViolation(page, watch, ['/login', '/unauthorized', '/404', '/session-too-large'])
})

test('signed-in reader: sign-in, home, a docs page, no access, not found, oversized cookies and search in use raise no violation', async () => {
  const page = currentPage()
  const watch = await watchPolicy(page)
  // Sign-in itself (Amplify's form and its requests) is watched too.
  await signInThroughForm(page, 'leads1', '/docs/leads/intro')
  await settle(page)
  await visit(page, '/')
  await visit(page, '/login')
  // A section the reader may not open sends them to the no-access page.
  await visit(page, '/docs/internal/intro')
  expect(new URL(page.url()).pathname).toBe('/unauthorized')
  await visit(page, '/404')
  await visit(page, '/session-too-large')
  // Search in use: Pagefind's script and its WebAssembly, the reader's indexes, results shown.
  await visit(page, '/docs/leads/environments')
  const searchBox = page.locator('.nextra-nav-container').getByRole('combobox', { name: 'Search documentation' })
  await searchBox.click()
  await searchBox.fill('quote')
  await page.locator('.nextra-nav-container .site-search-panel').getByRole('option').first().waitFor({ timeout: 20000 })
  await settle(page)
  await expectNoViolation(page, watch, ['/login', '/docs/leads/intro', '/', '/unauthorized', '/404', '/session-too-large', '/docs/leads/environments'])
})

test('full-access reader: a page with a diagram and a path that does not exist raise no violation', async () => {
  const page = currentPage()
  const watch = await watchPolicy(page)
  await signInThroughForm(page, 'admin', '/docs/support-twilio/diagram')
  await settle(page)
  await visit(page, '/no-such-page')
  expect(watch.documents.find((document) => document.path === '/no-such-page')?.status).toBe(404)
  await expectNoViolation(page, watch, ['/docs/support-twilio/diagram', '/no-such-page'])
})

test('the watch catches violations: the sign-in page served with the policy minus its hashes raises one per inline script', async () => {
  const page = currentPage()
  const watch = await watchPolicy(page)
  await page.route(
    (url) => url.pathname === '/login',
    async (route) => {
      const response = await route.fetch()
      const policy = response.headers()['content-security-policy']
      expectHashPolicy(policy)
      const withoutHashes = policy.replace(/ 'sha256-[^']+'/g, '')
      await route.fulfill({ response, headers: { ...response.headers(), 'content-security-policy': withoutHashes } })
    }
  )
  await page.goto(siteUrl + '/login')
  await page.waitForLoadState('load')
  await page.waitForTimeout(500)
  const inline = fs.readFileSync(path.join(dir, 'out/login.html'), 'utf8').match(/<script>/g) ?? []
  const blocked = watch.violations.filter((violation) => /^\/login: script-src(-elem)? blocked inline /.test(violation))
  expect(blocked.length).toBe(inline.length)
  expect(watch.violations.some((violation) => /console error: .*Content Security Policy/i.test(violation))).toBe(true)
})
