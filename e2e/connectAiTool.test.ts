/**
 * Connecting an AI tool takes one step, from the site: a docs page's action bar leads to the AI
 * tools page, which gives the reader's own /mcp (the origin they are on) as a URL, a Claude Code
 * command and Cursor and VS Code install links, in Chromium, under the site's policy.
 */
import fs from 'node:fs'
import path from 'node:path'
import type { Page } from 'playwright-core'
import { allowedConnectors } from '../lib/aiTools/connectLinks'
import { AUDIT_SITE_FILE, type AuditSite } from '../scripts/audit/buildAuditSite'
import { freshPagePerTest, signInThroughForm, watchErrors } from './browser'
import { siteEnv } from './siteEnv'

const { siteUrl, dir } = siteEnv()
/** What the reader must be given: the test server's own origin, and /mcp on it. */
const MCP_URL = `${new URL(siteUrl).origin}/mcp`
const currentPage = freshPagePerTest()
let page: Page
beforeEach(() => {
  page = currentPage()
})

/** Records the page's Content Security Policy violations, from before anything of it runs. */
async function watchViolations(page: Page): Promise<string[]> {
  const violations: string[] = []
  await page.exposeFunction('__reportViolation', (violation: string) => violations.push(violation))
  await page.addInitScript(() => {
    const report = (window as unknown as { __reportViolation: (violation: string) => void }).__reportViolation
    document.addEventListener('securitypolicyviolation', (event) => report(`${location.pathname}: ${event.effectiveDirective} blocked ${event.blockedURI}`), true)
  })
  return violations
}

/** The JSON each install link hands its tool. */
function cursorConfig(href: string) {
  const link = new URL(href)
  expect(`${link.protocol}//${link.host}${link.pathname}`).toBe('cursor://anysphere.cursor-deeplink/mcp/install')
  return { name: link.searchParams.get('name'), config: JSON.parse(Buffer.from(link.searchParams.get('config') ?? '', 'base64').toString('utf8')) }
}
function vscodeConfig(href: string) {
  expect(href.startsWith('vscode:mcp/install?')).toBe(true)
  return JSON.parse(decodeURIComponent(href.slice('vscode:mcp/install?'.length)))
}

test("a docs page's action bar leads to the AI tools page, which gives the reader's own /mcp as URL, command and install links", async () => {
  const violations = await watchViolations(page)
  const errors = watchErrors(page)
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: siteUrl })
  await signInThroughForm(page, 'leads1', '/docs/leads/intro')
  const connect = page.locator('.page-markdown-actions').getByRole('link', { name: 'Connect an AI tool' })
  await connect.click()
  await page.waitForURL((url) => url.pathname === '/connected-tools')

  const section = page.getByRole('region', { name: 'Connect an AI tool' })
  const url = section.locator('.connect-copy-line code').first()
  await url.waitFor()
  expect(await url.textContent()).toBe(MCP_URL)
  expect(await section.locator('.connect-copy-line code').nth(1).textContent()).toBe(`claude mcp add --transport http platform-docs ${MCP_URL}`)
  expect(cursorConfig((await section.getByRole('link', { name: 'Add to Cursor' }).getAttribute('href'))!)).toEqual({ name: 'platform-docs', config: { url: MCP_URL } })
  expect(vscodeConfig((await section.getByRole('link', { name: 'Add to VS Code' }).getAttribute('href'))!)).toEqual({ name: 'platform-docs', type: 'http', url: MCP_URL })

  // The copy button puts exactly that URL on the clipboard.
  await section.getByRole('button', { name: 'Copy the URL' }).click()
  await section.getByText('Copied').waitFor()
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(MCP_URL)

  // The hosted apps' steps are those the audit build's admin allowed (the shipped claude.ai and ChatGPT).
  const { accessConfig } = JSON.parse(fs.readFileSync(path.join(dir, AUDIT_SITE_FILE), 'utf8')) as AuditSite
  const allowed = allowedConnectors(accessConfig.aiTools?.hostedRedirectUris ?? [])
  expect(allowed).toEqual(['claude', 'chatgpt'])
  await expect(section.getByRole('heading', { name: 'claude.ai and Claude Desktop' }).count()).resolves.toBe(1)
  await expect(section.getByRole('heading', { name: 'ChatGPT' }).count()).resolves.toBe(1)

  // Below it, the reader's connected tools still load (none, or those an earlier test connected).
  await page.getByRole('heading', { name: 'Your connected tools' }).waitFor()
  await page.getByText('No AI tool is connected to your account.').or(page.locator('ul.connected-tools')).waitFor()

  // The URL given is the site's MCP server: it asks a tool with no token to sign in.
  const answer = await fetch(MCP_URL, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, body: '{}' })
  expect(answer.status).toBe(401)
  expect(answer.headers.get('www-authenticate')).toMatch(/^Bearer /)

  expect(violations).toEqual([])
  expect(errors).toEqual([])
})

test('on another address of the same site, every URL is made from that address', async () => {
  // The same server under another name (localhost for 127.0.0.1): nothing on the page names a host of its own.
  const other = new URL(siteUrl)
  other.hostname = other.hostname === 'localhost' ? '127.0.0.1' : 'localhost'
  const otherOrigin = other.origin
  await signInThroughForm(page, 'leads1', '/connected-tools', otherOrigin)
  const section = page.getByRole('region', { name: 'Connect an AI tool' })
  await section.locator('.connect-copy-line code').first().waitFor()
  expect(await section.locator('.connect-copy-line code').first().textContent()).toBe(`${otherOrigin}/mcp`)
  expect(cursorConfig((await section.getByRole('link', { name: 'Add to Cursor' }).getAttribute('href'))!).config).toEqual({ url: `${otherOrigin}/mcp` })
  expect(vscodeConfig((await section.getByRole('link', { name: 'Add to VS Code' }).getAttribute('href'))!).url).toBe(`${otherOrigin}/mcp`)
})
