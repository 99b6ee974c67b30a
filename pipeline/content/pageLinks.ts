/**
 * The links a page or `_meta` file's text holds, with their lines: what the link check judges
 * (../steps/checkLinks.ts). Found once per version of a page's text and kept with the content
 * source's record of the page (./scanRecord.ts), so an unchanged page is not read to be checked again.
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
