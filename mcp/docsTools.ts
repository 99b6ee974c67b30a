/**
 * The AI tools' tools, over one reader's docs (mcp/readerDocs.ts). Names and descriptions are part
 * of the product: readers' prompts come to depend on them. Every tool is read-only, answers only
 * from what the reader may open, and answers a page they may not open exactly as a page that does
 * not exist. A tool never throws an internal detail to the client: a known problem is one plain
 * sentence, anything else a generic one (and a line in the server's log).
 */
import { z } from 'zod'
import type { McpServer } from '@modelcontextprotocol/server'
import { decideAccess } from '../lib/access/decideAccess'
import type { CompiledAccess } from '../lib/access/compileAccess'
import { excerptParts } from '../lib/search/searchClient'
import type { AccessLogRecord } from '../edge/accessLog'
import { PagePathError, routeOfPagePath } from './requestedPage'
import type { ReaderDocs } from './readerDocs'
import { SearchUnavailableError } from './searchDocs'

/** The longest query accepted: longer ones are pasted text, not a search. */
export const MAX_QUERY = 500
export const DEFAULT_LIMIT = 8
export const MAX_LIMIT = 25

/** What a tool call adds to the access log, for the server's adapter to write. */
export type ToolLog = (record: Pick<AccessLogRecord, 'decision' | 'tool' | 'routes' | 'refused' | 'reason'>) => void

/**
 * The answer to a page the reader may not open, and to one that does not exist. It does not repeat
 * the path: an answer names only pages the reader may open.
 */
export const NO_PAGE = 'There is no page at that path that you can open. Use search_docs or list_pages to find pages.'

const READ_ONLY = { readOnlyHint: true, idempotentHint: true, openWorldHint: false } as const

const text = (value: string) => ({ content: [{ type: 'text' as const, text: value }] })
const failure = (message: string) => ({ ...text(message), isError: true })

/** The errors a tool may name to the client; anything else is an internal failure, named to nobody. */
function exposable(error: unknown): string {
  if (error instanceof PagePathError || error instanceof SearchUnavailableError) return error.message
  console.error(`mcp: tool failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`)
  return 'The docs server could not answer this time; try again shortly.'
}

