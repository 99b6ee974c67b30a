/**
 * After `next build`: each section's pages as Markdown, for readers who paste docs into an AI
 * assistant. Everything is written under the section's own path, so the section's one rule
 * governs it at the edge, as it governs the section's pages:
 * - `/docs/<section>/<page>.md`: the page's MDX source, front matter removed;
 * - `/docs/<section>/llms.txt`: the section's pages with titles, descriptions and `.md` links;
 * - `/docs/<section>/llms-full.txt`: all of the section's pages in one file.
 * There is no site-wide llms.txt: it would name sections a reader may not open.
 */
import fs from 'node:fs'
import path from 'node:path'
import { inSection, sectionPrefix } from '../../lib/access/sectionPaths'
import { SECTIONS } from '../../lib/navigation/siteNavigation'
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

export const markdownPathOf = (route: string) => `${route}.md`

export function llmsTxt(section: { title: string; description: string }, pages: readonly MarkdownPage[]): string {
  const lines = pages.map((page) => `- [${page.title}](${markdownPathOf(page.route)})${page.description ? `: ${page.description}` : ''}`)
  return `# ${section.title}\n\n> ${section.description}\n\n## Pages\n\n${lines.join('\n')}\n`
}

export function llmsFullTxt(section: { title: string; description: string }, pages: readonly MarkdownPage[]): string {
  const parts = pages.map((page) => `<!-- ${page.route} -->\n\n${page.body.trimEnd()}\n`)
  return `# ${section.title}\n\n> ${section.description}\n\n${parts.join('\n---\n\n')}`
}

/** Every file to write, keyed by its path under out/. */
export function markdownFiles(root: string, pages: readonly SourcePage[] = sourcePages(root)): Map<string, string> {
  const files = new Map<string, string>()
  for (const section of SECTIONS) {
    const own = pages
      .filter((page) => inSection(page.route, section.id))
      .sort((a, b) => a.route.localeCompare(b.route))
      .map((page): MarkdownPage => {
        const { fields, body } = splitFrontMatter(fs.readFileSync(path.join(root, page.file), 'utf8'))
        return { route: page.route, title: fields.title || page.route, description: fields.description || null, body }
      })
    for (const page of own) files.set(markdownPathOf(page.route), page.body)
    files.set(`${sectionPrefix(section.id)}/llms.txt`, llmsTxt(section, own))
    files.set(`${sectionPrefix(section.id)}/llms-full.txt`, llmsFullTxt(section, own))
  }
  return files
}

/** Writes the Markdown of `pages` (the link check's) and each section's llms files into out/. */
export function writeMarkdown(paths: SitePaths, pages: readonly SourcePage[]): { pages: number; files: number } {
  if (!fs.existsSync(paths.out)) throw new Error(`buildMarkdown: ${paths.out} does not exist; run \`next build\` first`)
  const files = markdownFiles(paths.root, pages)
  for (const [key, text] of files) {
    fs.mkdirSync(path.dirname(path.join(paths.out, key)), { recursive: true })
    fs.writeFileSync(path.join(paths.out, key), text)
  }
  return { pages: files.size - SECTIONS.length * 2, files: files.size }
}
