/**
 * A writer's comments, which a browser never shows, are not text of the page, and the Markdown the
 * AI tools receive leaves them out: an MDX comment (`{/* … *\/}`, `{// …}`), an HTML comment in a
 * `.md` page (`<!-- … -->`), and a link definition that points nowhere, Markdown's comment idiom
 * (`[//]: # (…)`, `[note]: <> (…)`). Read as the compile reads the page: a comment may span lines
 * and code blocks; code blocks, code spans, escapes and a JSX tag's attributes keep what they hold,
 * as the page shows it there; a definition starts a block (it cannot continue a paragraph).
 */
import { closes, fenceOf } from '../content/pageLinks'

/** An MDX expression of comments alone, at a position: a block comment's body holds no `*\/`, so the match ends at the first. */
const MDX_COMMENT = /\{\s*(?:(?:\/\*(?:[^*]|\*(?!\/))*\*\/|\/\/[^\n}]*)\s*)+\}/y
/** A link definition to `#` or `<>`, its title on one line or more, with its line end. */
const COMMENT_DEFINITION = / {0,3}\[[^\]\n]+\]:[ \t]*(?:#|<>)(?:[ \t]+(?:"[^"]*"|'[^']*'|\([^)]*\)))?[ \t]*\r?(?:\n|$)/y
/** A `.md` page's indented code line (MDX has no indented code). */
const INDENTED = /^(?: {4}|\t)/

export function withoutComments(body: string, format: 'md' | 'mdx'): string {
  const htmlComment = htmlCommentEnds(body)
  const lineEnd = (from: number) => {
    const end = body.indexOf('\n', from)
    return end === -1 ? body.length : end + 1
  }
  let result = ''
  let at = 0
  let lineStart = true
  // Whether the line starts a block: the first, one after a line that shows nothing (blank, or a
  // comment alone), a heading, a code block or a definition; not one that continues a paragraph.
  let blockStart = true
  // Where the line's text starts in the result.
  let lineOutput = 0
  while (at < body.length) {
    if (lineStart) {
      lineStart = false
      const next = lineEnd(at)
      const line = body.slice(at, next).replace(/\r?\n$/, '')
      const fence = fenceOf(line)
      if (fence || (format === 'md' && blockStart && INDENTED.test(line))) {
        // A code block, copied whole: to its closing fence, or over its indented and blank lines.
        let end = next
        if (fence) {
          while (end < body.length) {
            const after = lineEnd(end)
            const closing = fenceOf(body.slice(end, after).replace(/\r?\n$/, ''))
            end = after
            if (closing && closes(fence, closing)) break
          }
        } else while (end < body.length && /^(?:(?: {4}|\t)|[ \t]*\r?(?:\n|$))/.test(body.slice(end, lineEnd(end)))) end = lineEnd(end)
        result += body.slice(at, end)
        at = end
        lineStart = blockStart = true
        continue
      }
      if (blockStart) {
        COMMENT_DEFINITION.lastIndex = at
        const definition = COMMENT_DEFINITION.exec(body)
        if (definition) {
          at += definition[0].length
          lineStart = true
          continue
        }
      }
      lineOutput = result.length
    }
    const char = body[at]
    if (char === '\n') {
      const written = result.slice(lineOutput)
      blockStart = written.trim() === '' || /^ {0,3}#{1,6}(?:[ \t]|\r?$)/.test(written)
      result += char
      at++
      lineStart = true
    } else if (char === '\\') {
      result += body.slice(at, at + 2)
      at += 2
    } else if (char === '`') {
      const next = codeSpanEnd(body, at)
      result += body.slice(at, next)
      at = next
    } else if (format === 'mdx' && char === '<' && /[A-Za-z]/.test(body[at + 1] ?? '')) {
      const next = tagEnd(body, at)
      result += body.slice(at, next)
      at = next
    } else {
      let end = -1
      if (format === 'mdx') {
        MDX_COMMENT.lastIndex = at
        const found = MDX_COMMENT.exec(body)
        if (found) end = at + found[0].length
      } else if (body.startsWith('<!--', at)) end = htmlComment(at, result.length - lineOutput <= 3 && /^ *$/.test(result.slice(lineOutput)))
      if (end !== -1) at = end
      else {
        result += char
        at++
      }
    }
  }
  return result
}

/**
 * Where a `.md` page's HTML comment at a `<!--` ends, as CommonMark and the compile's rehype-raw read
 * it; -1 where it is text. `<!-->` and `<!--->` are whole comments. One that starts a line is a
 * block: to its first `-->`, over blank lines, or to the page's end when it has none. One inside a
 * paragraph ends in it. The next end and blank line are kept, so a page of unfinished comments is
 * read once.
 */
function htmlCommentEnds(body: string): (at: number, startsLine: boolean) => number {
  let close = -1
  let blank = -1
  const blankLine = /\n[ \t]*\r?(?:\n|$)/g
  return (at, startsLine) => {
    if (body.startsWith('>', at + 4)) return at + 5
    if (body.startsWith('->', at + 4)) return at + 6
    if (close !== -2 && close < at + 4) {
      const found = body.indexOf('-->', at + 4)
      close = found === -1 ? -2 : found
    }
    if (startsLine) return close === -2 ? body.length : close + 3
    if (blank !== -2 && blank < at) {
      blankLine.lastIndex = at
      blank = blankLine.exec(body)?.index ?? -2
    }
    return close !== -2 && (blank === -2 || close < blank) ? close + 3 : -1
  }
}

/** Where the code span at `at` ends: after the next run of as many backticks in its paragraph; without one, its backticks are text. */
function codeSpanEnd(body: string, at: number): number {
  let ticks = at
  while (body[ticks] === '`') ticks++
  const length = ticks - at
  const blank = /\n[ \t]*\r?\n/g
  blank.lastIndex = ticks
  const paragraphEnd = blank.exec(body)?.index ?? body.length
  for (let look = body.indexOf('`', ticks); look !== -1 && look < paragraphEnd; look = body.indexOf('`', look)) {
    let end = look
    while (body[end] === '`') end++
    if (end - look === length) return end
    look = end
  }
  return ticks
}

/** Where the JSX tag at `at` ends (after its `>`), its quoted values and `{…}` read whole; without an end, after its `<`. */
function tagEnd(body: string, at: number): number {
  let depth = 0
  for (let look = at + 1; look < body.length; look++) {
    const char = body[look]
    if (depth === 0 && (char === '"' || char === "'")) {
      const close = body.indexOf(char, look + 1)
      if (close === -1) return at + 1
      look = close
    } else if (char === '{') depth++
    else if (char === '}') depth = Math.max(0, depth - 1)
    else if (char === '>' && depth === 0) return look + 1
    else if (char === '<' && depth === 0) return at + 1
  }
  return at + 1
}
