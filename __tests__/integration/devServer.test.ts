/**
 * @jest-environment node
 *
 * `npm run dev` hot-reloads. In a copy of the project, scripts/server/dev.ts starts the local
 * Cognito and Next's dev server on free ports; Chromium signs in as leads1 through the login form and
 * opens a docs page; then the page's MDX is edited and the open page must show the edit without
 * the test reloading it, and without Next compiling anything: the dev server tells the page that
 * props changed and the page fetches its own again (lib/render/useDevServerEvents.ts).
 *
 * It also runs the build's content check at start and on each edit: a page that does not compile
 * is named in its terminal as the build names it, and the server keeps running. And it follows
 * access.config.ts: after an edit, the next page load shows the new navigation and the reader's
 * view decides with the new rules; a broken edit is named and the last rules that passed stay.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import fs from 'node:fs'
import http from 'node:http'
import net from 'node:net'
import os from 'node:os'
import path from 'node:path'
import type { Browser, Page } from 'playwright-core'
import { launchBrowser, signInThroughForm, watchErrors } from '../../e2e/browser'
import { freePort } from '../../scripts/audit/buildAuditSite'
import { copyProject } from '../../scripts/audit/copyProject'
import { decideForView, READER_VIEW_PATH, type ReaderView } from '../../lib/access/readerView'
import { DYNAMIC_CSS_MANIFEST_FILE } from '../../patches/next'
import { DEV_PROPS_EVENTS_PATH } from '../../lib/render/devPropsEvents'

jest.setTimeout(300_000)

const ROUTE = '/docs/leads/intro'
const SOURCE = 'content/docs/leads/intro.mdx'
const HEADING = 'Leads API introduction'
/** Another page of the section, open beside ROUTE while ROUTE's file does not pass. */
const OTHER_LEADS_ROUTE = '/docs/leads/environments'
/** A sentence of the page that the edit replaces. */
const SENTENCE = 'The Leads API lets our lead-source partners send us a prospective conveyancing client'
/** Next's dev server compiles each page on its first request: up to a minute on a 2-core machine. */
const COMPILE_MS = 120_000
/** Next's dev output when it compiles modules: "✓ Compiled in 4.2s (1516 modules)", "✓ Compiled /[[...slug]] in …". */
const NEXT_COMPILED = /Compil(ed|ing)\b/
/** The dev server's line once the docs route is compiled (scripts/server/dev.ts); Next's server says only that it listens before it. */
const READY = /npm run dev: ready at http:\/\/127\.0\.0\.1:\d+/
/** How long an edit may take to reach the open page. */
const HOT_RELOAD_MS = 60_000
/** How long the dev stack gets to shut down on SIGTERM before it is killed. */
const STOP_GRACE_MS = 10_000

class DevServerError extends Error {
  name = 'DevServerError'
}

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dev-server-'))
const children: ChildProcess[] = []
let browser: Browser | undefined
/** The page the hot-reload test signed in as leads1, and its dev stack, for the access.config.ts test after it. */
let signedIn: { page: Page; dev: ChildProcess; siteUrl: string } | undefined
/**
 * The dev stack's output since the test began (its end is shown when something fails). Kept whole up
 * to a bound no test reaches, so that a test's marks (`output.length` before an edit) stay valid.
 */
let output = ''
const OUTPUT_KEPT = 1_000_000
const OUTPUT_SHOWN = 6000

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/**
 * Runs `npm run dev`'s script (scripts/server/startDev.mjs, then dev.ts) in the copy, in a process
 * group of its own so that the whole tree (Next's dev server and its workers too) can be stopped at once,
 * with NODE_ENV as in a developer's shell (Jest's is "test").
 */
/** What the dev server answers a request to `path` with exactly `headers` (Host included); for an upgrade, 101 when it switched. */
function statusWith(port: number, path: string, headers: Record<string, string>): Promise<number> {
  return new Promise((resolve, reject) => {
    const request = http.request({ host: '127.0.0.1', port, path, headers }, (response) => {
      response.resume()
      resolve(response.statusCode ?? 0)
    })
    request.on('upgrade', (response, socket) => {
      socket.destroy()
      resolve(response.statusCode ?? 0)
    })
    request.on('error', reject)
    request.end()
  })
}

