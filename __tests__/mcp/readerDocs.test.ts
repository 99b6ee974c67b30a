/** @jest-environment node */
/**
 * The AI tools' server over the files the build writes for the real content (the shipped rules,
 * the plan, each audience's Markdown, llms files and page catalog with its sidebar), through the
 * MCP SDK's own client, with a store that counts what is read of it:
 * - a page the reader may not open and one that does not exist cost the same reads, and neither
 *   reads a page: the answer's time cannot tell them apart;
 * - however many made-up paths a reader asks for, the server keeps nothing more of them;
 * - the docs root page /docs is listed and read like any other page, by the readers who may open it.
 */
import path from 'node:path'
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client'
import { access } from '../../lib/access'
import { audienceSummaries, planAggregates } from '../../lib/access/planAggregates'
import { pageMapFragments, pageMapInputs } from '../../pipeline/pageMaps'
import { compilePages } from '../../pipeline/compile/compilePages'
import { markdownFileMap } from '../pipeline/helpers/markdownFiles'
import { scanContent } from '../../pipeline/content/contentSource'
import { createIdTokenClaimsVerifier } from '../../edge/tokenVerifier'
import { createDocsMcpHandler, MCP_PATH, type DocsMcpHandler } from '../../mcp/mcpHandler'
import { NO_PAGE } from '../../mcp/docsTools'
import type { SearchIndexes } from '../../mcp/searchDocs'
import { memoSiteFiles, type SiteFiles } from '../../mcp/siteFiles'
import { CLIENT, POOL, idClaims, newKeyPair, signJwt } from '../edge/tokens'
import { PageStore } from '../../pipeline/store/pageStore'

const SITE = 'https://docs.example.com'
const ROOT = path.resolve(__dirname, '../..')
const key = newKeyPair('k1')
const source = scanContent(ROOT)
const plan = planAggregates({ access, routes: source.pages.map((page) => page.route) })
const audiences = audienceSummaries(plan)
const noSearch: SearchIndexes = { search: async () => [] }


let stored: Map<string, string>
beforeAll(async () => {
  // The catalogs' titles come from the pages' records in the page store, as the build's content step leaves them.
  const store = new PageStore(null)
  await compilePages(source, store)
  const index = store.pages
  const pageMaps = pageMapFragments(source.pageMap(), plan, pageMapInputs(source, access), (route) => source.byRoute(route)?.digest)
  stored = markdownFileMap(source, index, plan, { pageMaps, lastUpdated: {} })
}, 180_000)

/** The site's files as the build wrote them, and every key read of them. */
function countingStore(): SiteFiles & { reads: string[] } {
  const reads: string[] = []
  return {
    reads,
    async read(objectKey) {
      reads.push(objectKey)
      const text = stored.get(objectKey)
      return text === undefined ? null : Buffer.from(text)
    },
  }
}

const handlers: DocsMcpHandler[] = []
afterAll(() => Promise.all(handlers.map((handler) => handler.close())))

async function clientOver(files: SiteFiles, username: string) {
  const handler = createDocsMcpHandler({
    site: { access, assetRoutes: {}, audiences, files, search: noSearch, siteUrl: SITE },
    verifyReader: createIdTokenClaimsVerifier({ userPoolId: POOL, clientId: CLIENT, jwks: { keys: [key.jwk as never] }, fetchUnknownKeys: false }),
    authorizationServers: [],
    log: () => undefined,
  })
  handlers.push(handler)
  const serve = async (input: RequestInfo | URL, init?: RequestInit) => (await handler.handle(new Request(input, init))) ?? new Response('not found', { status: 404 })
  const client = new Client({ name: 'unit', version: '1' })
  const token = signJwt(idClaims(username), key)
  await client.connect(new StreamableHTTPClientTransport(new URL(MCP_PATH, SITE), { fetch: serve, requestInit: { headers: { authorization: `Bearer ${token}` } } }))
  return client
}
const textOf = (result: { content?: unknown }) => (result.content as Array<{ text: string }>).map((part) => part.text).join('\n')

