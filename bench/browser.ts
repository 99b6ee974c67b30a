/**
 * Browser figures against the last `npm run build`, served by the local stack (local Cognito +
 * the authorizing server): Lighthouse (mobile preset) on five pages, signed in where the page
 * needs it; a docs page's hydration and a move in the browser to the next page; and the time from
 * submitting the sign-in form to the first docs page painted.
 */
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { chromium, type BrowserContext } from 'playwright-core'
import { CHROMIUM } from '../e2e/browser'
import { amplifyCookieHeader, signInIdToken } from '../scripts/audit/cognitoSession'
import { SEEDED_PASSWORD } from '../scripts/cognito/seed'
import { startLocalStack } from '../scripts/server/startStack'
import { median, type Figure } from './table'

const CHROMIUM_ARGS = ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run', '--disable-sync']
/**
 * Each page as the visitor it is for. The sign-in page is measured anonymously: a signed-in
 * reader who opens it is sent on to their docs at once, so signed in it would score the page
 * they land on, not the form.
 */
const PAGES: Array<[name: string, route: string, visitor: 'admin' | 'anonymous']> = [
  ['home', '/', 'admin'],
  ['docs page with images and code', '/docs/leads/intro', 'admin'],
  ['sign-in', '/login', 'anonymous'],
  ['no access', '/unauthorized', 'admin'],
  // By its own path: Lighthouse will not score a response with status 404.
  ['not found', '/404', 'admin'],
]

/** A Cookie header's pairs as the browser's cookies for `siteUrl`. */
export function cookiesFor(siteUrl: string, header: string) {
  return header.split('; ').map((pair) => {
    const at = pair.indexOf('=')
    return { name: decodeURIComponent(pair.slice(0, at)), value: pair.slice(at + 1), url: siteUrl }
  })
}

/** The docs page measured, and the page its sidebar moves to. */
const DOCS_FROM = '/docs/leads/intro'
const DOCS_TO: [route: string, title: string] = ['/docs/leads/environments', 'Environments']

/**
 * A docs page opened with an empty cache: when its body is hydrated (its last paragraph is React's:
 * React marks each node it owns), from navigation start; then a click on the sidebar's next page,
 * to that page's heading drawn, in the same document (a full load would end the evaluation).
 */
async function docsPageFigures(context: BrowserContext, siteUrl: string, runs: number): Promise<Figure[]> {
  const hydrated: number[] = []
  const moved: number[] = []
  for (let run = 0; run < runs; run++) {
    const page = await context.newPage()
    const cdp = await context.newCDPSession(page)
    await cdp.send('Network.clearBrowserCache')
    await page.goto(siteUrl + DOCS_FROM)
    const at = await page.waitForFunction(() => {
      const paragraphs = document.querySelectorAll('main p')
      const last = paragraphs[paragraphs.length - 1]
      return last && Object.keys(last).some((key) => key.startsWith('__reactFiber')) ? performance.now() : false
    }, null, { polling: 'raf' })
    hydrated.push(Math.round(Number(await at.jsonValue())))
    // The sidebar's links move in place once the reader view says the reader may open them.
    await page.waitForLoadState('networkidle')
    const [route, title] = DOCS_TO
    // A string, not a function: tsx would name the inner function with a helper the page lacks.
    const move = `new Promise((resolve, reject) => {
      const link = document.querySelector('a[href="${route}"]')
      if (!link) return reject(new Error('no link to ${route}'))
      const start = performance.now()
      const drawn = () => (document.querySelector('h1')?.textContent === ${JSON.stringify(title)} ? resolve(performance.now() - start) : requestAnimationFrame(drawn))
      link.click()
      requestAnimationFrame(drawn)
    })`
    moved.push(Math.round(Number(await page.evaluate(move))))
    await page.close()
  }
  const figure = (name: string, values: number[], method: string): Figure => ({ group: 'docs page', name, value: median(values), min: Math.min(...values), max: Math.max(...values), runs, unit: 'ms', method })
  return [
    figure(`${DOCS_FROM}: body hydrated, from navigation start`, hydrated, 'Chromium, no throttling, empty cache, signed in as admin; the last paragraph of the body holds React\'s fiber'),
    figure(`move in the browser ${DOCS_FROM} → ${DOCS_TO[0]}`, moved, 'Chromium, no throttling, signed in as admin: click on the sidebar link to its heading drawn, in the same document'),
  ]
}

