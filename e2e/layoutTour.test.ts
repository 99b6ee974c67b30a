/**
 * The layout's behaviours, each checked in Chromium as a person would see it. Screenshots
 * (light, dark, mobile) go to .artifacts/screenshots/, which git ignores.
 */
import fs from 'node:fs'
import path from 'node:path'
import type { Browser, BrowserContext, Page } from 'playwright-core'
import { launchBrowser, signInThroughForm } from './browser'
import { siteEnv } from './siteEnv'

const { siteUrl } = siteEnv()
const SHOTS = path.resolve(__dirname, '../.artifacts/screenshots')
let browser: Browser
let context: BrowserContext
let page: Page

beforeAll(async () => {
  fs.mkdirSync(SHOTS, { recursive: true })
  browser = await launchBrowser()
  context = await browser.newContext({ viewport: { width: 1280, height: 800 } })
  page = await context.newPage()
  await signInThroughForm(page, 'admin', '/')
})
afterAll(async () => {
  await browser?.close()
})

async function open(path: string, target: Page = page) {
  await target.goto(siteUrl + path)
  await target.getByRole('heading', { level: 1 }).first().waitFor()
}

test('an image in the content zooms on click and closes again', async () => {
  await open('/docs/leads/intro')
  const image = page.locator('main img[src="/docs/leads/images/quote-flow.svg"]')
  await image.waitFor()
  await page.waitForTimeout(1200) // zoom attaches 1000 ms after the page renders
  await image.click()
  await page.locator('.medium-zoom-image--opened').waitFor()
  await page.screenshot({ path: path.join(SHOTS, 'zoom-open.png') })
  await page.waitForFunction(() => document.body.classList.contains('medium-zoom--opened'))
  // medium-zoom ignores Escape while its opening animation runs, so a person presses it again.
  const closed = () => page.evaluate(() => !document.body.classList.contains('medium-zoom--opened'))
  for (let attempt = 0; attempt < 20 && !(await closed()); attempt++) {
    await page.keyboard.press('Escape')
    await page.waitForTimeout(250)
  }
  expect(await closed()).toBe(true)
})

test("a writer's block that the style list lets grow past its page (wide, right to left, see-through) draws and takes clicks inside the page's column only", async () => {
  await open('/docs/leads/intro')
  // What a page may hold (lib/render/codeInPages.json allows dir, width, height and opacity), as a probe wrote it to cover the sidebar.
  const covered = await page.evaluate(() => {
    const outer = document.createElement('div')
    outer.dir = 'rtl'
    outer.innerHTML = '<div id="writer-cover" style="width: 4000px; height: 2000px; background-color: white; opacity: 0.99">Sign in again</div>'
    document.querySelector('article.nextra-content main')!.prepend(outer)
    const sidebar = document.querySelector('aside.nextra-sidebar-container')!.getBoundingClientRect()
    const navbar = document.querySelector('.nextra-nav-container')!.getBoundingClientRect()
    const hits = [
      [sidebar.left + sidebar.width / 2, sidebar.top + 200],
      [sidebar.left + 20, sidebar.bottom - 40],
      [navbar.left + navbar.width / 2, navbar.top + navbar.height / 2],
    ].map(([x, y]) => Boolean(document.elementFromPoint(x, y)?.closest('#writer-cover')))
    const inPage = document.querySelector('article.nextra-content')!.getBoundingClientRect()
    const ownColumn = Boolean(document.elementFromPoint(inPage.left + 40, inPage.top + 200)?.closest('#writer-cover'))
    return { hits, ownColumn }
  })
  expect(covered).toEqual({ hits: [false, false, false], ownColumn: true })
  // A heading's copy in the table of contents, styled the same way: words there, inside the table.
  const fromToc = await page.evaluate(() => {
    const entry = document.querySelector('.site-toc a')!
    entry.insertAdjacentHTML('beforeend', '<span dir="rtl" style="display: block"><span id="toc-cover" style="display: block; width: 4000px; height: 3000px; background-color: green">X</span></span>')
    const sidebar = document.querySelector('aside.nextra-sidebar-container')!.getBoundingClientRect()
    const article = document.querySelector('article.nextra-content')!.getBoundingClientRect()
    return [
      [sidebar.left + sidebar.width / 2, sidebar.top + 200],
      [article.left + article.width / 2, article.top + 300],
    ].map(([x, y]) => Boolean(document.elementFromPoint(x, y)?.closest('#toc-cover')))
  })
  expect(fromToc).toEqual([false, false])
  await page.reload()
})

