/**
 * How deep a page nests: elements in elements, quotes in quotes, lists in lists. The compiler and
 * the renderer walk a page's tree by recursion, and a page a thousand levels deep hung the build's
 * compile, with no file named. No page a writer means nests anywhere near MAX_NESTING, so a deeper
 * one is refused, at its line, before it is compiled. Code blocks are text, not nesting.
 */
import { ContentError, locate } from './contentError'
import { lineAt } from './pageLinks'

/** More levels than any page a writer means, and far fewer than the compiler's stack holds. */
export const MAX_NESTING = 100

export class NestingError extends ContentError {
  constructor(file: string, line: number, what: string) {
    super(file, `${locate(file, line)}${what} nest more than ${MAX_NESTING} levels deep, past what the site's compiler can walk; flatten them`)
  }
}

const FENCE = /^\s*(```|~~~)/
const QUOTES = /^(\s*>)+/
/** An element's start or end tag, not escaped (`\<`); its attributes may run over lines. */
const TAG = /(?<!\\)<(\/?)([A-Za-z][\w.:-]*)\b[^<>]*?(\/?)>/g
/** An autolink (<https://…>, <name@host>): a link, not an element; it holds no space. */
const AUTOLINK = /^<[^\s<>]*(?::\/\/|@)[^\s<>]*>$/

/** The first place `text` (a page's MDX, front matter included) nests past MAX_NESTING; null when it does not. */
export function nestingProblem(file: string, text: string): NestingError | null {
  const lines = text.split('\n')
  let start = 0
  // The front matter is YAML, whose `>` and indentation are no nesting of the page.
  if (lines[0] === '---') {
    const end = lines.indexOf('---', 1)
    if (end > 0) start = end + 1
  }
  // The page's lines without code, each kept (empty when in a code block) so a tag's line is its place.
  const prose: string[] = lines.slice(0, start).map(() => '')
  let fenced = false
  for (let i = start; i < lines.length; i++) {
    const line = lines[i]
    if (FENCE.test(line)) fenced = !fenced
    if (fenced) {
      prose.push('')
      continue
    }
    const quotes = QUOTES.exec(line)?.[0].split('>').length ?? 1
    if (quotes - 1 > MAX_NESTING) return new NestingError(file, i + 1, 'quotes')
    // A list item's indent is its level's, at least 2 columns a level.
    if (/^\s*/.exec(line)![0].length > 2 * MAX_NESTING) return new NestingError(file, i + 1, 'lists or indented blocks')
    prose.push(line.replace(/`[^`]*`/g, ''))
  }
  const joined = prose.join('\n')
  let depth = 0
  for (const match of joined.matchAll(TAG)) {
    const [tag, closing, , selfClosing] = match
    if (selfClosing || AUTOLINK.test(tag)) continue
    // A stray end tag (MDX refuses it anyway) hides no depth that follows.
    depth = Math.max(0, depth + (closing ? -1 : 1))
    if (depth > MAX_NESTING) return new NestingError(file, lineAt(joined, match.index), 'elements')
  }
  return null
}
