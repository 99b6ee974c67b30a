/**
 * After `next build`: each docs page as Markdown, for readers who paste docs into an AI assistant,
 * written where the plan says (pipeline/planAggregates.ts), so that the rule of every page a file
 * holds governs it at the edge:
 * - `<route>.md`: the page's MDX source, front matter removed (mapped to its page's rule where its
 *   own path would fall under another rule, e.g. a page that an exact rule restricts);
 * - `llms.txt`: one audience's pages (the pages one rule governs) with titles, descriptions and
 *   `.md` links; `/docs/<section>/llms.txt` for a section's own rule;
 * - `llms-full.txt`: the same pages in one file.
 * There is no site-wide llms.txt: it would name pages a reader may not open.
 */
import fs from 'node:fs'
import path from 'node:path'
import { markdownKeyOf, type AggregatePlan } from '../planAggregates'
import { sourcePages, type SourcePage } from './checkLinks'
import type { SitePaths } from './paths'

export interface MarkdownPage {
  route: string
  title: string
  description: string | null
  /** The MDX source without its front matter. */
  body: string
}

/** Splits `---`-fenced front matter (flat `key: value` lines) from the body. */
export function splitFrontMatter(source: string): { fields: Record<string, string>; body: string } {
  const match = /^---\r?\n([\s\S]*?)\r?\n---\r?\n?/.exec(source)
  if (!match) return { fields: {}, body: source }
  const fields: Record<string, string> = {}
  for (const line of match[1].split(/\r?\n/)) {
    const field = /^([A-Za-z][\w-]*):\s*(.*)$/.exec(line)
    if (field) fields[field[1]] = field[2].trim().replace(/^(['"])(.*)\1$/, '$2')
  }
  return { fields, body: source.slice(match[0].length).replace(/^\s*\n/, '') }
}

export function llmsTxt(section: { title: string; description: string }, pages: readonly MarkdownPage[]): string {
  const lines = pages.map((page) => `- [${page.title}](${markdownKeyOf(page.route)})${page.description ? `: ${page.description}` : ''}`)
  return `# ${section.title}\n\n> ${section.description}\n\n## Pages\n\n${lines.join('\n')}\n`
}

export function llmsFullTxt(section: { title: string; description: string }, pages: readonly MarkdownPage[]): string {
  const parts = pages.map((page) => `<!-- ${page.route} -->\n\n${page.body.trimEnd()}\n`)
  return `# ${section.title}\n\n> ${section.description}\n\n${parts.join('\n---\n\n')}`
}

/** Every file to write, keyed by its path under out/. */
export function markdownFiles(root: string, plan: Pick<AggregatePlan, 'markdown' | 'llms'>, pages: readonly SourcePage[] = sourcePages(root)): Map<string, string> {
  const read = new Map<string, MarkdownPage>()
  const pageOf = (route: string): MarkdownPage => {
    const cached = read.get(route)
    if (cached) return cached
    const source = pages.find((page) => page.route === route)
    if (!source) throw new Error(`buildMarkdown: the plan names ${route}, which no content file holds`)
    const { fields, body } = splitFrontMatter(fs.readFileSync(path.join(root, source.file), 'utf8'))
    const page = { route, title: fields.title || route, description: fields.description || null, body }
    read.set(route, page)
    return page
  }
  const files = new Map<string, string>()
  for (const { key, route } of plan.markdown) files.set(key, pageOf(route).body)
  for (const file of plan.llms) {
    const own = file.pages.map(pageOf)
    files.set(file.key, file.full ? llmsFullTxt(file, own) : llmsTxt(file, own))
  }
  return files
}

/** Writes the Markdown of the plan's pages (the link check's) and each audience's llms files into out/. */
export function writeMarkdown(paths: SitePaths, plan: AggregatePlan, pages: readonly SourcePage[]): { pages: number; files: number } {
  if (!fs.existsSync(paths.out)) throw new Error(`buildMarkdown: ${paths.out} does not exist; run \`next build\` first`)
  const files = markdownFiles(paths.root, plan, pages)
  for (const [key, text] of files) {
    fs.mkdirSync(path.dirname(path.join(paths.out, key)), { recursive: true })
    fs.writeFileSync(path.join(paths.out, key), text)
  }
  return { pages: plan.markdown.length, files: files.size }
}