test("a writer's block that the style list lets spill out of a zero height (huge letters, no line height, see-through) draws over neither the breadcrumb above the page's text nor the links to the next pages below it", async () => {
  // A page in a folder: its breadcrumb has a link (the section), and the links to the pages before and after it.
  await open('/docs/internal/data-lake/overview')
  const covered = await page.evaluate(() => {
    const cover = (id: string) => {
      const block = document.createElement('div')
      block.id = id
      block.setAttribute('style', 'line-height: 0; font-size: 1200px; height: 0; white-space: nowrap; opacity: 0.99; color: green')
      block.textContent = '\u2588\u2588'
      return block
    }
    // Where the writer's text is: beside its first heading, and after its last block.
    const heading = document.querySelector('article.nextra-content h1')!
    heading.before(cover('cover-above'))
    heading.parentElement!.append(cover('cover-below'))
    const centre = (element: Element) => {
      const box = element.getBoundingClientRect()
      return [box.left + box.width / 2, box.top + box.height / 2]
    }
    // The theme's own links around the text: the breadcrumb's, and the previous and next pages' (named by their title).
    const links = [...new Set([...document.querySelectorAll('.nextra-breadcrumb a'), ...[...document.querySelectorAll('article.nextra-content a[title]')].filter((link) => link.textContent?.trim() === link.getAttribute('title'))])]
    return {
      links: links.length,
      covered: links.filter((link) => {
        link.scrollIntoView({ block: 'center' })
        const [x, y] = centre(link)
        return Boolean(document.elementFromPoint(x, y)?.closest('#cover-above, #cover-below'))
      }).map((link) => link.textContent),
    }
  })
  expect(covered.links).toBeGreaterThanOrEqual(2)
  expect(covered.covered).toEqual([])
  await page.reload()
})

test('the navbar hides on scroll down and returns on scroll up and near the top', async () => {
  await open('/docs/internal/data-lake/integration-sources/ring-central/telephony-webhooks-api')
  const navHidden = () => page.evaluate(() => document.body.classList.contains('navbar-hidden'))
  await page.mouse.wheel(0, 900)
  await page.waitForFunction(() => document.body.classList.contains('navbar-hidden'))
  const box = await page.locator('.nextra-nav-container').boundingBox()
  await page.waitForTimeout(300)
  expect((await page.locator('.nextra-nav-container').boundingBox())!.y).toBeLessThan(box!.y + 1)
  await page.mouse.wheel(0, -200)
  await page.waitForFunction(() => !document.body.classList.contains('navbar-hidden'))
  await page.mouse.wheel(0, 600)
  await page.waitForFunction(() => document.body.classList.contains('navbar-hidden'))
  await page.evaluate(() => window.scrollTo(0, 10))
  await expect(page.waitForFunction(() => !document.body.classList.contains('navbar-hidden'))).resolves.toBeTruthy()
  expect(await navHidden()).toBe(false)
})

test('at 996 px and below the menu button opens the section menu; at 997 px the sidebar shows', async () => {
  const narrow = await context.newPage()
  await narrow.setViewportSize({ width: 996, height: 800 })
  await open('/docs/leads/intro', narrow)
  const menuButton = narrow.getByRole('button', { name: 'Menu' })
  await expect(menuButton.isVisible()).resolves.toBe(true)
  await expect(narrow.locator('.nextra-menu-desktop').isVisible()).resolves.toBe(false)
  await menuButton.click()
  const mobileMenu = narrow.locator('.nextra-menu-mobile')
  await mobileMenu.getByRole('link', { name: 'Environments' }).waitFor()
  await narrow.screenshot({ path: path.join(SHOTS, 'mobile-menu.png') })
  await narrow.setViewportSize({ width: 997, height: 800 })
  await open('/docs/leads/intro', narrow)
  await expect(narrow.locator('.nextra-menu-desktop').isVisible()).resolves.toBe(true)
  await expect(narrow.getByRole('button', { name: 'Menu' }).isVisible()).resolves.toBe(false)
  await narrow.close()
})

