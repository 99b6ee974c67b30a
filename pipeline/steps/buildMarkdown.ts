/**
 * After `next build`: each docs page as Markdown, for readers who paste docs into an AI assistant,
 * written where the plan says (lib/access/planAggregates.ts), so that the rule of every page a file
 * holds governs it at the edge:
 * - `<route>.md`: the page's MDX source, front matter removed (mapped to its page's rule where its
 *   own path would fall under another rule, e.g. a page that an exact rule restricts);
 * - `llms.txt`: one audience's pages (the pages one rule governs) with titles, descriptions and
 *   `.md` links; `/docs/<section>/llms.txt` for a section's own rule;
 * - `llms-full.txt`: the same pages in one file;
 * - `pages.json`: the same pages as data for the AI tools' server (mcp/): title, line, last-updated
 *   date, and the audience's sidebar (its page-map fragment, pipeline/pageMaps.ts).
 * No file here lists every audience: the authority writes the root `/llms.txt` per reader instead
 * (edge/rootLlmsTxt.ts).
 */
import fs from 'node:fs'
import path from 'node:path'
import { markdownKeyOf, type AggregatePlan } from '../../lib/access/planAggregates'
import type { CatalogPage, PageCatalog } from '../../lib/aiTools/pageCatalog'
import type { PageMapFragment } from '../../lib/navigation/mergePageMaps'
import type { LastUpdated } from '../lastUpdated'
import type { ContentSource } from '../content/contentSource'
import { storedPage, type PageStore } from '../store/pageStore'
import type { SitePaths } from './paths'

/** A page as Markdown: what its catalog names (lib/aiTools/pageCatalog.ts), and its body. */
export interface MarkdownPage extends CatalogPage {
  /** The MDX source without its front matter. */
  body: string
}

/** What the catalogs need besides the pages' sources. */
export interface CatalogInputs {
  /** Each audience's page-map fragment, by its rule (pipeline/pageMaps.ts pageMapFragments). */
  pageMaps: ReadonlyMap<string, PageMapFragment>
  lastUpdated: LastUpdated
}

/** A file of the step: its path under out/, and its text in parts, each made when it is written. */
export interface MarkdownFile {
  key: string
  parts: Iterable<string>
}

export function llmsTxt(section: { title: string; description: string }, pages: ReadonlyArray<Pick<MarkdownPage, 'route' | 'title' | 'description'>>): string {
  const lines = pages.map((page) => `- [${page.title}](${markdownKeyOf(page.route)})${page.description ? `: ${page.description}` : ''}`)
  return `# ${section.title}\n\n> ${section.description}\n\n## Pages\n\n${lines.join('\n')}\n`
}

/** llms-full.txt in parts, one per page: each page's body is taken when its part is written, so the file never lies whole in memory. */
export function* llmsFullTxt(section: { title: string; description: string }, pages: Iterable<Pick<MarkdownPage, 'route' | 'body'>>): Generator<string> {
  yield `# ${section.title}\n\n> ${section.description}\n\n`
  let first = true
  for (const page of pages) {
    yield `${first ? '' : '\n---\n\n'}<!-- ${page.route} -->\n\n${page.body.trimEnd()}\n`
    first = false
  }
}

/**
 * Every file to write, each made as it is asked for: the step holds one page's body at a time,
 * and of the others only what their catalogs name.
 */
export function* markdownFiles(
  source: ContentSource,
  /** The page store's records (../store/pageStore.ts): each page's title and description. */
  pages: PageStore['pages'],
  plan: Pick<AggregatePlan, 'markdown' | 'llms' | 'catalogs' | 'audiences'>,
  /** Without it, the Markdown and llms files alone (no catalogs, no dates). */
  catalogInputs?: CatalogInputs
): Generator<MarkdownFile> {
  const named = new Map<string, CatalogPage>()
  const contentOf = (route: string) => {
    const content = source.byRoute(route)
    if (!content) throw new Error(`buildMarkdown: the plan names ${route}, which no content file holds`)
    return content
  }
  // A page's title and description as the page itself shows them, as its record keeps them: no document is read.
  const pageOf = (route: string): CatalogPage => {
    const cached = named.get(route)
    if (cached) return cached
    const time = catalogInputs?.lastUpdated[contentOf(route).file]
    const page = { route, ...storedPage(pages, route), lastUpdated: time === undefined ? null : new Date(time).toISOString() }
    named.set(route, page)
    return page
  }
  // A getter, so each body is read when its part is made, not when the page list is.
  const withBody = (route: string) => ({ route, get body() { return contentOf(route).body } })
  for (const { key, route } of plan.markdown) yield { key, parts: [contentOf(route).body] }
  for (const file of plan.llms) yield { key: file.key, parts: file.full ? llmsFullTxt(file, file.pages.map(withBody)) : [llmsTxt(file, file.pages.map(pageOf))] }
  for (const file of plan.catalogs) {
    if (!catalogInputs) break
    const rule = plan.audiences.find((audience) => audience.id === file.audience)?.rule
    const pageMap = rule === undefined ? undefined : catalogInputs.pageMaps.get(rule)
    if (!pageMap) throw new Error(`buildMarkdown: no page map for the audience of ${file.key}; the page-map step and the plan disagree`)
    const catalog: PageCatalog = { pages: file.pages.map(pageOf), pageMap }
    yield { key: file.key, parts: [JSON.stringify(catalog)] }
  }
}

/** Writes the Markdown of the plan's pages and each audience's llms files into out/, each file as it is made. */
export function writeMarkdown(paths: SitePaths, source: ContentSource, pages: PageStore['pages'], plan: AggregatePlan, catalogInputs: CatalogInputs): { pages: number; files: number } {
  if (!fs.existsSync(paths.out)) throw new Error(`buildMarkdown: ${paths.out} does not exist; run \`next build\` first`)
  let files = 0
  for (const { key, parts } of markdownFiles(source, pages, plan, catalogInputs)) {
    const file = path.join(paths.out, key)
    fs.mkdirSync(path.dirname(file), { recursive: true })
    const fd = fs.openSync(file, 'w')
    try {
      for (const part of parts) fs.writeSync(fd, part)
    } finally {
      fs.closeSync(fd)
    }
    files++
  }
  return { pages: plan.markdown.length, files }
}
