/**
 * What a page or `_meta` file's text holds that a step needs without the text: its links, with
 * their lines, which the link check judges (../steps/checkLinks.ts), and a page's code languages.
 * Found once per version of a page's text and kept with the content source's record of the page
 * (./scanRecord.ts), so an unchanged page is not read to be checked again.
 */

/**
 * A link in a page: a Markdown link or image, or an `href`/`src` attribute. A link's text holds no
 * `[`, so a try from each `[` stops at the next one, and a line of many is read in linear time (a
 * text with brackets in it is found in the compiled document, ../compile/documentLinks.ts).
 */
export const PAGE_LINK = /!?\[[^[\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)|(?:href|src)=["']([^"']+)["']/g

/** A link's line (from 1) and target as written. */
export type FoundLink = [line: number, target: string]

/** Every link of `text` by `pattern`, outside fenced code blocks. */
export function linksIn(text: string, pattern: RegExp): FoundLink[] {
  const found: FoundLink[] = []
  let number = 0
  for (const [line, fenced] of fencedLines(text)) {
    number++
    if (!fenced) for (const match of line.matchAll(pattern)) found.push([number, match[1] ?? match[2]])
  }
  return found
}

/** Each line of `text`, and whether it belongs to a fenced code block (its fences included). */
function* fencedLines(text: string): Generator<[line: string, fenced: boolean]> {
  let open: Fence | null = null
  for (const line of text.split('\n')) {
    const fence = fenceOf(line)
    if (open === null) {
      open = fence
      yield [line, fence !== null]
    } else {
      if (fence && closes(open, fence)) open = null
      yield [line, true]
    }
  }
}

/** A code fence's line, as CommonMark reads one: its character, its length, and the first word of its info string. */
interface Fence {
  char: string
  length: number
  info: string
  /** Whether nothing follows the fence's characters, as on a closing fence. */
  bare: boolean
}

/** At any indentation: MDX has no indented code, so a fence in a list item or JSX opens a block too. */
const FENCE_LINE = /^\s*(`{3,}|~{3,})(.*)$/

/** The fence `line` is, or null: a backtick fence's info holds no backtick (```` ```npm run build``` ```` is inline code). A CRLF line's CR is no part of it. */
function fenceOf(line: string): Fence | null {
  const match = FENCE_LINE.exec(line.endsWith('\r') ? line.slice(0, -1) : line)
  if (!match || (match[1][0] === '`' && match[2].includes('`'))) return null
  const info = match[2].trim()
  return { char: match[1][0], length: match[1].length, info: info.split(/[\s{]/, 1)[0], bare: info === '' }
}

/** Whether `fence` closes the block `open` opened: the same character, at least as long, nothing after. */
const closes = (open: Fence, fence: Fence) => fence.char === open.char && fence.length >= open.length && fence.bare

/** An `href` key of a `_meta` file's text, quoted or not. */
const HREF_KEY = /(?<![\w$])(['"`]?)href\1\s*:/g

/**
 * The links of a `_meta` file: every `href` of its data, at any depth (a menu's items), however
 * its key is written. Each is placed where the text spells its value as written, after the last
 * one placed; a value spelt otherwise (with escapes) or empty is placed at the next `href` key
 * (line 1 when the text has none left).
 */
export function metaLinksIn(data: unknown, text: string): FoundLink[] {
  const found: FoundLink[] = []
  let from = 0
  const place = (value: string): number => {
    let at = value === '' ? -1 : quotedHref(text, value, from)
    if (at < 0 && value !== '') at = text.indexOf(value, from)
    if (at < 0) {
      HREF_KEY.lastIndex = from
      at = HREF_KEY.exec(text)?.index ?? -1
    }
    if (at < 0) return 1
    from = at + Math.max(1, value.length)
    return lineAt(text, at)
  }
  const visit = (value: unknown) => {
    if (Array.isArray(value)) value.forEach(visit)
    else if (value !== null && typeof value === 'object') {
      for (const [key, entry] of Object.entries(value)) {
        if (key === 'href' && typeof entry === 'string') found.push([place(entry), entry])
        else visit(entry)
      }
    }
  }
  visit(data)
  return found
}

/**
 * Where `text` spells `href: '<value>'` (any quote, the key quoted or not) from `from` on: the
 * value's index, or -1. Tried first, so a value that is also a key (`setup: 'Setup'`) is placed
 * at its href, not at the key.
 */
function quotedHref(text: string, value: string, from: number): number {
  const spelt = new RegExp(`${HREF_KEY.source}\\s*(['"\`])${value.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\2`, 'g')
  spelt.lastIndex = from
  const found = spelt.exec(text)
  return found ? found.index + found[0].length - value.length - 1 : -1
}

/** The line (from 1) of `text` that its character at `index` is on. */
export const lineAt = (text: string, index: number): number => text.slice(0, index).split('\n').length

/** The line (from 1) of `text` where `written` first appears; 1 when it does not. */
export function lineOf(text: string, written: string): number {
  const at = text.indexOf(written)
  return at < 0 ? 1 : lineAt(text, at)
}

/** A language name as Shiki names one (`ts`, `c++`, `objective-c`, `f#`): anything else is not one. */
const LANGUAGE = /^[\w+#.-]{1,40}$/

/** The languages of the text's fenced code blocks, each once, in the order they first appear. */
export function codeLanguagesIn(text: string): string[] {
  const found = new Set<string>()
  let open: Fence | null = null
  for (const line of text.split('\n')) {
    const fence = fenceOf(line)
    if (!fence) continue
    if (open === null) {
      open = fence
      if (LANGUAGE.test(fence.info)) found.add(fence.info)
    } else if (closes(open, fence)) open = null
  }
  return [...found]
}