test("a heading's copy in the phone menu (the page's level-2 headings, under its link), styled to grow, lays out as words in its own entry: it neither fills the menu nor pushes its links away", async () => {
  const narrow = await context.newPage()
  await narrow.setViewportSize({ width: 700, height: 800 })
  await open('/docs/leads/intro', narrow)
  await narrow.getByRole('button', { name: 'Menu' }).click()
  const menu = narrow.locator('.nextra-menu-mobile')
  await menu.getByRole('link', { name: 'Environments' }).waitFor()
  await menu.locator('a[href^="#"]').first().waitFor()
  // What a review's heading put there: a block the style list allows, the size of many windows, with a sign-in link.
  const moved = await narrow.evaluate(() => {
    const mobile = document.querySelector('.nextra-menu-mobile')!
    const entry = mobile.querySelector('a[href^="#"]')!
    const next = [...mobile.querySelectorAll('a')].find((link) => link.textContent?.trim() === 'Environments')!
    const before = { entry: entry.getBoundingClientRect(), next: next.getBoundingClientRect().top }
    entry.insertAdjacentHTML('beforeend', '<span id="menu-cover" style="display: block; width: 4000px; height: 3000px; font-size: 1200px; background-color: white">Sign in again</span>')
    const after = entry.getBoundingClientRect()
    const cover = document.getElementById('menu-cover')!.getBoundingClientRect()
    return { grew: Math.round(after.height - before.entry.height), pushed: Math.round(next.getBoundingClientRect().top - before.next), outside: cover.right > after.right + 1 || cover.bottom > after.bottom + 1 }
  })
  // Its words may take a line or two of the entry; nothing more.
  expect(moved.outside).toBe(false)
  expect(moved.grew).toBeLessThan(60)
  expect(moved.pushed).toBeLessThan(60)
  await narrow.close()
})

test('a dismissed announcement stays dismissed across reloads and returns when its id changes', async () => {
  const fresh = await browser.newContext({ viewport: { width: 1280, height: 800 }, storageState: await context.storageState() })
  const tab = await fresh.newPage()
  await open('/docs/leads/intro', tab)
  const banner = tab.locator('.nextra-banner-container')
  await expect(banner.isVisible()).resolves.toBe(true)
  await tab.getByRole('button', { name: 'Dismiss banner' }).click()
  await expect(banner.isVisible()).resolves.toBe(false)
  await open('/docs/leads/intro', tab)
  await expect(tab.locator('.nextra-banner-container').isVisible()).resolves.toBe(false)
  // A new announcement id means a new storage key: the old dismissal no longer applies.
  const keys = await tab.evaluate(() => Object.keys(localStorage).filter((key) => key.startsWith('announcement-')))
  expect(keys).toHaveLength(1)
  await tab.evaluate((key) => {
    localStorage.setItem('announcement-an-older-id', localStorage.getItem(key)!)
    localStorage.removeItem(key)
  }, keys[0])
  await open('/docs/leads/intro', tab)
  await expect(tab.locator('.nextra-banner-container').isVisible()).resolves.toBe(true)
  await fresh.close()
})

test('the progress bar appears on a slow route change', async () => {
  // The next page's data (its URL ends with the route's parameters as a query) takes 1.5 s to
  // arrive, its prefetch included: well over the 200 ms delay.
  await page.route('**/_next/data/*/docs/leads/environments.json*', async (route) => {
    await new Promise((resolve) => setTimeout(resolve, 1500))
    // A prefetch may still be held when the test ends and the page moves on.
    await route.continue().catch(() => {})
  })
  try {
    await open('/docs/leads/intro')
    await page.locator('aside').getByRole('link', { name: 'Environments' }).click()
    await page.locator('#nprogress .bar').waitFor({ timeout: 1400 })
    await page.getByRole('heading', { level: 1, name: 'Environments' }).waitFor()
    await page.locator('#nprogress').waitFor({ state: 'detached', timeout: 5000 })
  } finally {
    await page.unroute('**/_next/data/*/docs/leads/environments.json*')
  }
})

test('a fast route change shows no progress bar', async () => {
  await open('/docs/leads/intro')
  await page.evaluate(() => {
    ;(window as unknown as { sawBar: boolean }).sawBar = false
    new MutationObserver(() => {
      if (document.getElementById('nprogress')) (window as unknown as { sawBar: boolean }).sawBar = true
    }).observe(document.body, { childList: true, subtree: true })
  })
  await page.locator('aside').getByRole('link', { name: 'Environments' }).click()
  await page.getByRole('heading', { level: 1, name: 'Environments' }).waitFor()
  await page.waitForTimeout(300)
  await expect(page.evaluate(() => (window as unknown as { sawBar: boolean }).sawBar)).resolves.toBe(false)
})