/** A WebSocket's opening request, as a browser sends one. */
const WEBSOCKET = { connection: 'Upgrade', upgrade: 'websocket', 'sec-websocket-version': '13', 'sec-websocket-key': 'dGhlIHNhbXBsZSBub25jZQ==' }

function startDev(env: Record<string, string>): ChildProcess {
  const child = spawn(process.execPath, ['scripts/server/startDev.mjs'], {
    cwd: dir,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, NODE_ENV: 'development', NEXT_TELEMETRY_DISABLED: '1', ...env },
  })
  const keep = (chunk: Buffer) => (output = (output + chunk).slice(-OUTPUT_KEPT))
  child.stdout!.on('data', keep)
  child.stderr!.on('data', keep)
  children.push(child)
  return child
}

const exited = (child: ChildProcess) => child.exitCode !== null || child.signalCode !== null

/** Polls `url` until it answers 200, failing early when the dev stack exits. */
async function waitForServer(url: string, child: ChildProcess): Promise<void> {
  const deadline = Date.now() + COMPILE_MS
  while (Date.now() < deadline) {
    if (exited(child)) throw new DevServerError(`the dev stack exited (${child.exitCode ?? child.signalCode}) before ${url} answered`)
    try {
      // The first request waits for the first compile, so it gets all the time that is left.
      const response = await fetch(url, { signal: AbortSignal.timeout(Math.max(1, deadline - Date.now())) })
      if (response.ok) return
    } catch {
      // Not listening yet.
    }
    await sleep(500)
  }
  throw new DevServerError(`${url} did not answer within ${COMPILE_MS / 1000} s`)
}

/**
 * Whether any process of the group led by `pid` is still running. An exited one whose parent is gone
 * stays a zombie until the machine's first process reaps it, which in a container may be never.
 */
function groupAlive(pid: number): boolean {
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue
    let stat: string
    try {
      stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8')
    } catch {
      continue
    }
    // After the command's closing parenthesis: state, parent, process group.
    const [state, , group] = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
    if (Number(group) === pid && state !== 'Z') return true
  }
  return false
}

/** SIGTERM to the whole process group (dev.ts then stops its Cognito and authority), SIGKILL after a grace period. */
async function stopTree(child: ChildProcess): Promise<void> {
  const pid = child.pid
  if (pid === undefined || !groupAlive(pid)) return
  process.kill(-pid, 'SIGTERM')
  const deadline = Date.now() + STOP_GRACE_MS
  while (groupAlive(pid) && Date.now() < deadline) await sleep(200)
  if (groupAlive(pid)) process.kill(-pid, 'SIGKILL')
}

/** Runs a test body; on failure, prints the dev stack's last output, which usually says why. */
async function withDevOutput(body: () => Promise<void>): Promise<void> {
  try {
    await body()
  } catch (error) {
    console.error(`Last output of scripts/server/dev.ts:\n${output.slice(-OUTPUT_SHOWN) || '(none)'}`)
    throw error
  }
}

beforeAll(() => {
  copyProject(process.cwd(), dir)
  fs.writeFileSync(path.join(dir, `content${FINER_ROUTE}.mdx`), '---\ntitle: Finer rule probe\n---\n\n# Finer rule probe\n\nA page no other page links to.\n')
})

afterAll(async () => {
  await browser?.close()
  await Promise.all(children.map(stopTree))
  fs.rmSync(dir, { recursive: true, force: true })
})

test.each([
  [{ DOCS_DEV_COGNITO_PORT: '92x9', PORT: String(freePort()) }, 'DOCS_DEV_COGNITO_PORT must be a port number (0-65535; 0 picks a free one), not "92x9"'],
  [{ PORT: '0' }, 'PORT must be a port number (1-65535), not "0"'],
])('a port variable that is not a port number stops the dev stack, Next’s server too, with the variable named (%o)', async (env, message) => {
  const from = output.length
  const child = startDev(env)
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve))
  expect(code).toBe(1)
  expect(output.slice(from)).toContain(message)
  // Next's server was forked before the check: it is gone too.
  await sleep(1000)
  expect(groupAlive(child.pid!)).toBe(false)
})

