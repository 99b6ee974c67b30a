/**
 * What an element of a page document may be, checked by the renderer on every element it draws
 * (./renderTree.tsx). The compile refuses all of this first, with the page's line and column
 * (pipeline/compile/pageSanitizer.mjs); the renderer checks again because a document is a file
 * (the compile cache, a props file) that someone could write without the compile.
 *
 * Both read the same data, ./codeInPages.json: the tags (GitHub's Markdown list), the URL
 * attributes and schemes, the clobber prefix of ids and names, the style properties. The data is
 * shared, not the library: hast-util-sanitize stays out of the browser bundle, and these checks are
 * a few Set lookups an element, for every page render.
 *
 * Browser code: no Node imports.
 */
import CODE from './codeInPages.json'
import type { TreeElement, TreeValue } from './pageDocument'

/** What the element is drawn as: Markdown's or a written tag (HTML), or a code block's icon (SVG). */
export type DrawnAs = 'html' | 'icon'

const TAGS: Record<DrawnAs, ReadonlySet<string>> = { html: new Set(CODE.tags), icon: new Set(CODE.iconTags) }
const REFUSED_TAGS: ReadonlyMap<string, string> = new Map(Object.entries(CODE.refusedTags))
const RAW_MARKUP = new Set(CODE.rawMarkupAttributes)
const EVENT_HANDLER = new RegExp(CODE.eventHandler, 'i')
const URL_ATTRIBUTES = new Set(CODE.urlAttributes)
/** The attributes that embed a file: a path on the site only. */
const MEDIA_ATTRIBUTES = new Set(CODE.mediaAttributes)
/** What a browser splits a srcset's candidate on: ASCII whitespace only (a no-break space is part of its URL). */
const SRCSET_SPACE = new RegExp(CODE.srcsetSpace)
const URL_SCHEMES = new Set(CODE.urlSchemes)
const CLOBBER = new Set(CODE.clobber.attributes)
const STYLE_PROPERTIES = new Set(CODE.style.properties)
const CUSTOM_PROPERTY = new RegExp(CODE.style.customProperties)
const STYLE_VALUE_REFUSED = new RegExp(CODE.style.refusedValue, 'i')
const MARGIN = new RegExp(CODE.style.marginProperties)
const MARGIN_VALUE = new RegExp(CODE.style.marginValue)

/** The prefix every id and name of a page carries, so none can be one of the site's (`__next`, `__NEXT_DATA__`). */
export const CLOBBER_PREFIX: string = CODE.clobber.prefix

/**
 * The scheme a browser gives `url` (tabs and line breaks removed, controls and spaces trimmed,
 * lower case); `//` for an address that leaves the site without one; null for a site path.
 * No character references: React writes an attribute's `&` as `&amp;`, so none is decoded.
 */
