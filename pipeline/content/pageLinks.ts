/**
 * What a page or `_meta` file's text holds that a step needs without the text: its links, with
 * their lines, which the link check judges (../steps/checkLinks.ts), and a page's code languages.
 * Found once per version of a page's text and kept with the content source's record of the page
 * (./scanRecord.ts), so an unchanged page is not read to be checked again.
 */

/** A link in a page: a Markdown link or image, or an `href`/`src` attribute. */
export const PAGE_LINK = /!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)|(?:href|src)=["']([^"']+)["']/g
/** A link in a `_meta` file: its `href` entries. */
export const META_LINK = /href:\s*["'`]([^"'`]+)["'`]/g

/** A link's line (from 1) and target as written. */
export type FoundLink = [line: number, target: string]

/** Every link of `text` by `pattern`, outside fenced code blocks. */
export function linksIn(text: string, pattern: RegExp): FoundLink[] {
  const found: FoundLink[] = []
  let inFence = false
  text.split('\n').forEach((line, index) => {
    if (/^\s*(```|~~~)/.test(line)) inFence = !inFence
    if (inFence) return
    for (const match of line.matchAll(pattern)) found.push([index + 1, match[1] ?? match[2]])
  })
  return found
}

/** A fence that opens a code block, and the first word of its info string: the block's language. */
const FENCE = /^\s*(```|~~~)\s*([^\s`{]*)/
/** A language name as Shiki names one (`ts`, `c++`, `objective-c`, `f#`): anything else is not one. */
const LANGUAGE = /^[\w+#.-]{1,40}$/

/** The languages of the text's fenced code blocks, each once, in the order they first appear. */
export function codeLanguagesIn(text: string): string[] {
  const found = new Set<string>()
  let open: string | null = null
  for (const line of text.split('\n')) {
    const fence = FENCE.exec(line)
    if (!fence) continue
    if (open === null) {
      open = fence[1]
      if (LANGUAGE.test(fence[2])) found.add(fence[2])
    } else if (fence[1] === open && fence[2] === '') open = null
  }
  return [...found]
}
