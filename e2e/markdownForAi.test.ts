/** Markdown for AI tools: each section's `.md` pages and llms files follow the section's rule. */
import type { Page } from 'playwright-core'
import { amplifyCookieHeader, signInIdToken } from '../scripts/audit/cognitoSession'
import { freshPagePerTest, signInThroughForm } from './browser'
import { PASSWORD, siteEnv } from './siteEnv'
import { seededGroupsOf } from '../scripts/cognito/seed'
import { mcpReaderAs } from './mcpSession'

const { siteUrl, cognitoUrl, markers } = siteEnv()
const currentPage = freshPagePerTest()
let page: Page
beforeEach(() => {
  page = currentPage()
})

const as = async (username: string) => amplifyCookieHeader(username, await signInIdToken(cognitoUrl, username, PASSWORD))

test.each(['/docs/leads/endpoints/create-quote.md', '/docs/leads/llms.txt', '/docs/leads/llms-full.txt'])(
  '%s is served to a leads reader and refused to readers outside the section',
  async (path) => {
    const served = await fetch(siteUrl + path, { headers: { cookie: await as('leads1') } })
    expect(served.status).toBe(200)
    const text = await served.text()
    // The audit build's marker sits in the create-quote page; the Markdown carries it, and no front matter.
    if (!path.endsWith('llms.txt')) expect(text).toContain(markers.body.leads)
    expect(text).not.toMatch(/^---\ntitle:/)
    expect(served.headers.get('cache-control')).toBe('private, no-store')
    for (const outsider of ['internal1', 'outsider']) {
      const refused = await fetch(siteUrl + path, { headers: { cookie: await as(outsider) }, redirect: 'manual' })
      expect([outsider, refused.status]).toEqual([outsider, 403])
    }
    // Not signed in: a bare 401 for a tool's fetch (only a browser's navigation is sent to sign in).
    expect((await fetch(siteUrl + path, { redirect: 'manual' })).status).toBe(401)
  }
)

test('/llms.txt at the root lists the llms.txt of exactly the audiences the reader holds, per reader and never cached, and each lists its full text\'s parts', async () => {
  const { audiences, decide } = siteEnv()
  for (const username of [null, 'leads1', 'internal1', 'support1', 'admin']) {
    const response = await fetch(siteUrl + '/llms.txt', { headers: username ? { cookie: await as(username) } : {} })
    expect(response.status).toBe(200)
    expect(response.headers.get('cache-control')).toBe('private, no-store')
    const text = await response.text()
    expect(text).toMatch(/^# Platform Docs\n\n> /)
    const listed = [...text.matchAll(/\]\((\/[^)]+)\)/g)].map((match) => match[1]).sort()
    const user = username === null ? null : { username, groups: seededGroupsOf(username) }
    const held = audiences.filter((audience) => decide(audience.governedBy, user) === 'allow')
    expect([username, listed]).toEqual([username, held.flatMap((audience) => (audience.llms ? [audience.llms] : [])).sort()])
    // Each index it lists is one the reader can fetch, and so is each part of the full text that index lists.
    const headers: Record<string, string> = username ? { cookie: await as(username) } : {}
    for (const key of listed) {
      const index = await fetch(siteUrl + key, { headers })
      expect([key, index.status]).toEqual([key, 200])
      const parts = [...(await index.text()).matchAll(/\]\((\/[^)]+\/llms-full(?:-[0-9]+)?\.txt)\)/g)].map((match) => match[1])
      expect([key, parts.length > 0]).toEqual([key, true])
      for (const part of parts) expect([part, (await fetch(siteUrl + part, { headers })).status]).toEqual([part, 200])
    }
  }
})

test('the docs root page /docs is a docs page like the others: its Markdown, llms files and the AI tools list and read it for exactly the readers who may open it', async () => {
  const { decide } = siteEnv()
  for (const username of ['admin', 'leads1', 'internal1', 'support1']) {
    const cookie = await as(username)
    const mayOpen = decide('/docs', { username, groups: seededGroupsOf(username) }) === 'allow'
    expect([username, (await fetch(siteUrl + '/docs.md', { headers: { cookie }, redirect: 'manual' })).status]).toEqual([username, mayOpen ? 200 : 403])
    // Every llms.txt the reader's root /llms.txt lists, and the pages they link.
    const root = await (await fetch(siteUrl + '/llms.txt', { headers: { cookie } })).text()
    const listed = [...root.matchAll(/\]\((\/[^)]+\/llms\.txt)\)/g)].map((match) => match[1])
    const linked = (await Promise.all(listed.map(async (key) => (await fetch(siteUrl + key, { headers: { cookie } })).text()))).join('\n')
    expect([username, linked.includes('](/docs.md)')]).toEqual([username, mayOpen])
    const tool = await mcpReaderAs(username)
    const tree = await tool.call('list_pages')
    expect([username, tree.text.split('\n').includes('- Documentation: /docs')]).toEqual([username, mayOpen])
    const read = await tool.call('get_page', { path: '/docs' })
    expect([username, read.isError]).toEqual([username, !mayOpen])
    if (mayOpen) expect(read.text).toContain('All documentation sections.')
    await tool.close()
  }
  expect((await fetch(siteUrl + '/docs.md', { redirect: 'manual' })).status).toBe(401)
})

test('"Copy page" puts the page\'s Markdown on the clipboard', async () => {
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: siteUrl })
  await signInThroughForm(page, 'leads1', '/docs/leads/endpoints/create-quote')
  await page.getByRole('button', { name: 'Copy page' }).click()
  await page.getByText('Copied as Markdown').waitFor()
  const copied = await page.evaluate(() => navigator.clipboard.readText())
  expect(copied).toContain(markers.body.leads)
  expect(copied).toMatch(/^# /)
  await page.getByRole('link', { name: 'View as Markdown' }).click()
  await page.waitForURL(/\/docs\/leads\/endpoints\/create-quote\.md$/)
})