test("a collapsed sidebar folder's pages are rendered when the reader opens it, and they navigate", async () => {
  const folder = '/docs/internal/guidelines'
  const inside = `${folder}/disaster-recovery-plan`
  // The page as served names the folder but not the folder's pages: a collapsed folder adds nothing to every page's HTML.
  const served = await (await context.request.get(`${siteUrl}/docs/internal/intro`)).text()
  expect(served).toContain(`href="${folder}"`)
  expect(served).not.toContain(`href="${inside}"`)
  await open('/docs/internal/intro')
  const aside = page.locator('aside')
  await expect(aside.locator(`a[href="${inside}"]`).count()).resolves.toBe(0)
  // The arrow opens the folder without leaving the page; the folder's own name is the link to its index page.
  await aside.locator(`a[href="${folder}"] svg`).click()
  await aside.getByRole('link', { name: 'Disaster recovery plan' }).click()
  await page.getByRole('heading', { level: 1, name: 'Disaster recovery plan' }).waitFor()
  expect(new URL(page.url()).pathname).toBe(inside)
  // A page inside a folder has its breadcrumb, and the folder around it stays open.
  await expect(page.locator('.nextra-breadcrumb').innerText()).resolves.toMatch(/^Internal\s+Guidelines\s+Disaster recovery plan$/)
  await expect(aside.locator(`a[href="${folder}"]`).locator('xpath=..').getAttribute('class')).resolves.toMatch(/\bopen\b/)
  // The open folder still closes from its arrow.
  await aside.locator(`a[href="${folder}"] svg`).click()
  await page.waitForFunction((href) => !document.querySelector(`aside a[href="${href}"]`)?.closest('li')?.classList.contains('open'), folder)
})

test('screenshots: light, dark and mobile', async () => {
  await open('/docs/support-twilio/diagram')
  await page.screenshot({ path: path.join(SHOTS, 'light.png') })
  await page.evaluate(() => localStorage.setItem('theme', 'dark'))
  await open('/docs/support-twilio/diagram')
  await expect(page.evaluate(() => document.documentElement.classList.contains('dark'))).resolves.toBe(true)
  await page.screenshot({ path: path.join(SHOTS, 'dark.png') })
  await page.evaluate(() => localStorage.setItem('theme', 'light'))
  const phone = await context.newPage()
  await phone.setViewportSize({ width: 390, height: 844 })
  await open('/docs/support-twilio/diagram', phone)
  // On a phone the navbar still shows the logo, within the screen.
  const logo = await phone.locator('.nextra-nav-container .site-logo').boundingBox()
  expect(logo).not.toBeNull()
  expect(logo!.width).toBeGreaterThan(100)
  expect(logo!.x).toBeGreaterThanOrEqual(0)
  expect(logo!.x + logo!.width).toBeLessThanOrEqual(390)
  await phone.screenshot({ path: path.join(SHOTS, 'mobile.png') })
  await phone.close()
  for (const name of ['light.png', 'dark.png', 'mobile.png']) expect(fs.statSync(path.join(SHOTS, name)).size).toBeGreaterThan(10_000)
})

test('a page whose script fails to load shows the error and Retry, and Retry loads it', async () => {
  // The one docs route's script (pages/[[...slug]].tsx), as the browser asks for it.
  const pattern = /\/_next\/static\/chunks\/pages\/(\[\[|%5B%5B)\.\.\.slug(\]\]|%5D%5D)-[0-9a-f]+\.js$/
  await page.route(pattern, (route) => route.abort('failed'))
  await page.goto(siteUrl + '/docs/leads/environments')
  const retry = page.getByRole('button', { name: 'Retry' })
  await retry.waitFor({ timeout: 10000 })
  await expect(page.getByRole('alert').filter({ hasText: 'could not be loaded' }).count()).resolves.toBe(1)
  await page.unroute(pattern)
  await retry.click()
  await page.getByRole('heading', { level: 1, name: 'Environments' }).waitFor()
})

test('a site whose scripts are missing (wrong base path) shows a banner saying so', async () => {
  const pattern = '**/_next/static/chunks/{framework,main,webpack}-*.js'
  const tab = await context.newPage()
  await tab.route(pattern, (route) => route.fulfill({ status: 404, body: 'Not Found' }))
  await tab.goto(siteUrl + '/docs/leads/intro')
  const banner = tab.locator('#base-url-issue-banner')
  await banner.waitFor({ timeout: 10000 })
  await expect(banner.textContent()).resolves.toContain('did not load properly')
  await tab.close()
})
