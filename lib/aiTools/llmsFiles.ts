/**
 * The llms files of an audience (llmstxt.org), as the planner names them
 * (lib/access/planAggregates.ts) and the Markdown step writes them (pipeline/steps/buildMarkdown.ts):
 * - `llms.txt`, the index: the audience's pages, each linked to its Markdown, then the parts of its
 *   full text;
 * - the full text in parts of bounded size (./fullTextParts.ts): `llms-full.txt` when one part
 *   holds it all, as llmstxt.org's convention names a small site's full text, else
 *   `llms-full-1.txt` … `llms-full-<n>.txt`. No `llms-full.txt` is written beside several parts:
 *   a tool that knows the name expects the whole text in it, and would take a part for the whole.
 * Every line format of these files is here and nowhere else; their names, and the Markdown's, are in
 * lib/pathFormats.ts.
 */

import { markdownKeyOf } from '../pathFormats'

export interface LlmsHeading {
  title: string
  description: string
}

/** Where a part sits among its audience's parts: numbered from 1 for the reader. */
export interface PartPlace {
  number: number
  of: number
}

const partLabel = ({ number, of }: PartPlace) => (of === 1 ? 'full text' : `full text, part ${number} of ${of}`)

/**
 * A writer's title or description as one line of plain text in the index: a newline would start a
 * list item or a heading of its own, and brackets a link, in the site's own list of pages, as would
 * a bare address (GFM's autolinks: `https://…`, `www.…`, `name@host`), whose first mark is escaped.
 */
export const plainInline = (text: string) =>
  text
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/[\\[\]<>@]/g, (character) => `\\${character}`)
    .replace(/:\/\//g, '\\://')
    .replace(/\b(www)\./gi, '$1\\.')

/** The index: the pages, then the full text's parts (keys in order). */
export function llmsTxt(
  heading: LlmsHeading,
  pages: ReadonlyArray<{ route: string; title: string; description: string | null }>,
  parts: ReadonlyArray<{ key: string; place: PartPlace; pages: number }> = []
): string {
  const lines = pages.map((page) => `- [${plainInline(page.title)}](${markdownKeyOf(page.route)})${page.description ? `: ${plainInline(page.description)}` : ''}`)
  const partLines = parts.map((part) => `- [${heading.title}, ${partLabel(part.place)}](${part.key}): ${part.pages} page${part.pages === 1 ? '' : 's'} in one file`)
  return `# ${heading.title}\n\n> ${heading.description}\n\n## Pages\n\n${lines.join('\n')}\n${partLines.length ? `\n## Full text\n\n${partLines.join('\n')}\n` : ''}`
}

/**
 * The top of a part of the full text: the title and the part's place. Not the index's line, which
 * for an audience of no section of its own counts its pages: an added page would rewrite every part.
 */
export const fullTextHeader = (heading: Pick<LlmsHeading, 'title'>, place: PartPlace) => `# ${heading.title} (${partLabel(place)})\n\n`

/** One page in a part: every page but a part's first follows a rule. */
export const fullTextEntry = (route: string, body: string, first: boolean) => `${first ? '' : '\n---\n\n'}<!-- ${route} -->\n\n${body.trimEnd()}\n`

/** The most bytes a page of `bodyBytes` bytes can take in a part (its rule counted, its trailing space not taken off). */
export const fullTextEntryBytes = (route: string, bodyBytes: number) => Buffer.byteLength(fullTextEntry(route, '', false)) + bodyBytes
