/**
 * A page of another site on the same registrable domain (a sibling subdomain: here another port of
 * 127.0.0.1, which browsers count as the same site) is sent the reader's cookies with its requests
 * for this site's files (SameSite=Lax). It may try to run one of the reader's route manifests as a
 * script, with the global the manifest calls defined as its own, or draw a section's image to learn
 * whether the reader may open the section. The site's files say they are the site's alone
 * (Cross-Origin-Resource-Policy: same-origin, edge/securityHeaders.ts), so Chromium loads neither.
 */
import fs from 'node:fs'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import path from 'node:path'
import { freshPagePerTest, signInThroughForm } from './browser'
import { siteEnv } from './siteEnv'

const { siteUrl, outDir, decide } = siteEnv()
const currentPage = freshPagePerTest()

const buildId = fs.readFileSync(path.join(outDir, '..', '.next', 'BUILD_ID'), 'utf8').trim()
const manifest = `/_next/static/${buildId}/_routes/internal.js`
const image = `/docs/internal/images/${fs.readdirSync(path.join(outDir, 'docs/internal/images')).find((name) => name.endsWith('.svg'))}`

/** The other site's page: it hooks the manifest's global, then loads the manifest and the image from the docs site. */
const attackerPage = `<!doctype html><html><body><script>
  window.seen = { manifest: null, script: 'pending', image: 'pending' }
  self.__docsRoutes = (routes) => { window.seen.manifest = JSON.stringify(routes) }
  const script = document.createElement('script')
  script.src = ${JSON.stringify(siteUrl + manifest)}
  script.onload = () => { window.seen.script = 'loaded' }
  script.onerror = () => { window.seen.script = 'blocked' }
  document.body.append(script)
  const img = new Image()
  img.onload = () => { window.seen.image = 'loaded' }
  img.onerror = () => { window.seen.image = 'blocked' }
  img.src = ${JSON.stringify(siteUrl + image)}
</script></body></html>`

let other: http.Server
let otherUrl: string
beforeAll(async () => {
  other = http.createServer((_request, response) => response.writeHead(200, { 'content-type': 'text/html' }).end(attackerPage))
  await new Promise<void>((resolve) => other.listen(0, '127.0.0.1', resolve))
  otherUrl = `http://127.0.0.1:${(other.address() as AddressInfo).port}/`
})
afterAll(async () => {
  await new Promise((resolve) => other.close(resolve))
})

test("another site's page gets nothing of the reader's manifest or images, though its requests carry the reader's cookies", async () => {
  expect(new URL(otherUrl).hostname).toBe(new URL(siteUrl).hostname)
  const page = currentPage()
  await signInThroughForm(page, 'internal1')
  expect(decide('/docs/internal/intro', { username: 'internal1' })).toBe('allow')
  // On the site itself, the reader fetches both: the test below can fail.
  const own = await page.evaluate(async (paths) => Promise.all(paths.map(async (p) => (await fetch(p)).status)), [manifest, image])
  expect(own).toEqual([200, 200])

  // What the other site's page asked the docs site for (with the reader's cookies, SameSite=Lax: without this
  // header the manifest's text reached the page, the test's first run against the edge before it).
  const asked: string[] = []
  page.on('request', (request) => {
    if (request.url().startsWith(siteUrl)) asked.push(new URL(request.url()).pathname)
  })
  await page.goto(otherUrl)
  await page.waitForFunction(() => {
    const seen = (window as unknown as { seen: { script: string; image: string } }).seen
    return seen.script !== 'pending' && seen.image !== 'pending'
  })
  const seen = await page.evaluate(() => (window as unknown as { seen: unknown }).seen)
  expect(seen).toEqual({ manifest: null, script: 'blocked', image: 'blocked' })
  // The requests went out: the browser withheld the answers, told they are the site's own.
  expect(asked).toEqual(expect.arrayContaining([manifest, image]))
})