test('a PORT another server listens on stops the dev stack at once, with the port named, and leaves no process', async () => {
  const taken = net.createServer()
  await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve))
  const port = (taken.address() as net.AddressInfo).port
  try {
    const from = output.length
    const child = startDev({ PORT: String(port), DOCS_DEV_COGNITO_PORT: '0' })
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve))
    expect(code).toBe(1)
    expect(output.slice(from)).toContain(`Next's dev server could not listen on 127.0.0.1:${port}`)
    expect(output.slice(from)).toMatch(/npm run dev: Next's dev server exited \(code 1\)/)
    await sleep(1000)
    expect(groupAlive(child.pid!)).toBe(false)
  } finally {
    taken.close()
  }
})

/** Waits until the dev stack's output (from `from` on) matches `pattern`, failing early when it exits. */
async function waitForOutput(pattern: RegExp, child: ChildProcess, from = 0, ms = COMPILE_MS): Promise<string> {
  const deadline = Date.now() + ms
  while (Date.now() < deadline) {
    const match = output.slice(from).match(pattern)
    if (match) return match[0]
    if (exited(child)) throw new DevServerError(`the dev stack exited (${child.exitCode ?? child.signalCode}) before printing ${pattern}`)
    await sleep(200)
  }
  throw new DevServerError(`the dev stack did not print ${pattern} within ${ms / 1000} s`)
}

/** How long pages are still asked for after an edit's content check ends: Next lists the route's paths again on the next requests. */
const ASK_AFTER_MS = 5000

/**
 * Asks for `routes` all at once, again and again, until stopped; then the answers that were server
 * errors ("500 /docs/leads/intro"). Refused connections count too: the server must stay up.
 */
function askTogether(port: number, routes: string[]): { stop: () => Promise<string[]> } {
  const failures: string[] = []
  let stopped = false
  const rounds = (async () => {
    while (!stopped) {
      await Promise.all(
        routes.map(async (route) => {
          try {
            const response = await fetch(`http://127.0.0.1:${port}${route}`)
            await response.arrayBuffer()
            if (response.status >= 500) failures.push(`${response.status} ${route}`)
          } catch (error) {
            failures.push(`${(error as Error).message} ${route}`)
          }
        }),
      )
    }
  })()
  return {
    stop: async () => {
      stopped = true
      await rounds
      return failures
    },
  }
}

