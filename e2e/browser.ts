import fs from 'node:fs'
import { chromium, type Browser, type Page } from 'playwright-core'
import { PASSWORD, siteEnv } from './siteEnv'

/** The browser and its apt package, as ./chromium.env names them for .ci/run, scripts/test.mjs and these tests. */
const BROWSER = Object.fromEntries([...fs.readFileSync(`${__dirname}/chromium.env`, 'utf8').matchAll(/^([A-Z_]+)=(.*)$/gm)].map(([, name, value]) => [name, value]))

/**
 * Debian's headless shell: the browser Playwright itself runs headless, without the full
 * browser's window machinery, so each page loads in less CPU (see docs/benchmarks.md).
 * CHROMIUM_PATH names another, such as the full /usr/bin/chromium.
 */
export const CHROMIUM = process.env.CHROMIUM_PATH ?? BROWSER.CHROMIUM_BIN

/** Debian's Chromium, never a downloaded one. scripts/test.mjs installs it when it is missing. */
export async function launchBrowser(): Promise<Browser> {
  if (!fs.existsSync(CHROMIUM)) {
    throw new Error(`Chromium is not installed at ${CHROMIUM}. Install it with: apt-get update && apt-get install -y ${BROWSER.CHROMIUM_PACKAGE}`)
  }
  return chromium.launch({
    executablePath: CHROMIUM,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run', '--disable-sync'],
  })
}

/**
 * Signs in through the real login form, starting from `path`, and waits until the app has left
 * /login. `siteUrl` defaults to the audit site; a test with a server of its own (the dev server) names it.
 */
export async function signInThroughForm(page: Page, username: string, path = '/', siteUrl = siteEnv().siteUrl): Promise<void> {
  await page.goto(siteUrl + path)
  await page.waitForURL(/\/login\?next=/)
  await page.getByLabel('Username').fill(username)
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD)
  await page.getByRole('button', { name: 'Sign in' }).click()
  await page.waitForURL((url) => url.pathname !== '/login', { timeout: 15000 })
  // Sign-in moves on client-side, and the address changes a moment before the page does: until
  // the sign-in page has gone, what is on screen (its navbar, its search box) is still its own.
  await page.locator('main.login-page').waitFor({ state: 'detached', timeout: 15000 })
}

/** Collects the page's uncaught errors, so a test can assert that there were none. */
export function watchErrors(page: Page): string[] {
  const errors: string[] = []
  page.on('pageerror', (error) => errors.push(`pageerror: ${error.message}`))
  return errors
}

/**
 * One browser for the test file and a fresh page (its own cookies) for each test. Returns a getter
 * for the current test's page.
 */
export function freshPagePerTest(viewport = { width: 1280, height: 800 }): () => Page {
  let browser: Browser
  let page: Page
  beforeAll(async () => {
    browser = await launchBrowser()
  })
  afterAll(async () => {
    await browser?.close()
  })
  beforeEach(async () => {
    // A context of its own, so a test may open a second tab of the same reader in it.
    page = await (await browser.newContext({ viewport })).newPage()
  })
  afterEach(async () => {
    await page.context().close()
  })
  return () => page
}
