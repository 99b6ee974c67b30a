/**
 * The AI tools' server (/mcp) on the real local server, as npm start runs it (the same stack:
 * scripts/server/startStack.ts), against the audit build:
 * - an independent client, the MCP Inspector's CLI (pinned, under the Node 22 it needs, from
 *   e2e/inspector), lists the tools and calls each as two readers;
 * - a 2025-era client that begins with `initialize` (Claude Code today) is served;
 * - malformed requests get a JSON-RPC error and the server stays up;
 * - a reader taken out of a group loses what the group gave, as on the site.
 */
import { inSection } from '../lib/access/sectionPaths'
import { execFile } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { promisify } from 'node:util'
import { MCP_PATH, RESOURCE_METADATA_PATH } from '../mcp/mcpHandler'
import { NO_PAGE } from '../mcp/docsTools'
import { setGroupMembership } from '../scripts/audit/cognitoSession'
import { seededGroupsOf } from '../scripts/cognito/seed'
import { INSPECTOR_CLI, INSPECTOR_NODE } from '../scripts/inspectorInstall'
import { idTokenOf, mcpReaderAs } from './mcpSession'
import { siteEnv } from './siteEnv'

const { siteUrl, cognitoUrl, decide, pages, access } = siteEnv()
const mcpUrl = siteUrl + MCP_PATH
const inspectorHome = fs.mkdtempSync(path.join(os.tmpdir(), 'docs-inspector-'))
afterAll(() => fs.rmSync(inspectorHome, { recursive: true, force: true }))

/** Runs the Inspector's CLI against /mcp with `token`, and returns what it printed as JSON. */
async function inspector(token: string, ...args: string[]): Promise<Record<string, unknown>> {
  if (!fs.existsSync(INSPECTOR_NODE)) throw new Error(`the MCP Inspector is not installed (${INSPECTOR_NODE}); npm test installs it (scripts/test.mjs)`)
  const argv = [INSPECTOR_CLI, '--cli', mcpUrl, '--transport', 'http', '--header', `Authorization: Bearer ${token}`, ...args]
  // Its catalog of servers goes to a folder of this run's, not the home folder.
  const options = { env: { ...process.env, HOME: inspectorHome }, timeout: 60000 }
  try {
    return JSON.parse((await promisify(execFile)(INSPECTOR_NODE, argv, options)).stdout)
  } catch (error) {
    // It exits non-zero on a tool's error answer, and prints the answer all the same.
    const stdout = (error as { stdout?: string }).stdout
    if (!stdout) throw error
    return JSON.parse(stdout)
  }
}

const post = (body: string, headers: Record<string, string> = {}) =>
  fetch(mcpUrl, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers }, body })

describe('the MCP Inspector CLI, as two readers', () => {
  test.each(['leads1', 'support1'])('%s: the Inspector lists the four tools and each answers only what that reader may open', async (username) => {
    const token = await idTokenOf(username)
    const user = { username, groups: seededGroupsOf(username) }
    const mayOpen = (route: string) => decide(route, user) === 'allow'
    const listed = (await inspector(token, '--method', 'tools/list')) as { tools: Array<{ name: string; description: string }> }
    expect(listed.tools.map((tool) => tool.name).sort()).toEqual(['get_page', 'list_pages', 'search_docs', 'whoami'])
    for (const tool of listed.tools) expect(tool.description.length).toBeGreaterThan(60)

    const call = (tool: string, args: Record<string, unknown> = {}) => inspector(token, '--method', 'tools/call', '--tool-name', tool, '--tool-args-json', JSON.stringify(args))
    const whoami = await call('whoami')
    const who = whoami.structuredContent as { username: string; sections: Array<{ id: string }>; llms: string[] }
    expect(who.username).toBe(username)
    // The llms files it names open with the site's sign-in, not the tool's token, and it says so.
    expect(who.llms.length).toBeGreaterThan(0)
    expect((await fetch(who.llms[0], { headers: { authorization: `Bearer ${token}` } })).status).toBe(401)
    expect(JSON.stringify(whoami.content)).toContain("not with this tool's token")
    // Every section the reader may open a page of (all of it, or a folder an admin gave them).
    const opens = access.sections.filter((section) => pages.some((page) => inSection(page.route, section.id) && mayOpen(page.route)))
    expect(who.sections.map((section) => section.id)).toEqual(opens.map((section) => section.id))

    const found = (await call('search_docs', { query: 'the', limit: 25 })).structuredContent as { results: Array<{ route: string; url: string }> }
    expect(found.results.length).toBeGreaterThan(3)
    for (const result of found.results) expect([result.route, mayOpen(result.route.split('#')[0])]).toEqual([result.route, true])

    const tree = (await call('list_pages')).structuredContent as { sections: Array<{ route: string }> }
    const routes = JSON.stringify(tree).match(/"route":"[^"]+"/g) ?? []
    expect(routes.length).toBeGreaterThan(3)

    const own = pages.map((page) => page.route).find((route) => route.startsWith('/docs/') && mayOpen(route)) as string
    const other = pages.map((page) => page.route).find((route) => route.startsWith('/docs/') && !mayOpen(route)) as string
    const read = await call('get_page', { path: own })
    expect(read.isError).toBeFalsy()
    expect((read.structuredContent as { route: string }).route).toBe(own)
    // A page the reader may not open, and one that does not exist, answer alike.
    const refused = await call('get_page', { path: other })
    expect(refused).toEqual({ content: [{ type: 'text', text: NO_PAGE }], isError: true })
    expect(await call('get_page', { path: `${own}-no-such-page` })).toEqual(refused)
  })
})