export function urlScheme(url: string): string | null {
  const seen = url.replace(/[\t\n\r]/g, '').replace(/^[\u0000-\u0020]+|[\u0000-\u0020]+$/g, '') // eslint-disable-line no-control-regex
  if (/^[\\/]{2}/.test(seen)) return '//'
  const match = /^([^:/?#]*):/.exec(seen)
  return match ? match[1].toLowerCase() : null
}

/** The URL of each of a `srcset`'s comma-separated candidates ('' for an empty one), split as a browser splits them. */
export const srcsetUrls = (value: string): string[] => value.split(',').map((candidate) => candidate.split(SRCSET_SPACE).filter(Boolean)[0] ?? '')

function urlProblem(name: string, value: TreeValue): string | null {
  if (typeof value !== 'string') return `${name} that is not text`
  const urls = name.toLowerCase() === 'srcset' ? srcsetUrls(value) : [value]
  const media = MEDIA_ATTRIBUTES.has(name.toLowerCase())
  for (const url of urls) {
    const scheme = urlScheme(url)
    if (scheme !== null && (media || !URL_SCHEMES.has(scheme))) return `${name}="${url.slice(0, 40)}"`
  }
  return null
}

/** Why a style value may not be in a page: it loads, escapes, ends its declaration, or moves the element out of its place. */
export function styleProblem(style: TreeValue): string | null {
  if (style === null || typeof style !== 'object' || Array.isArray(style)) return 'a style that is not an object'
  for (const [property, value] of Object.entries(style)) {
    if (!STYLE_PROPERTIES.has(property) && !CUSTOM_PROPERTY.test(property)) return `the style property ${property}`
    if (typeof value !== 'string' && typeof value !== 'number') return `the style ${property} that is not text or a number`
    const text = String(value)
    if (STYLE_VALUE_REFUSED.test(text)) return `the style ${property}: ${text.slice(0, 40)}`
    if (MARGIN.test(property) && !MARGIN_VALUE.test(text.trim())) return `the style ${property}: ${text.slice(0, 40)}`
  }
  return null
}

/** Why `rel` lets a page opened from this one reach back to it, or null. */
function relProblem(properties: Record<string, TreeValue>): string | null {
  const rel = typeof properties.rel === 'string' ? properties.rel.toLowerCase().split(/\s+/) : []
  if (rel.includes('opener')) return 'rel="opener"'
  const target = properties.target
  if (target !== undefined && target !== '_self' && !(rel.includes('noopener') && rel.includes('noreferrer'))) return `target="${String(target).slice(0, 20)}" without rel="noopener noreferrer"`
  return null
}

/**
 * Properties objects already checked, for tags and for components: a packed document shares one
 * object among the elements that have the same (a code block's tokens).
 */
const checked = { tag: new WeakSet<object>(), component: new WeakSet<object>() }

/**
 * Why an element's properties may not be drawn, or null. The checks do not depend on the tag, so
 * each object is checked once; a component's `name` (FileTree.File) is a prop, not an HTML name.
 */
function propertiesProblem(tag: string, properties: Record<string, TreeValue>, kind: keyof typeof checked): string | null {
  if (checked[kind].has(properties)) return null
  for (const [name, value] of Object.entries(properties)) {
    const lower = name.toLowerCase()
    if (EVENT_HANDLER.test(name) || RAW_MARKUP.has(lower)) return `<${tag} ${name}>`
    if (URL_ATTRIBUTES.has(lower)) {
      const problem = urlProblem(name, value)
      if (problem) return `<${tag} ${problem}>`
    }
    if (kind === 'tag' && CLOBBER.has(lower.replace(/-/g, ''))) {
      const values = typeof value === 'string' ? value.split(/\s+/).filter(Boolean) : [value]
      if (values.some((each) => typeof each !== 'string' || !each.startsWith(CLOBBER_PREFIX))) return `<${tag} ${name}="${String(value).slice(0, 40)}"> without the prefix ${CLOBBER_PREFIX}`
    }
    if (name === 'style') {
      const problem = styleProblem(value)
      if (problem) return `<${tag} style> with ${problem}`
    }
  }
  const rel = relProblem(properties)
  if (rel) return `<${tag} ${rel}>`
  checked[kind].add(properties)
  return null
}

/**
 * Why `element` may not be drawn, or null: a tag outside the list, a refused tag, an event
 * handler or raw markup, a URL of another scheme, an id without the prefix, a style that moves
 * it out of its place, or a link that hands the docs tab to the page it opens. A component (upper
 * case, `Tabs.Tab`) is the renderer's own map's business; its props are checked here all the same.
 */
export function elementProblem(element: TreeElement, drawnAs: DrawnAs = 'html'): string | null {
  const tag = element.tagName
  // A raw element is drawn as the tag it names, whatever its case (`IFRAME` is an iframe).
  const isComponent = !element.raw && (/^[A-Z]/.test(tag) || tag.includes('.'))
  if (!isComponent) {
    const refused = REFUSED_TAGS.get(tag.toLowerCase())
    if (refused && !(drawnAs === 'icon' && TAGS.icon.has(tag))) return `a <${tag}> (it ${refused})`
    if (!TAGS[drawnAs].has(tag)) return `a <${tag}>, which is not a tag pages can use`
  }
  return propertiesProblem(tag, element.properties, isComponent ? 'component' : 'tag')
}
