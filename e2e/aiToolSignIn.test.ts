/**
 * An AI tool signs in as its reader through the site's own sign-in and consent page, in Chromium,
 * with no pasted token: discovery from /mcp's 401, registration, authorization code with PKCE to a
 * loopback port, then tools that answer only that reader's pages. And every refusal.
 */
import type { Browser, Page } from 'playwright-core'
import { SEEDED_USERS, seededGroupsOf } from '../scripts/cognito/seed'
import { launchBrowser } from './browser'
import { inBrowser, signToolIn, withCookies } from './oauthTool'
import { siteEnv } from './siteEnv'

const { decide, access, pages } = siteEnv()
let browser: Browser
let page: Page
beforeAll(async () => {
  browser = await launchBrowser()
})
afterAll(async () => {
  await browser?.close()
})
beforeEach(async () => {
  page = await (await browser.newContext({ viewport: { width: 1280, height: 800 } })).newPage()
})
afterEach(async () => {
  await page.context().close()
})

const opens = (username: string) => {
  const user = { username, groups: seededGroupsOf(username) }
  return access.sections.filter((section) => pages.some((p) => p.route.startsWith(`/docs/${section.id}/`) && decide(p.route, user) === 'allow')).map((section) => section.id)
}

test.each(SEEDED_USERS.filter((username) => username !== 'leads2' && username !== 'leads3' && username !== 'leads4' && username !== 'leads5'))(
  'a tool signs in as %s through /login and the consent page, and reads exactly their docs',
  async (username) => {
    const tool = await signToolIn(inBrowser(page, username))
    try {
      const who = (await tool.call('whoami')).structured as { username: string; sections: Array<{ id: string }> }
      expect(who.username).toBe(username)
      expect(who.sections.map((section) => section.id)).toEqual(opens(username))
      const found = (await tool.call('search_docs', { query: 'the', limit: 25 })).structured as { results: Array<{ route: string }> }
      for (const result of found.results) expect([result.route, decide(result.route.split('#')[0], { username, groups: seededGroupsOf(username) })]).toEqual([result.route, 'allow'])
    } finally {
      await tool.close()
    }
  }
)

test('the same flow without a browser gives the same reader (the leak audit signs tools in so)', async () => {
  const tool = await signToolIn(withCookies('support1'))
  expect(((await tool.call('whoami')).structured as { username: string }).username).toBe('support1')
  await tool.close()
})