export type BrowserPart = 'lighthouse' | 'docs page' | 'sign-in'

export async function browserFigures(runs = 3, parts: readonly BrowserPart[] = ['lighthouse', 'docs page', 'sign-in']): Promise<Figure[]> {
  const stack = await startLocalStack({ sitePort: 0 })
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-chromium-'))
  const port = 9300 + Math.floor(Math.random() * 500)
  const context = await chromium.launchPersistentContext(profile, { executablePath: CHROMIUM, args: [...CHROMIUM_ARGS, `--remote-debugging-port=${port}`] })
  const figures: Figure[] = []
  try {
    const { default: lighthouse } = await import('lighthouse')
    const cookie = amplifyCookieHeader('admin', await signInIdToken(stack.cognitoUrl, 'admin', SEEDED_PASSWORD))
    for (const [name, route, visitor] of parts.includes('lighthouse') ? PAGES : []) {
      await context.clearCookies()
      if (visitor === 'admin') await context.addCookies(cookiesFor(stack.siteUrl, cookie))
      const results: Array<Record<string, number>> = []
      for (let run = 0; run < runs; run++) {
        const result = await lighthouse(stack.siteUrl + route, { port, output: 'json', logLevel: 'error', onlyCategories: ['performance', 'accessibility', 'best-practices'] })
        const { categories, audits } = result!.lhr
        results.push({
          performance: Math.round((categories.performance.score ?? 0) * 100),
          accessibility: Math.round((categories.accessibility.score ?? 0) * 100),
          'best practices': Math.round((categories['best-practices'].score ?? 0) * 100),
          'LCP ms': Math.round(audits['largest-contentful-paint'].numericValue ?? 0),
          'TBT ms': Math.round(audits['total-blocking-time'].numericValue ?? 0),
          CLS: +(audits['cumulative-layout-shift'].numericValue ?? 0).toFixed(3),
        })
      }
      for (const metric of Object.keys(results[0])) {
        const values = results.map((result) => result[metric])
        const [figureName, unit] = metric.endsWith(' ms') ? [metric.slice(0, -3), 'ms'] : [metric, metric === 'CLS' ? '' : '/100']
        figures.push({ group: 'lighthouse', name: `${name} (${route}): ${figureName}`, value: median(values), min: Math.min(...values), max: Math.max(...values), runs, unit, method: `lighthouse 12, mobile preset (simulated throttling), Debian Chromium, ${visitor === 'admin' ? 'signed in as admin' : 'not signed in'}` })
      }
    }

    if (parts.includes('docs page')) {
      await context.clearCookies()
      await context.addCookies(cookiesFor(stack.siteUrl, cookie))
      figures.push(...(await docsPageFigures(context, stack.siteUrl, runs)))
    }

    // Sign-in to content: submit the form, wait for the docs page's heading to paint.
    await context.clearCookies()
    const times: number[] = []
    for (let run = 0; run < (parts.includes('sign-in') ? runs : 0); run++) {
      const page = await context.newPage()
      await page.goto(`${stack.siteUrl}/login?next=${encodeURIComponent('/docs/leads/intro')}`)
      await page.getByLabel('Username').fill('leads1')
      await page.getByLabel('Password', { exact: true }).fill(SEEDED_PASSWORD)
      const started = Date.now()
      await page.getByRole('button', { name: 'Sign in' }).click()
      await page.getByRole('heading', { level: 1, name: 'Leads API introduction' }).waitFor()
      await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => resolve(null))))
      times.push(Date.now() - started)
      await page.close()
      await context.clearCookies()
    }
    if (times.length) figures.push({ group: 'sign-in', name: 'submit to first docs page painted', value: median(times), min: Math.min(...times), max: Math.max(...times), runs, unit: 'ms', method: 'Chromium, no throttling, local Cognito, /login?next=/docs/leads/intro' })
  } finally {
    await context.close()
    fs.rmSync(profile, { recursive: true, force: true })
    await stack.stop()
  }
  return figures
}
