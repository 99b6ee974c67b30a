/**
 * The writer's loop at size: `npm run dev` on a copy of the project with `pages` generated pages
 * (the anchors' pages, as the build bench uses), `runs` times, with a writer's browser (Chromium,
 * signed in as admin before the server is ready). Per run: the time until Next listens, until the dev
 * server says `npm run dev: ready at` (the docs route compiled), and until the first content check
 * has ended; the first open of a docs page from that ready line, as a writer opens one, until its
 * HTML is served and until its heading is drawn; another page in a second tab; and an edit of the
 * first page until the open first tab shows it, with nobody reloading it.
 */
import { spawn } from 'node:child_process'
import fs from 'node:fs'
import net from 'node:net'
import os from 'node:os'
import path from 'node:path'
import type { Browser, Page } from 'playwright-core'
import { launchBrowser } from '../e2e/browser'
import { copyProject } from '../scripts/audit/copyProject'
import { amplifyCookieHeader, signInIdToken } from '../scripts/audit/cognitoSession'
import { SEEDED_PASSWORD } from '../scripts/cognito/seed'
import { cookiesFor } from './browser'
import { SECTIONS } from '../lib/navigation/siteNavigation'
import { placeAnchorPages } from './anchorPages'
import { anchorsSource, generateAnchorPages } from './docusaurusAnchor'
import { medianWithRange, type Figure } from './table'

const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const server = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo
      server.close(() => resolve(port))
    })
    server.on('error', reject)
  })