describe('get_page decides from the reader\'s catalogs before it reads', () => {
  test('a refused page, a missing page and a made-up path each read the same keys, the reader\'s catalogs, and no page', async () => {
    const asked = {
      // An exact section of another audience, refused to leads1.
      refused: '/docs/internal/intro',
      // A sibling under a folder leads1 may open, which does not exist.
      missing: '/docs/leads/no-such-page',
      madeUp: `/docs/leads/${'x'.repeat(2000)}`,
    }
    const readsOf: Record<string, string[]> = {}
    const answers: Record<string, unknown> = {}
    for (const [what, pagePath] of Object.entries(asked)) {
      // A store of its own each time: what a cold instance reads, which is what a first request's time shows.
      const store = countingStore()
      const client = await clientOver(store, 'leads1')
      const result = await client.callTool({ name: 'get_page', arguments: { path: pagePath } })
      readsOf[what] = [...store.reads].sort()
      answers[what] = result
      expect(textOf(result)).toBe(NO_PAGE)
      await client.close()
    }
    expect(answers.refused).toEqual(answers.missing)
    expect(answers.madeUp).toEqual(answers.missing)
    expect(readsOf.refused).toEqual(readsOf.missing)
    expect(readsOf.madeUp).toEqual(readsOf.missing)
    // What they read is the catalogs of leads1's own audiences, and no page's Markdown.
    const leadsCatalogs = audiences.filter((audience) => audience.catalog && /^\/docs\/leads(\/|$)/.test(audience.governedBy)).map((audience) => audience.catalog)
    expect(readsOf.missing).toEqual(leadsCatalogs)
    expect(readsOf.missing.filter((objectKey) => objectKey.endsWith('.md'))).toEqual([])
  })

  test('a page the catalogs name is read: the same catalogs, then its Markdown', async () => {
    const store = countingStore()
    const client = await clientOver(store, 'leads1')
    const page = await client.callTool({ name: 'get_page', arguments: { path: '/docs/leads/intro' } })
    expect(page.structuredContent).toMatchObject({ route: '/docs/leads/intro', title: 'Leads API introduction' })
    const leadsCatalogs = audiences.filter((audience) => audience.catalog && /^\/docs\/leads(\/|$)/.test(audience.governedBy)).map((audience) => audience.catalog)
    expect(store.reads).toEqual([...leadsCatalogs, '/docs/leads/intro.md'])
    await client.close()
  })

  test('a reader asking for hundreds of made-up 2 kB paths makes the server keep nothing more and read nothing more', async () => {
    const store = countingStore()
    const files = memoSiteFiles(store, 1024 * 1024)
    const client = await clientOver(files, 'leads1')
    await client.callTool({ name: 'get_page', arguments: { path: '/docs/leads/intro' } })
    const before = { usage: files.usage(), reads: store.reads.length }
    for (let at = 0; at < 300; at++) {
      const result = await client.callTool({ name: 'get_page', arguments: { path: `/docs/leads/${at}-${'y'.repeat(2000)}` } })
      expect(result.isError).toBe(true)
    }
    expect(files.usage()).toEqual(before.usage)
    expect(store.reads.length).toBe(before.reads)
    await client.close()
  })
})

describe('the docs root page /docs', () => {
  test('is listed and read for a reader who may open it (as shipped, a full-access reader), with its title', async () => {
    const client = await clientOver(countingStore(), 'admin')
    const listed = textOf(await client.callTool({ name: 'list_pages', arguments: {} }))
    expect(listed.split('\n')[0]).toBe('- Documentation: /docs')
    const page = await client.callTool({ name: 'get_page', arguments: { path: '/docs' } })
    expect(page.isError).toBeFalsy()
    expect(page.structuredContent).toMatchObject({ route: '/docs', title: 'Documentation', url: `${SITE}/docs` })
    expect(textOf(page)).toContain('All documentation sections.')
    await client.close()
  })

  test('is neither listed nor read for a reader who may not open it', async () => {
    const client = await clientOver(countingStore(), 'leads1')
    const listed = textOf(await client.callTool({ name: 'list_pages', arguments: {} }))
    expect(listed).not.toMatch(/: \/docs$/m)
    expect(textOf(await client.callTool({ name: 'get_page', arguments: { path: '/docs' } }))).toBe(NO_PAGE)
    await client.close()
  })
})