test('a client that begins with initialize (the 2025 handshake) is served, statelessly', async () => {
  const token = await idTokenOf('leads1')
  const auth = { authorization: `Bearer ${token}` }
  const init = await post(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'claude-code', version: '2' } } }), auth)
  expect(init.status).toBe(200)
  expect(init.headers.get('cache-control')).toBe('no-store')
  const initText = await init.text()
  expect(initText).toContain('"serverInfo"')
  expect(initText).toContain('platform-docs')
  const listed = await post(JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list', params: {} }), { ...auth, 'mcp-protocol-version': '2025-06-18' })
  expect(listed.status).toBe(200)
  expect(await listed.text()).toContain('search_docs')
})

test('malformed requests get a JSON-RPC error, and the server answers the next request', async () => {
  const auth = { authorization: `Bearer ${await idTokenOf('leads1')}` }
  const garbage = await post('{"jsonrpc": "2.0", "id": 1, "method": ', auth)
  expect(garbage.status).toBeGreaterThanOrEqual(400)
  expect(await garbage.text()).toMatch(/"code":-32700|Parse error/i)
  const notRpc = await post(JSON.stringify({ hello: 'world' }), auth)
  expect(notRpc.status).toBeGreaterThanOrEqual(400)
  expect(await notRpc.text()).toMatch(/"code":-32600|-32602|Invalid/i)
  const oversized = await post(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: { pad: 'x'.repeat(200_000) } }), auth)
  expect(oversized.status).toBe(413)
  const tool = await mcpReaderAs('leads1')
  expect((await tool.call('whoami')).text).toContain('leads1')
  await tool.close()
})

test('without a token: 401 naming the metadata, which a client can fetch without one', async () => {
  const refused = await post(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }))
  expect(refused.status).toBe(401)
  expect(refused.headers.get('www-authenticate')).toContain(`resource_metadata="${siteUrl}${RESOURCE_METADATA_PATH}"`)
  const metadata = await fetch(siteUrl + RESOURCE_METADATA_PATH)
  expect(metadata.status).toBe(200)
  expect(await metadata.json()).toMatchObject({ resource: mcpUrl, bearer_methods_supported: ['header'] })
})

test('a reader taken out of a group loses what the group gave at their next token, as on the site', async () => {
  const group = 'support-team'
  const twilio = access.sections.find((section) => section.id === 'support-twilio')!
  const sectionsOf = async () => {
    const tool = await mcpReaderAs('supportlead')
    try {
      return ((await tool.call('whoami')).structured as { sections: Array<{ id: string }> }).sections.map((section) => section.id)
    } finally {
      await tool.close()
    }
  }
  expect(decide(twilio.entry, { username: 'supportlead', groups: [group] })).toBe('allow')
  expect(await sectionsOf()).toContain(twilio.id)
  await setGroupMembership(cognitoUrl, 'supportlead', group, false)
  try {
    expect(await sectionsOf()).not.toContain(twilio.id)
  } finally {
    await setGroupMembership(cognitoUrl, 'supportlead', group, true)
  }
})