export function registerDocsTools(server: McpServer, docs: ReaderDocs, access: CompiledAccess, log: ToolLog): void {
  server.registerTool(
    'search_docs',
    {
      title: 'Search the docs',
      description:
        'Search the internal documentation this user may read. Returns the best-matching pages, each with its title, section, route, full URL and a ' +
        'snippet of the matching part. Use it first for any question about our systems, APIs or support procedures; then call get_page with a ' +
        "result's route to read the whole page.",
      inputSchema: z.object({
        query: z.string().min(1).max(MAX_QUERY).describe('Words to search for, as a person would type them into a search box.'),
        limit: z.number().int().min(1).max(MAX_LIMIT).optional().describe(`How many results to return (default ${DEFAULT_LIMIT}, at most ${MAX_LIMIT}).`),
      }),
      annotations: READ_ONLY,
    },
    async ({ query, limit }) => {
      try {
        const hits = await docs.search(query, limit ?? DEFAULT_LIMIT)
        const results = hits.map((hit) => ({
          title: hit.heading ? `${hit.title} › ${hit.heading}` : hit.title,
          section: hit.section,
          route: hit.url,
          url: docs.urlOf(hit.url),
          snippet: excerptParts(hit.excerpt).map((part) => part.text).join(''),
        }))
        log({ decision: 'allow', tool: 'search_docs', routes: hits.map((hit) => hit.route) })
        const lines = results.map((result, at) => `${at + 1}. ${result.title} (${result.section})\n   ${result.route}\n   ${result.snippet}`)
        return { ...text(results.length ? lines.join('\n') : 'No pages you can open match this search.'), structuredContent: { results } }
      } catch (error) {
        log({ decision: 'allow', tool: 'search_docs', reason: 'bad input' })
        return failure(exposable(error))
      }
    }
  )

  server.registerTool(
    'get_page',
    {
      title: 'Read a docs page',
      description:
        'Read one page of the internal documentation as Markdown, with its title, route and last-updated date. Accepts a route ' +
        '(/docs/<section>/<page>), a route with a heading (/docs/<section>/<page>#<heading>) or a full URL of the docs site, as search_docs and ' +
        'list_pages return them.',
      inputSchema: z.object({ path: z.string().min(1).max(4096).describe('The page: a route, a route with #heading, or a full URL of this docs site.') }),
      annotations: READ_ONLY,
    },
    async ({ path }) => {
      let route: string
      try {
        route = routeOfPagePath(path, docs.urlOf('/'))
      } catch (error) {
        log({ decision: 'deny', tool: 'get_page', reason: 'bad input' })
        return failure(exposable(error))
      }
      try {
        const page = await docs.page(route)
        if (page === null) {
          // The log tells the admin which it was; the reader is told the same for both.
          const refused = decideAccess(access, route, docs.user) !== 'allow'
          log({ decision: refused ? 'deny' : 'allow', tool: 'get_page', routes: [], ...(refused ? { refused: [route] } : {}) })
          return failure(NO_PAGE)
        }
        log({ decision: 'allow', tool: 'get_page', routes: [route] })
        const { summary } = page
        const header = `<!-- ${summary.title} · ${summary.url}${summary.lastUpdated ? ` · last updated ${summary.lastUpdated.slice(0, 10)}` : ''} -->\n\n`
        return { ...text(header + page.markdown), structuredContent: { ...summary, markdown: page.markdown } }
      } catch (error) {
        return failure(exposable(error))
      }
    }
  )

  server.registerTool(
    'list_pages',
    {
      title: 'List the docs pages',
      description:
        "List the pages of the internal documentation this user may read, as their sidebar shows them: each section's pages and folders in order, " +
        'with titles and routes. Give a section id (as whoami names them) for one section only.',
      inputSchema: z.object({ section: z.string().max(100).optional().describe('A section id, as whoami names them; all sections if left out.') }),
      annotations: READ_ONLY,
    },
    async ({ section }) => {
      try {
        const tree = await docs.tree()
        const wanted = section === undefined ? tree : tree.filter((node) => node.route === `/docs/${section.trim()}`)
        if (section !== undefined && wanted.length === 0) {
          log({ decision: 'allow', tool: 'list_pages', routes: [] })
          return failure('You can open no section with that id. Call whoami for the sections you can open.')
        }
        const routes: string[] = []
        const lines: string[] = []
        const walk = (nodes: typeof tree, depth: number) => {
          for (const node of nodes) {
            routes.push(node.route)
            lines.push(`${'  '.repeat(depth)}- ${node.title}: ${node.route}`)
            if (node.children) walk(node.children, depth + 1)
          }
        }
        walk(wanted, 0)
        log({ decision: 'allow', tool: 'list_pages', routes })
        return { ...text(lines.join('\n') || 'You can open no docs pages.'), structuredContent: { sections: wanted } }
      } catch (error) {
        return failure(exposable(error))
      }
    }
  )

  server.registerTool(
    'whoami',
    {
      title: 'Who am I',
      description:
        'The signed-in user this AI tool reads the docs as, the docs sections they may open (id, title, what it covers, and its entry page), and ' +
        "the llms.txt files of their docs: each lists pages as Markdown and the full text in parts of at most 500 kB. Those files open with the user's sign-in to the site (a browser's), not with this tool's token: read pages here with list_pages and get_page.",
      inputSchema: z.object({}),
      annotations: READ_ONLY,
    },
    async () => {
      const sections = docs.view.sections.map((section) => ({ ...section, url: docs.urlOf(section.href) }))
      // The view's llms.txt files: each names its full text's parts, which the reader holds with it (lib/aiTools/llmsFiles.ts).
      const llms = docs.view.llms.map((key) => docs.urlOf(key))
      log({ decision: 'allow', tool: 'whoami', routes: [] })
      const lines = sections.map((section) => `- ${section.title} (${section.id}): ${section.description} ${section.url}`)
      const bulk = llms.length
        ? `\nIn a browser signed in to the site (not with this tool's token), each of these lists its pages as Markdown and its full text in parts; here, list_pages and get_page read the same pages:\n${llms.map((url) => `- ${url}`).join('\n')}`
        : ''
      return {
        ...text(`Signed in as ${docs.user.username}.\n${sections.length ? `Sections you can open:\n${lines.join('\n')}` : 'You can open no docs sections.'}${bulk}`),
        structuredContent: { username: docs.user.username, sections, llms },
      }
    }
  )
}