test('a page that does not compile is named in the terminal with its line and column, as the build names it, and the server keeps running', () =>
  withDevOutput(async () => {
    output = ''
    const sitePort = freePort()
    const dev = startDev({ PORT: String(sitePort), DOCS_DEV_COGNITO_PORT: String(freePort()) })
    try {
      await waitForOutput(/content check: \d+ pages: \d+ compiled, \d+ from cache; no problems/, dev)
      await waitForOutput(READY, dev)
      // Nobody has asked for a page: the dev server had Next compile the docs route before it said
      // ready, the line a writer opens the browser at, by asking for pages of it as a browser would.
      const beforeReady = output.slice(0, output.search(READY))
      expect(beforeReady).toMatch(/Compiled \/\[\[\.\.\.slug\]\]/)
      expect(beforeReady).toMatch(/Next listening in [\d.]+s; compiling the docs route/)
      // So the writer's first docs page is served without Next compiling anything for it.
      const opened = output.length
      const first = await fetch(`http://127.0.0.1:${sitePort}${ROUTE}`)
      expect(first.status).toBe(200)
      expect(await first.text()).toContain(HEADING)
      await waitForOutput(new RegExp(`GET ${ROUTE} 200`), dev, opened)
      expect(output.slice(opened)).not.toMatch(NEXT_COMPILED)
      // It serves every section to anyone, so only this machine's pages and tools: not through a
      // host name pointed at 127.0.0.1 (DNS rebinding), and not to another site's page, whose
      // WebSocket would hear each page opened (Next's updates name them).
      const own = `127.0.0.1:${sitePort}`
      expect(await statusWith(sitePort, ROUTE, { host: `evil.example:${sitePort}` })).toBe(403)
      expect(await statusWith(sitePort, ROUTE, { host: own, origin: 'https://evil.example' })).toBe(403)
      expect(await statusWith(sitePort, DEV_PROPS_EVENTS_PATH, { host: own, origin: 'https://evil.example' })).toBe(403)
      expect(await statusWith(sitePort, '/_next/webpack-hmr', { ...WEBSOCKET, host: own, origin: 'https://evil.example' })).toBe(403)
      expect(await statusWith(sitePort, '/_next/webpack-hmr', { ...WEBSOCKET, host: `evil.example:${sitePort}`, origin: `http://evil.example:${sitePort}` })).toBe(403)
      expect(await statusWith(sitePort, '/_next/webpack-hmr', { ...WEBSOCKET, host: own, origin: `http://${own}` })).toBe(101)
      const broken = path.join(dir, 'content/docs/leads/broken.mdx')
      const mark = output.length
      fs.writeFileSync(broken, '---\ntitle: Broken\n---\n\n# Broken\n\n<Callout type="info">\n\nNever closed.\n')
      expect(await waitForOutput(/^content\/docs\/leads\/broken\.mdx:.*$/m, dev, mark)).toBe('content/docs/leads/broken.mdx:7:1: Expected a closing tag for `<Callout>` (7:1-7:22)')
      expect(output.slice(mark)).toContain('checkContent: 1 problem(s) under content/docs/; fix them before building')
      expect(output.slice(mark)).not.toMatch(/^\s+at /m)

      const fixed = output.length
      // Pages are asked for, several at once, as tabs and their prefetches do, while the page is added:
      // none of them may meet a server error (Next's dev server rewrites a manifest of the route's
      // paths when they change, and a request that reads it mid-write fails).
      // The window is microseconds wide, so that manifest is also checked: a page added leaves it unwritten.
      const prerenderManifest = path.join(dir, '.next/prerender-manifest.json')
      const manifestWritten = fs.statSync(prerenderManifest).mtimeMs
      const asking = askTogether(sitePort, [ROUTE, OTHER_LEADS_ROUTE, '/', '/docs/leads/broken'])
      fs.writeFileSync(broken, '---\ntitle: Broken\n---\n\n# Broken\n\n<Callout type="info">\n\nClosed now.\n\n</Callout>\n')
      // Only the edited page is compiled again.
      await waitForOutput(/content check: \d+ pages: 1 compiled, \d+ from cache; no problems/, dev, fixed)
      await sleep(ASK_AFTER_MS)
      expect(await asking.stop()).toEqual([])
      expect(exited(dev)).toBe(false)
      // A page added after Next listed the docs route's paths (the dev server's first request) opens, not as a 404.
      // Asked again until it holds the text: a check may have read the file between the write's
      // truncation and its bytes (an empty page, which passes), and the next check has the text.
      const deadline = Date.now() + HOT_RELOAD_MS
      let added = await fetch(`http://127.0.0.1:${sitePort}/docs/leads/broken`)
      let html = await added.text()
      while (added.status === 200 && !html.includes('Closed now.') && Date.now() < deadline) {
        await sleep(250)
        added = await fetch(`http://127.0.0.1:${sitePort}/docs/leads/broken`)
        html = await added.text()
      }
      expect(added.status).toBe(200)
      expect(html).toContain('Closed now.')
      expect(fs.statSync(prerenderManifest).mtimeMs).toBe(manifestWritten)
      // And while it is removed.
      const removed = output.length
      const askingAgain = askTogether(sitePort, [ROUTE, OTHER_LEADS_ROUTE, '/', '/docs/leads/broken'])
      fs.rmSync(broken)
      await waitForOutput(/content check: \d+ pages: \d+ compiled, \d+ from cache; no problems/, dev, removed)
      await sleep(ASK_AFTER_MS)
      expect(await askingAgain.stop()).toEqual([])
    } finally {
      await stopTree(dev)
    }
  }))

