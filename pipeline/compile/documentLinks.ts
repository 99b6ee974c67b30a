/**
 * The links and images a compiled page holds: every URL attribute of its document's elements and
 * components, as the browser will get them. The scan's links are read from the MDX line by line
 * (../content/pageLinks.ts), which misses what only the compile resolves: a reference link and its
 * definition, link text over several lines, an attribute written `href = "…"` or `href={'…'}`.
 * The link check judges both (../steps/checkLinks.ts), so what ships is what was checked.
 */
import CODE from '../../lib/render/codeInPages.json'
import { elementsOf, type TreeNode, type TreeValue } from '../../lib/render/pageDocument'
import { CLOBBER_PREFIX, srcsetUrls } from '../../lib/render/pageRules'
import { sha256 } from '../files'
import { lineAt, lineOf, type FoundLink } from '../content/pageLinks'
import { absoluteUrl, isUrlProperty } from './sitePaths.mjs'

const URL_ATTRIBUTES = new Set(CODE.urlAttributes)

/** The URLs of an attribute's value: one, or a `srcSet`'s candidates. */
function urlsOf(name: string, value: TreeValue): string[] {
  if (typeof value !== 'string') return []
  return name === 'srcset' ? srcsetUrls(value).filter(Boolean) : [value]
}

/** A URL as a page's text may spell it: after `](`, a reference's `]:`, or `=` and a quote or `{`. */
const SPELT_URL = /(?:\]\(\s*<?|^\s*\[[^\]\n]+\]:\s*<?|=\s*\{?\s*["'`])([^\s)"'`<>}]+)/gm

/**
 * Each URL of `tree`, once, with the line of the page's `text` where it is first written (a
 * reference link's, its definition's). A relative URL the compile wrote as its site path
 * (./sitePaths.mjs) is named as the text spells it, at its line; line 1 when the text does not
 * spell it as the page holds it.
 */
export function documentLinks(tree: readonly TreeNode[], text: string, route?: string): FoundLink[] {
  const found = new Set<string>()
  for (const { properties, tagName } of elementsOf(tree)) {
    for (const [name, value] of Object.entries(properties)) if (isUrlProperty(tagName, name, URL_ATTRIBUTES)) for (const url of urlsOf(name.toLowerCase(), value)) found.add(url)
  }
  let written: Map<string, FoundLink> | undefined
  const spelling = (url: string): FoundLink => {
    if (route === undefined || text.includes(url)) return [lineOf(text, url), url]
    written ??= new Map([...text.matchAll(SPELT_URL)].reverse().map((match): [string, FoundLink] => [absoluteUrl(route, match[1]), [lineAt(text, match.index + match[0].length - match[1].length), match[1]]]))
    return written.get(url) ?? [1, url]
  }
  return [...found].map(spelling)
}

/** An id as a `#fragment` names it, without the prefix the compile gives every id (which the page maps), hashed short: what the page store keeps of it. */
export const anchorKey = (id: string): string => sha256(id.startsWith(CLOBBER_PREFIX) ? id.slice(CLOBBER_PREFIX.length) : id).slice(0, 8)

/**
 * The ids a link's `#fragment` can name on the page (each HTML element's `id` and `name`, as
 * anchorKey keeps them), space-separated: a few bytes a page in the store, which every build reads.
 */
export function documentAnchors(tree: readonly TreeNode[]): string {
  const found = new Set<string>()
  for (const { properties, tagName } of elementsOf(tree)) {
    if (!/^[A-Z]/.test(tagName)) for (const name of ['id', 'name']) if (typeof properties[name] === 'string') found.add(anchorKey(properties[name] as string))
  }
  return [...found].join(' ')
}