async function until<T>(what: string, timeoutMs: number, probe: () => Promise<T | null> | T | null): Promise<T> {
  const started = Date.now()
  while (Date.now() - started < timeoutMs) {
    const value = await probe()
    if (value !== null) return value
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
  throw new Error(`bench dev: ${what} did not happen within ${timeoutMs / 1000} s`)
}

interface DevRun {
  listening: number
  ready: number
  firstCheck: number
  firstHtml: number
  firstOpen: number
  secondOpen: number
  edit: number
}

/** The dev server's line a writer opens the browser at (scripts/server/dev.ts), once the docs route is compiled. */
const READY = /npm run dev: ready at/
/** Next's server's line once it listens (scripts/server/nextDevServer.cjs). */
const LISTENING = /Next listening in/
const CHECKED = /content check/

/*
 * When something is drawn, taken in the page at the animation frame that draws it. Playwright's own
 * waits poll every 500 ms after their first 270 ms, which added up to half a second to a figure.
 * Strings, not functions: tsx would name an inner function with a helper the page lacks.
 */
const HEADING_DRAWN_AT = '__benchHeadingDrawnAt'
const TEXT_DRAWN_AT = '__benchTextDrawnAt'
/** Run in a page: records under `name` the time of the first animation frame at which `condition` (an expression) holds. */
const whenDrawn = (name: string, condition: string) => `(() => {
  window.${name} = 0
  const frame = () => {
    if (${condition}) window.${name} = Date.now()
    else requestAnimationFrame(frame)
  }
  requestAnimationFrame(frame)
})()`
/** Run in each document of a tab from its start: the first frame with a visible level-1 heading. */
const HEADING_DRAWN = whenDrawn(HEADING_DRAWN_AT, "document.querySelector('h1')?.checkVisibility()")
/** Run in an open page: the first frame whose page holds `text`. */
const textDrawn = (text: string) => whenDrawn(TEXT_DRAWN_AT, `document.body.textContent.includes(${JSON.stringify(text)})`)
/** The time `page` recorded under `name`, once it has. */
const drawnAt = async (page: Page, name: string) => Number(await (await page.waitForFunction(`window.${name}`, null, { polling: 'raf' })).jsonValue())

async function oneRun(browser: Browser, dir: string, routes: [string, string], file: string, [port, cognitoPort]: [number, number]): Promise<DevRun> {
  const started = Date.now()
  const child = spawn(process.execPath, ['scripts/server/startDev.mjs'], {
    cwd: dir,
    env: { ...process.env, PORT: String(port), DOCS_DEV_COGNITO_PORT: String(cognitoPort), NEXT_TELEMETRY_DISABLED: '1' },
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let output = ''
  // When each line first appeared, so a figure is the line's own time, not the next poll's.
  const seen = new Map<RegExp, number>()
  const watched = [LISTENING, READY, CHECKED]
  const take = (chunk: Buffer) => {
    output += chunk
    for (const pattern of watched) if (!seen.has(pattern) && pattern.test(output)) seen.set(pattern, Date.now())
  }
  child.stdout.on('data', take)
  child.stderr.on('data', take)
  const at = (what: string, pattern: RegExp, ms: number) => until(what, ms, () => seen.get(pattern) ?? null)
  const context = await browser.newContext()
  try {
    const site = `http://127.0.0.1:${port}`
    // Signed in before ready, as a writer's browser already is: the local Cognito starts before Next.
    const idToken = await until('signing in to the local Cognito', 120_000, () => signInIdToken(`http://127.0.0.1:${cognitoPort}`, 'admin', SEEDED_PASSWORD).catch(() => null))
    await context.addCookies(cookiesFor(site, amplifyCookieHeader('admin', idToken)))
    const listening = (await at('Next listening', LISTENING, 120_000)) - started
    const readyAt = await at('npm run dev ready', READY, 300_000)
    /** A new tab on `route`, from `from` until its HTML is served and until its page's heading is drawn (from the page's HTML: the client guard shows it at once to a reader who may read it). */
    const open = async (route: string, from: number) => {
      const page = await context.newPage()
      page.setDefaultTimeout(120_000)
      await page.addInitScript(HEADING_DRAWN)
      const html = page.waitForResponse((response) => response.url() === site + route).then(() => Date.now())
      await page.goto(site + route)
      const ms = (await drawnAt(page, HEADING_DRAWN_AT)) - from
      // Not the sign-in page's heading: the cookies signed the browser in.
      if (new URL(page.url()).pathname !== route) throw new Error(`bench dev: opening ${route} ended on ${page.url()}`)
      return { page, ms, htmlMs: (await html) - from }
    }
    // Opened at the ready line, as a writer does.
    const first = await open(routes[0], readyAt)
    const second = await open(routes[1], Date.now())
    // On a restart the first check runs after ready: the edit is timed once it has ended, as before.
    const firstCheck = (await at('the first content check', CHECKED, 300_000)) - started
    const marker = `Edited for the dev bench ${Date.now()}`
    await first.page.evaluate(textDrawn(marker))
    const editedAt = Date.now()
    fs.appendFileSync(file, `\n${marker}\n`)
    const edit = (await drawnAt(first.page, TEXT_DRAWN_AT)) - editedAt
    return { listening, ready: readyAt - started, firstCheck, firstHtml: first.htmlMs, firstOpen: first.ms, secondOpen: second.ms, edit }
  } catch (error) {
    // What the dev server said is the first thing to read when a run fails.
    throw new Error(`${error instanceof Error ? error.message : String(error)}\nLast output of npm run dev:\n${output.slice(-4000)}`)
  } finally {
    await context.close()
    try {
      process.kill(-child.pid!, 'SIGTERM')
    } catch {
      // Already gone.
    }
    await new Promise((resolve) => setTimeout(resolve, 1500))
  }
}

export async function devFigures(pages: number, runs: number): Promise<Figure[]> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `bench-dev-${pages}-`))
  const generated = fs.mkdtempSync(path.join(os.tmpdir(), `bench-dev-pages-${pages}-`))
  try {
    copyProject(process.cwd(), dir)
    // The first start is cold: no compile cache, and no props of this project's own pages, which
    // would make it a restart on another site's pages.
    fs.rmSync(path.join(dir, '.cache'), { recursive: true, force: true })
    generateAnchorPages(anchorsSource(process.cwd()), generated, pages, 'nextra')
    const placed = placeAnchorPages(generated, dir, SECTIONS)
    const routeOf = (file: string) => '/' + file.replace(/^content\//, '').replace(/\.mdx?$/, '').replace(/\/index$/, '')
    const routes: [string, string] = [routeOf(placed.pages[1]), routeOf(placed.pages[placed.pages.length - 1])]
    const measured: DevRun[] = []
    const browser = await launchBrowser()
    // The same ports every start, as a writer's `npm run dev` has (3000 and its local Cognito's):
    // Next's bundle inlines the local Cognito's URL, and the bundler's cache is kept for one bundle.
    const ports: [number, number] = [await freePort(), await freePort()]
    try {
      // The caches (the MDX compile's, the bundler's) are warm from the second run on, as on a
      // writer's machine after the first start.
      for (let run = 0; run < runs; run++) {
        const figures = await oneRun(browser, dir, routes, path.join(dir, placed.pages[1]), ports)
        measured.push(figures)
        // Each start's own figures: the median hides which start was the cold one.
        console.log(`bench dev: start ${run + 1} of ${runs}${run === 0 ? ' (cold)' : ''}: ${Object.entries(figures).map(([key, ms]) => `${key} ${(ms / 1000).toFixed(2)} s`).join(', ')}`)
      }
    } finally {
      await browser.close()
    }
    const group = 'dev'
    const figure = (key: keyof DevRun, name: string, goal: string): Figure => ({
      group,
      name: `${pages} generated pages: ${name}`,
      ...medianWithRange(measured.map((run) => run[key] / 1000), 2),
      unit: 's',
      method: `npm run dev in a copy, ${runs} starts (the first with a cold compile cache); ${goal}`,
    })
    return [
      figure('listening', 'Next listening', 'from the start of npm run dev (Next\'s server\'s "Next listening" line)'),
      figure('ready', 'ready', 'from the start of npm run dev to its "npm run dev: ready at" line, said once the docs route is compiled; goal ≤ 5 s'),
      figure('firstCheck', 'first content check done', 'from the start of npm run dev (after ready on a restart, which has the last run\'s props)'),
      figure('firstHtml', 'first open of a docs page: HTML served', 'from the ready line to the page\'s HTML in Chromium, signed in as admin'),
      figure('firstOpen', 'first open of a docs page', 'from the ready line until its heading is drawn in Chromium, signed in as admin; goal ≤ 2 s'),
      figure('secondOpen', 'another page', 'in a second tab of the same browser, until its heading is drawn'),
      figure('edit', 'an edit in the open page', 'from writing the file until the open tab shows it, with no reload; goal ≤ 1 s'),
    ]
  } finally {
    fs.rmSync(dir, { recursive: true, force: true })
    fs.rmSync(generated, { recursive: true, force: true })
  }
}
