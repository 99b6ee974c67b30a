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
import type { PageIndex } from '../compile/compilePages'
import { readCompiledPage } from '../compile/compiledPages'
import { pageTitle, type ContentSource } from '../content/contentSource'
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

export function llmsTxt(section: { title: string; description: string }, pages: ReadonlyArray<Pick<MarkdownPage, 'route' | 'title' | 'description'>>): string {
  const lines = pages.map((page) => `- [${page.title}](${markdownKeyOf(page.route)})${page.description ? `: ${page.description}` : ''}`)
  return `# ${section.title}\n\n> ${section.description}\n\n## Pages\n\n${lines.join('\n')}\n`
}

export function llmsFullTxt(section: { title: string; description: string }, pages: readonly MarkdownPage[]): string {
  const parts = pages.map((page) => `<!-- ${page.route} -->\n\n${page.body.trimEnd()}\n`)
  return `# ${section.title}\n\n> ${section.description}\n\n${parts.join('\n---\n\n')}`
}

/** Every file to write, keyed by its path under out/. */
export function markdownFiles(
  source: ContentSource,
  /** The compile's index of each page's document (../compile/compilePages.ts). */
  index: PageIndex,
  plan: Pick<AggregatePlan, 'markdown' | 'llms' | 'catalogs' | 'audiences'>,
  /** Without it, the Markdown and llms files alone (no catalogs, no dates). */
  catalogInputs?: CatalogInputs
): Map<string, string> {
  const read = new Map<string, MarkdownPage>()
  // A page's title and description as the page itself shows them: its compiled document's, never a second reading.
  const pageOf = (route: string): MarkdownPage => {
    const cached = read.get(route)
    if (cached) return cached
    const content = source.byRoute(route)
    if (!content) throw new Error(`buildMarkdown: the plan names ${route}, which no content file holds`)
    const doc = readCompiledPage(source.root, index, route)
    const description = doc.frontMatter.description
    const time = catalogInputs?.lastUpdated[content.file]
    const page = { route, title: pageTitle(doc, route), description: typeof description === 'string' && description ? description : null, body: content.body, lastUpdated: time === undefined ? null : new Date(time).toISOString() }
    read.set(route, page)
    return page
  }
  const files = new Map<string, string>()
  for (const { key, route } of plan.markdown) files.set(key, pageOf(route).body)
  for (const file of plan.llms) {
    const own = file.pages.map(pageOf)
    files.set(file.key, file.full ? llmsFullTxt(file, own) : llmsTxt(file, own))
  }
  for (const file of plan.catalogs) {
    if (!catalogInputs) break
    const rule = plan.audiences.find((audience) => audience.id === file.audience)?.rule
    const pageMap = rule === undefined ? undefined : catalogInputs.pageMaps.get(rule)
    if (!pageMap) throw new Error(`buildMarkdown: no page map for the audience of ${file.key}; the page-map step and the plan disagree`)
    const catalog: PageCatalog = { pages: file.pages.map(pageOf).map(({ body: _body, ...page }) => page), pageMap }
    files.set(file.key, JSON.stringify(catalog))
  }
  return files
}

/** Writes the Markdown of the plan's pages and each audience's llms files into out/. */
export function writeMarkdown(paths: SitePaths, source: ContentSource, index: PageIndex, plan: AggregatePlan, catalogInputs: CatalogInputs): { pages: number; files: number } {
  if (!fs.existsSync(paths.out)) throw new Error(`buildMarkdown: ${paths.out} does not exist; run \`next build\` first`)
  const files = markdownFiles(source, index, plan, catalogInputs)
  for (const [key, text] of files) {
    fs.mkdirSync(path.dirname(path.join(paths.out, key)), { recursive: true })
    fs.writeFileSync(path.join(paths.out, key), text)
  }
  return { pages: plan.markdown.length, files: files.size }
}