test('an edit to a page’s MDX shows in the open page without the test reloading it', () =>
  withDevOutput(async () => {
    // Chromium first: when it is missing, this fails at once with the apt-get command.
    browser = await launchBrowser()
    const [sitePort, cognitoPort] = [freePort(), freePort()]
    const siteUrl = `http://127.0.0.1:${sitePort}`
    const cognitoUrl = `http://127.0.0.1:${cognitoPort}`
    output = ''
    const dev = startDev({ PORT: String(sitePort), DOCS_DEV_COGNITO_PORT: String(cognitoPort) })
    // A restart: the test above left the pages' props, so the route is compiled from them and the
    // content check runs after ready, not beside the compile.
    await waitForOutput(READY, dev)
    expect(output.slice(0, output.search(READY))).not.toMatch(/content check:/)
    await waitForOutput(/content check: \d+ pages: \d+ compiled, \d+ from cache; no problems/, dev)
    await waitForServer(`${siteUrl}/`, dev)

    const page = await browser.newPage()
    page.setDefaultTimeout(COMPILE_MS)
    const errors = watchErrors(page)
    // The browser must sign in against this stack's Cognito, which is not on the default port.
    const cognitoCalls: string[] = []
    page.on('request', (request) => request.url().startsWith(cognitoUrl) && cognitoCalls.push(request.url()))
    await signInThroughForm(page, 'leads1', ROUTE, siteUrl).catch((error: Error) => {
      throw new DevServerError(`signing in as leads1 failed; the browser called this stack's Cognito (${cognitoUrl}) ${cognitoCalls.length} times (${error.message.split('\n')[0]})`)
    })
    await page.getByRole('heading', { level: 1, name: HEADING }).waitFor()
    expect(cognitoCalls.length).toBeGreaterThan(0)
    // What Next's dev server reads for every page it serves, which it would otherwise wait for (patches/next/index.ts withDevDynamicCssManifest).
    expect(fs.readFileSync(path.join(dir, '.next', DYNAMIC_CSS_MANIFEST_FILE), 'utf8')).toBe('[]')
    // The development scripts come as they are: gzipping them on 127.0.0.1 took longer than sending them (next.config.ts).
    const script = await page.request.get(`${siteUrl}/_next/static/chunks/main.js`, { headers: { 'accept-encoding': 'gzip, br' } })
    expect([script.status(), script.headers()['content-encoding']]).toEqual([200, undefined])
    // And without inline source maps, which were most of their bytes (patches/next/index.ts withoutDevSourceMaps);
    // the phrase itself is in Next's own code, which reads maps.
    expect((await script.text()).match(/sourceMappingURL=data:application\/json;charset=utf-8;base64,[A-Za-z0-9+/]{100}/g)).toBeNull()

    const marker = `Hot reload marker ${Date.now()}: this sentence was written while the page was open.`
    await page.getByText(SENTENCE).waitFor()
    expect(await page.getByText(marker).count()).toBe(0)

    const source = path.join(dir, SOURCE)
    const text = fs.readFileSync(source, 'utf8')
    expect(text).toContain(SENTENCE)
    const beforeEdit = output.length
    // Gone if the page is loaded again: the edit must come into this document.
    await page.evaluate(() => Object.assign(window, { openBeforeTheEdit: true }))
    fs.writeFileSync(source, text.replace(SENTENCE, marker))

    await page.getByText(marker).waitFor({ timeout: HOT_RELOAD_MS }).catch((error: Error) => {
      throw new DevServerError(`the open page did not show the edit to ${SOURCE} within ${HOT_RELOAD_MS / 1000} s, so hot reload is broken (${error.message.split('\n')[0]})`)
    })
    expect(await page.getByText(SENTENCE).count()).toBe(0)
    // Still the same page, still signed in.
    expect(new URL(page.url()).pathname).toBe(ROUTE)
    expect(await page.getByRole('heading', { level: 1, name: HEADING }).isVisible()).toBe(true)
    expect(await page.evaluate(() => 'openBeforeTheEdit' in window)).toBe(true)
    // An edit of a page's text compiles that page alone and writes its props alone, and Next compiles no module for it.
    expect(output.slice(beforeEdit)).toMatch(/content check: \d+ pages: 1 compiled, \d+ from cache; no problems; 1 page's props written/)
    expect(output.slice(beforeEdit)).not.toMatch(NEXT_COMPILED)

    // A new title changes the navigation of the pages whose sidebar shows it: their props are written too, and the page shows it.
    const beforeRetitle = output.length
    const retitled = `Leads API introduction, retitled ${Date.now()}`
    fs.writeFileSync(source, fs.readFileSync(source, 'utf8').replace('title: Leads API introduction', `title: ${retitled}`))
    await page.waitForFunction((title) => document.title.startsWith(title), retitled, { timeout: HOT_RELOAD_MS })
    expect(output.slice(beforeRetitle)).toMatch(/content check: \d+ pages: 1 compiled, \d+ from cache; no problems; ([2-9]|\d{2,}) pages' props written/)
    expect(output.slice(beforeRetitle)).not.toMatch(NEXT_COMPILED)

    // An edit that does not pass: the open page keeps its last version and says why, with its own
    // file's message as the terminal prints it; another open page says only that another file has one.
    // Signed in as the same reader: the first page's cookies and storage.
    const otherContext = await browser.newContext({ storageState: await page.context().storageState() })
    const other = await otherContext.newPage()
    await other.goto(`${siteUrl}${OTHER_LEADS_ROUTE}`)
    await other.getByRole('heading', { level: 1 }).waitFor()
    const good = fs.readFileSync(source, 'utf8')
    fs.writeFileSync(source, `${good}\n<Callout type="info">\n\nNever closed.\n`)
    const own = page.getByRole('alert').filter({ hasText: 'This page did not pass the content check' })
    await own.waitFor({ timeout: HOT_RELOAD_MS })
    const firstError = /content\/docs\/leads\/intro\.mdx:(\d+):1: Expected a closing tag for `<Callout>`/.exec((await own.textContent()) ?? '')
    expect(firstError).not.toBeNull()
    // Another error of the same page, as many problems as before: the page shows the new one.
    fs.writeFileSync(source, `${good}\n\nA line between.\n\n<Callout type="info">\n\nNever closed.\n`)
    await page.waitForFunction(
      (first) => [...document.querySelectorAll('[role=alert]')].some((alert) => /intro\.mdx:\d+:1:/.test(alert.textContent ?? '') && !alert.textContent!.includes(`intro.mdx:${first}:1:`)),
      firstError![1],
      { timeout: HOT_RELOAD_MS }
    )
    expect(await page.getByRole('heading', { level: 1, name: HEADING }).isVisible()).toBe(true)
    // Next's route announcer is an alert too.
    const elsewhere = other.getByRole('alert').filter({ hasText: 'content check' })
    await elsewhere.waitFor({ timeout: HOT_RELOAD_MS })
    expect(await elsewhere.textContent()).toContain('The content check found a problem elsewhere')
    expect(await elsewhere.textContent()).not.toContain('intro')
    // Fixed: both say nothing more.
    fs.writeFileSync(source, good)
    await own.waitFor({ state: 'detached', timeout: HOT_RELOAD_MS })
    await elsewhere.waitFor({ state: 'detached', timeout: HOT_RELOAD_MS })
    // A new page that does not pass is not found, and its not-found page says why; fixed, it opens in place.
    const fresh = path.join(dir, 'content/docs/leads/new-page-probe.mdx')
    fs.writeFileSync(fresh, '---\ntitle: New page probe\n---\n\n# New page probe\n\n<Callout type="info">\n\nNever closed.\n')
    await other.goto(`${siteUrl}/docs/leads/new-page-probe`)
    await other.getByRole('heading', { level: 1, name: 'Page not found' }).waitFor()
    const whyNotFound = other.getByRole('alert').filter({ hasText: 'This page did not pass the content check' })
    await whyNotFound.waitFor({ timeout: HOT_RELOAD_MS })
    expect(await whyNotFound.textContent()).toContain('content/docs/leads/new-page-probe.mdx:7:1: Expected a closing tag for `<Callout>`')
    fs.writeFileSync(fresh, '---\ntitle: New page probe\n---\n\n# New page probe\n\n<Callout type="info">\n\nClosed now.\n\n</Callout>\n')
    await other.getByRole('heading', { level: 1, name: 'New page probe' }).waitFor({ timeout: HOT_RELOAD_MS })
    await whyNotFound.waitFor({ state: 'detached', timeout: HOT_RELOAD_MS })
    fs.rmSync(fresh)
    await otherContext.close()
    expect(errors).toEqual([])
    signedIn = { page, dev, siteUrl }
  }))

/** A leads page that the access.config.ts test puts under a finer rule, for full-access readers only. */
/**
 * A leads page that the edit puts under a finer rule: one no other page links to, since a link from a
 * leads page to a page its readers may not open fails the content check, in dev as in a build.
 */
const FINER_ROUTE = '/docs/leads/finer-rule-probe'
/** A page of a section that the same edit opens to leads1, by adding them to the section's list. */
const OTHER_SECTION_ROUTE = '/docs/internal/intro'
const SHIPPED_RULES = "rules: [{ path: '/', match: 'exact', require: 'signedIn' }]"
const SHIPPED_INTERNAL = "internalUsers: 'internal1',"
/** The shipped configuration with leads1 added to the internal list and FINER_ROUTE requiring `require`. */
const edited = (config: string, require: string) =>
  config
    .replace(SHIPPED_INTERNAL, "internalUsers: 'internal1, leads1',")
    .replace(SHIPPED_RULES, `rules: [{ path: '/', match: 'exact', require: 'signedIn' }, { path: '${FINER_ROUTE}', match: 'exact', require: '${require}' }]`)

/** Loads `route` in `page`, returning the reader's view that this load asked the authority for. */
async function openWithView(page: Page, siteUrl: string, route: string): Promise<ReaderView> {
  const view = page.waitForResponse((response) => new URL(response.url()).pathname === READER_VIEW_PATH)
  await page.goto(siteUrl + route)
  const response = await view
  expect(response.status()).toBe(200)
  return (await response.json()) as ReaderView
}

/** The sidebar's links on the open page, once its link to ROUTE (in every state of this test) is there. */
async function sidebarLinks(page: Page): Promise<string[]> {
  const sidebar = page.locator('aside.nextra-sidebar-container, .nextra-sidebar-container').first()
  await sidebar.locator(`a[href="${ROUTE}"]`).first().waitFor()
  return sidebar.locator('a').evaluateAll((links) => links.map((link) => new URL((link as HTMLAnchorElement).href).pathname))
}

test('an edit of access.config.ts shows in the next page load’s navigation and access decisions; a broken one is named and the last rules stay', () =>
  withDevOutput(async () => {
    if (!signedIn) throw new DevServerError('this test uses the page the hot-reload test signed in as leads1, and that test did not get that far')
    const { page, dev, siteUrl } = signedIn
    const file = path.join(dir, 'access.config.ts')
    const shipped = fs.readFileSync(file, 'utf8')
    expect(shipped).toContain(SHIPPED_RULES)
    expect(shipped).toContain(SHIPPED_INTERNAL)

    // As shipped, leads1 reads the whole Leads section and nothing of Internal.
    let view = await openWithView(page, siteUrl, ROUTE)
    expect(decideForView(view, OTHER_SECTION_ROUTE)).toBe('deny')
    expect(view.sections.map((section) => section.id)).toEqual(['leads'])
    expect(await sidebarLinks(page)).toContain(FINER_ROUTE)

    // leads1 joins the internal list, and a leads page goes under a finer rule for full-access readers.
    const applied = output.length
    fs.writeFileSync(file, edited(shipped, 'fullAccessUsers'))
    await waitForOutput(/content check: \d+ pages: 0 compiled, \d+ from cache; no problems; the access rules of access\.config\.ts applied/, dev, applied, HOT_RELOAD_MS)
    view = await openWithView(page, siteUrl, ROUTE)
    expect(decideForView(view, OTHER_SECTION_ROUTE)).toBe('allow')
    expect(view.sections.map((section) => section.id)).toEqual(['leads', 'internal'])
    expect(await sidebarLinks(page)).not.toContain(FINER_ROUTE)

    // A rule naming a list that does not exist: the configuration's own error, and the rules above stay.
    const broken = output.length
    fs.writeFileSync(file, edited(shipped, 'leadUsers'))
    await waitForOutput(/npm run dev: keeps the access rules of the last access\.config\.ts that passed until this one does/, dev, broken, HOT_RELOAD_MS)
    expect(output.slice(broken)).toContain(`access.config.ts: rule 2 (${FINER_ROUTE}) names an unknown list "leadUsers"; known lists: fullAccessUsers, leadsUsers,`)
    expect(output.slice(broken)).not.toMatch(/^\s+at /m)
    expect(exited(dev)).toBe(false)
    // The open page says a file elsewhere did not pass, and still does after a content edit passes meanwhile.
    await page.goto(siteUrl + ROUTE)
    const configProblem = page.getByRole('alert').filter({ hasText: 'The content check found a problem elsewhere' })
    await configProblem.waitFor({ timeout: HOT_RELOAD_MS })
    const touched = output.length
    fs.appendFileSync(path.join(dir, SOURCE), '\nA paragraph added while the configuration does not load.\n')
    await waitForOutput(/content check: \d+ pages: 1 compiled, \d+ from cache; no problems/, dev, touched, HOT_RELOAD_MS)
    await page.getByText('A paragraph added while the configuration does not load.').waitFor({ timeout: HOT_RELOAD_MS })
    expect(await configProblem.isVisible()).toBe(true)
    view = await openWithView(page, siteUrl, ROUTE)
    expect(decideForView(view, OTHER_SECTION_ROUTE)).toBe('allow')
    expect(await sidebarLinks(page)).not.toContain(FINER_ROUTE)

    // Put back as shipped: the next edit applies again, and the browser refuses Internal once more.
    const restored = output.length
    fs.writeFileSync(file, shipped)
    await waitForOutput(/no problems; the access rules of access\.config\.ts applied/, dev, restored, HOT_RELOAD_MS)
    await configProblem.waitFor({ state: 'detached', timeout: HOT_RELOAD_MS })
    view = await openWithView(page, siteUrl, ROUTE)
    expect(decideForView(view, OTHER_SECTION_ROUTE)).toBe('deny')
    expect(await sidebarLinks(page)).toContain(FINER_ROUTE)
    // Refused, the page leaves by a full load (components/RouteGuard.tsx), so its view is not read here.
    await page.goto(siteUrl + OTHER_SECTION_ROUTE)
    await page.waitForURL((url) => url.pathname === '/unauthorized')
  }))

test('an edit of next.config.ts starts Next’s dev server again, and the dev stack says ready again and serves the pages', () =>
  withDevOutput(async () => {
    if (!signedIn) throw new DevServerError('this test uses the dev stack the hot-reload test started, and that test did not get that far')
    const { page, dev, siteUrl } = signedIn
    const file = path.join(dir, 'next.config.ts')
    const edited = output.length
    fs.appendFileSync(file, '\n// An edit of the config, as a developer makes one.\n')
    await waitForOutput(/next\.config\.ts changed: starting Next's dev server again/, dev, edited, HOT_RELOAD_MS)
    await waitForOutput(READY, dev, edited, COMPILE_MS)
    expect(exited(dev)).toBe(false)
    expect((await fetch(siteUrl + ROUTE)).status).toBe(200)
    await page.goto(siteUrl + ROUTE)
    await page.getByRole('heading', { level: 1, name: HEADING }).waitFor()
  }))
