/**
 * What a page may hold: text, Markdown, a fixed set of HTML tags and attributes, and the site's
 * writer components with the props each takes. Nothing that runs in a reader's browser.
 *
 * A page is read by every reader of its section, admins included, and a script on it runs with
 * their session (the Amplify cookies are readable by script). So a page is checked against an
 * allowlist, not a denylist: hast-util-sanitize's schema (the one GitHub uses for Markdown),
 * extended with what the site's pages need, decides which tags and attributes pass, and the
 * constructs that are dangerous whatever the tag (event handlers, raw HTML, non-web URLs) are
 * refused by name first, so the writer reads what is wrong and how to fix it.
 *
 * Refusing instead of stripping: a page that silently lost an element would ship something its
 * writer did not write; the compile stops with `file:line:column` instead (./toPageDocument.mjs).
 *
 * Plain ESM, no TypeScript: the compile workers import it (./compileWorker.mjs), and its bytes are
 * part of the compile cache's fingerprint (./fingerprint.ts), so a change of the rules checks
 * every page again.
 */
import { readFileSync } from 'node:fs'
import { defaultSchema, sanitize } from 'hast-util-sanitize'
import { find, html } from 'property-information'
import { decodeCharacterReferences } from './characterReferences.cjs'

/**
 * What runs code whatever the allowlist says, by name (../../lib/render/codeInPages.json, which the
 * renderer reads too): tags that run, load or embed code or change where links and forms go, each
 * with why; attributes that hand the browser markup; event handlers.
 */
const CODE = JSON.parse(readFileSync(new URL('../../lib/render/codeInPages.json', import.meta.url), 'utf8'))
const REFUSED_TAGS = new Map(Object.entries(CODE.refusedTags))
const CODE_ATTRIBUTE = new RegExp(CODE.eventHandler, 'i')
const RAW_MARKUP_ATTRIBUTES = new Set(CODE.rawMarkupAttributes)

/** The schemes a URL may have; anything else (javascript:, data:, vbscript:, file:…) is refused. */
export const URL_SCHEMES = CODE.urlSchemes

/**
 * Attributes that hold a URL (React's names, lower-cased): checked on tags and components alike,
 * since a component hands its `href` to a link. `srcSet` holds several.
 */
const URL_ATTRIBUTES = new Set(CODE.urlAttributes)
/** The attributes that embed a file (an image): a path on the site only. */
const MEDIA_ATTRIBUTES = new Set(CODE.mediaAttributes)
/** What a browser splits a srcset's candidate on: ASCII whitespace only (a no-break space is part of its URL). */
const SRCSET_SPACE = new RegExp(CODE.srcsetSpace)

/**
 * The props each writer component takes (its name as the page writes it). A component hands the
 * rest of its props to an HTML element, so a prop not listed here is refused like an unknown
 * attribute would be.
 */
export const COMPONENT_PROPS = {
  Bleed: ['full'],
  Callout: ['type', 'emoji'],
  Cards: ['num'],
  'Cards.Card': ['title', 'href', 'arrow', 'icon'],
  FileTree: [],
  'FileTree.File': ['name', 'active'],
  'FileTree.Folder': ['name', 'open', 'defaultOpen', 'active'],
  SectionCards: [],
  Steps: [],
  Tabs: ['items', 'defaultIndex', 'selectedIndex', 'storageKey'],
  'Tabs.Tab': [],
}

/**
 * GitHub's schema, with what the site's pages write: an inline style (its values checked by
 * `styleProblem`), `hidden`, `role` and ARIA attributes on any tag, and a link's target and rel.
 * No class and no data attribute: the site's style sheets give them meaning (the theme's
 * `_fixed _inset-0`, the sign-in's `data-variation="modal"`), which would let a page cover the
 * window with a screen of its own.
 * Only http, https, mailto and site paths as URLs (GitHub's also allows irc and xmpp). Its tags are
 * the list the renderer checks too (codeInPages.json `tags`, GitHub's list as the tests check). No
 * ancestor rules: a tag is checked alone, and nothing is rewritten, only refused, but for the
 * clobber prefix: ids and names are GitHub's `user-content-…` (the compile writes the prefix,
 * ./toPageDocument.mjs `rehypePrefixIds`), so no element of a page can take the name of one of the
 * site's (`__next`, `__NEXT_DATA__`), whatever the writer writes.
 */
const SITE_SCHEMA = {
  ...defaultSchema,
  tagNames: CODE.tags,
  ancestors: {},
  clobber: defaultSchema.clobber,
  clobberPrefix: CODE.clobber.prefix,
  strip: [],
  attributes: {
    ...defaultSchema.attributes,
    a: [...defaultSchema.attributes.a, 'target', 'rel'],
    img: [...defaultSchema.attributes.img, 'loading', 'decoding'],
    '*': [...defaultSchema.attributes['*'], 'style', 'hidden', 'role', 'ariaHidden', 'ariaLabel', 'ariaDescribedBy', 'ariaLabelledBy'],
  },
  protocols: { cite: URL_SCHEMES, href: URL_SCHEMES, longDesc: URL_SCHEMES, src: URL_SCHEMES },
}

/** The tags a page may write, for the writer's message. */
export const ALLOWED_TAGS = [...SITE_SCHEMA.tagNames].sort()
const ALLOWED_TAG_SET = new Set(ALLOWED_TAGS)
const notATag = (tag) => `\`<${tag}>\` is not a tag pages can use; use Markdown or one of ${ALLOWED_TAGS.join(', ')}`

/** Why `tag`, an element the compile makes of the Markdown, is no tag a page may hold (the list the renderer checks, lib/render/pageRules.ts), or null. */
export const unlistedTagProblem = (tag) => (ALLOWED_TAG_SET.has(tag) ? null : notATag(tag))

/** The clobber prefix, which the hast properties `id`, `name`, `ariaDescribedBy` and `ariaLabelledBy` carry. */
export const CLOBBER_PREFIX = SITE_SCHEMA.clobberPrefix

/** Whether a hast property (`id`) or a JSX attribute (`aria-describedby`) of an HTML tag carries the prefix. */
export const isClobbered = (name) => SITE_SCHEMA.clobber.includes(hastName(name))

/**
 * `value` with the prefix on each of its space-separated names; a name that has it already keeps
 * it once (GFM's footnotes come out of remark-rehype as `user-content-fn-1`). What matters is that
 * every id starts with the prefix, which no id of the site does.
 */
export function withClobberPrefix(value) {
  const names = Array.isArray(value) ? value.map(String) : String(value).split(/\s+/).filter(Boolean)
  const prefixed = names.map((name) => (name.startsWith(CLOBBER_PREFIX) ? name : CLOBBER_PREFIX + name))
  return Array.isArray(value) ? prefixed : prefixed.join(' ')
}

// ---------------------------------------------------------------------------------------------
// URLs

/**
 * The scheme a browser would give `url`, after what it forgives: character references decoded,
 * tabs and line breaks anywhere removed, control characters and spaces around it trimmed. Null
 * for a path (`/docs/x`, `./x`, `#id`, `?q`), which stays on the site.
 */
export function urlScheme(url) {
  const seen = decodeCharacterReferences(String(url)).replace(/[\t\n\r]/g, '').replace(/^[\u0000-\u0020]+|[\u0000-\u0020]+$/g, '')
  // `//host` and its backslash spellings leave the site without naming a scheme.
  if (/^[\\/]{2}/.test(seen)) return '//'
  const match = /^([^:/?#]*):/.exec(seen)
  return match ? match[1].toLowerCase() : null
}

/** Why `value` is no URL a page may hold, or null. `srcSet` holds a URL per comma-separated candidate. */
function urlProblem(attribute, value) {
  if (typeof value !== 'string') return `\`${attribute}\` must be a URL written as text`
  const urls = attribute.toLowerCase() === 'srcset' ? value.split(',').map((candidate) => candidate.split(SRCSET_SPACE).filter(Boolean)[0] ?? '') : [value]
  const media = MEDIA_ATTRIBUTES.has(attribute.toLowerCase())
  for (const url of urls) {
    const scheme = urlScheme(url)
    // The site's policy loads no image from another site, and one of this site's own, at its full address, would skip the check of who may fetch it.
    if (media && scheme !== null) return `\`${attribute}="${url.slice(0, 60)}"\`: an image is embedded by its path on this site (/docs/<section>/images/…), never by an address`
    if (scheme === null || URL_SCHEMES.includes(scheme)) continue
    if (scheme === '//') return `\`${attribute}="${url}"\` leaves the site without a scheme: write the full https:// address`
    return `\`${attribute}="${url.slice(0, 60)}"\` is a ${scheme ? `\`${scheme}:\`` : 'malformed'} URL: a page's links and images are site paths (/docs/…), https://, http:// or mailto: addresses`
  }
  return null
}

// ---------------------------------------------------------------------------------------------
// Inline styles

/**
 * An inline style holds colours, sizes and keywords of a short list of properties (codeInPages.json
 * `style`, which the renderer checks too): nothing that loads a file or computes (url(), image-set(),
 * expression(), @import, escapes), ends its declaration to start another (`;`, `{`, `}`, which
 * React writes into the HTML as they are), or takes the element out of its place: no `position`,
 * `z-index`, `top`/`inset`, `transform`, `float`, negative margins, so a page cannot draw over the
 * site's navigation or cover the window with a screen of its own.
 */
const STYLE = CODE.style
const STYLE_PROPERTIES = new Set(STYLE.properties)
const CUSTOM_PROPERTY = new RegExp(STYLE.customProperties)
const STYLE_VALUE_REFUSED = new RegExp(STYLE.refusedValue, 'i')
const MARGIN = new RegExp(STYLE.marginProperties)
const MARGIN_VALUE = new RegExp(STYLE.marginValue)

function styleProblem(value) {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return '`style` must be an object, style={{ color: \'red\' }}'
  for (const [property, entry] of Object.entries(value)) {
    if (!STYLE_PROPERTIES.has(property) && !CUSTOM_PROPERTY.test(property)) {
      return `the style \`${property}\` can take content out of its place or is not one pages use; a page's styles are ${STYLE.properties.map((each) => `\`${each}\``).join(', ')}`
    }
    if (typeof entry !== 'string' && typeof entry !== 'number') return `the style \`${property}\` must be text or a number`
    const text = String(entry)
    if (STYLE_VALUE_REFUSED.test(text)) return `the style \`${property}: ${text.slice(0, 60)}\` loads a file, escapes characters or ends its declaration (url(), image-set(), @import, \\, ;, {, }, !important)`
    if (MARGIN.test(property) && !MARGIN_VALUE.test(text.trim())) return `the style \`${property}: ${text.slice(0, 60)}\` moves the element out of its place: margins are 0, auto or positive lengths`
  }
  return null
}

// ---------------------------------------------------------------------------------------------
// Links that open a window

/** A `rel` that gives the page a link opens a hold on the docs tab (`window.opener`). */
const relHasOpener = (value) => String(value).toLowerCase().split(/\s+/).includes('opener')

/**
 * Why a link's `target` opens a page that could reach back to the docs tab, or null: every target
 * but `_self` needs `rel="noopener noreferrer"`. Given all the element's attributes, as [name, value].
 */
export function targetProblem(tag, attributes) {
  const target = attributes.find(([name]) => name.toLowerCase() === 'target')
  if (!target || target[1] === '_self') return null
  const rel = attributes.find(([name]) => name.toLowerCase() === 'rel')
  const tokens = rel ? String(rel[1]).toLowerCase().split(/\s+/) : []
  if (tokens.includes('noopener') && tokens.includes('noreferrer')) return null
  return `\`<${tag} target=${JSON.stringify(target[1])}>\` needs rel="noopener noreferrer", so the page it opens cannot reach back to the docs tab`
}

// ---------------------------------------------------------------------------------------------
// The checks

/** Why an attribute is refused on any element or component, or null: code, raw markup, a bad URL, a style that loads. */
function anyElementProblem(tag, name, value) {
  const lower = name.toLowerCase()
  if (CODE_ATTRIBUTE.test(lower)) return `\`<${tag} ${name}>\`: event handlers run code in the reader's browser; pages cannot hold them`
  if (RAW_MARKUP_ATTRIBUTES.has(lower)) return `\`<${tag} ${name}>\` puts raw HTML into the page, which the site cannot check; write the content as Markdown or JSX`
  if (URL_ATTRIBUTES.has(lower)) {
    const problem = urlProblem(name, value)
    if (problem) return `\`<${tag}>\`: ${problem}`
  }
  if (lower === 'style') {
    const problem = styleProblem(value)
    if (problem) return `\`<${tag} style>\`: ${problem}`
  }
  if (lower === 'rel' && relHasOpener(value)) return `\`<${tag} rel="opener">\` lets the page the link opens take over the docs tab (window.opener); write rel="noopener noreferrer"`
  if (lower === 'role' && !CONTENT_ROLES.has(String(value).trim().toLowerCase())) {
    return `\`<${tag} role="${String(value).slice(0, 40)}">\`: a page's roles are its content's (${[...CONTENT_ROLES].join(', ')}); an alert, a landmark or a control would pose as the site's own to a screen reader`
  }
  if (lower === 'accesskey') return `\`<${tag} ${name}>\` binds a key of the reader's keyboard, which is the site's to bind`
  if (lower === 'tabindex' && !(Number(value) <= 0)) return `\`<${tag} ${name}=${JSON.stringify(value)}>\` puts the element ahead of the site's own (skip link, sign-out, search) in the tab order: write 0 or -1`
  return null
}

/**
 * The ARIA roles a page's own elements may take: what content is. A landmark (banner, navigation,
 * search), a live region (alert, status) or a widget would be announced as the site's chrome.
 */
const CONTENT_ROLES = new Set(['note', 'img', 'figure', 'group', 'list', 'listitem', 'presentation', 'none', 'term', 'definition', 'table', 'row', 'rowgroup', 'cell', 'columnheader', 'rowheader', 'separator', 'math', 'code', 'blockquote', 'caption', 'paragraph', 'emphasis', 'strong', 'deletion', 'insertion', 'subscript', 'superscript', 'time', 'mark'])

/** A JSX attribute as hast names it (`className`, `dataKind`, `ariaLabel`, `htmlFor`). */
const hastName = (name) => find(html, name).property

/** Whether GitHub's schema, as the site extends it, keeps `<tag name=value>`; null when it does. */
function schemaProblem(tag, name, value) {
  const property = hastName(name)
  if (property === 'style') return null // its values are checked by styleProblem
  // GitHub's schema keeps a class on some tags (`language-…` on code), checked as one value: the
  // rest of the list would pass with it (`language-js _fixed _inset-0`). A page writes none.
  if (property === 'className') return `\`<${tag} ${name}>\` is not an attribute pages can use: the site's style sheets give classes meaning; style an element with \`style\``
  const element = { type: 'element', tagName: tag, properties: { [property]: typeof value === 'number' || typeof value === 'boolean' || Array.isArray(value) ? value : String(value) }, children: [] }
  const kept = sanitize({ type: 'root', children: [element] }, SITE_SCHEMA).children[0]
  const after = kept?.properties?.[property]
  // An id or a name comes back with the clobber prefix, which the compile writes on it (rehypePrefixIds).
  const expected = SITE_SCHEMA.clobber.includes(property) && typeof element.properties[property] === 'string' ? CLOBBER_PREFIX + element.properties[property] : element.properties[property]
  if (kept?.type === 'element' && after !== undefined && JSON.stringify(after) === JSON.stringify(expected)) return null
  return `\`<${tag} ${name}${value === true ? '' : `=${JSON.stringify(value).slice(0, 60)}`}>\` is not an attribute pages can use on <${tag}>`
}

/**
 * Why a tag written in a page, with its attributes (React's names, JSON values), cannot be in a
 * page; null when it can. `attributes` is a list of [name, value]; a value of `true` is an
 * attribute written without one (`<details open>`).
 */
export function htmlTagProblem(tag, attributes) {
  const refused = REFUSED_TAGS.get(tag.toLowerCase())
  if (refused) return `\`<${tag}>\` ${refused}; pages hold text, Markdown and the site's components, nothing that runs or loads`
  const kept = sanitize({ type: 'root', children: [{ type: 'element', tagName: tag, properties: {}, children: [] }] }, SITE_SCHEMA).children[0]
  if (kept?.type !== 'element' || kept.tagName !== tag) return notATag(tag)
  for (const [name, value] of attributes) {
    // React writes no attribute for null, where the checks below would read the text "null".
    if (value === null) return `\`<${tag} ${name}={null}>\` writes no attribute: leave it out`
    const problem = anyElementProblem(tag, name, value)
    if (problem) return problem
    if (value !== null && typeof value === 'object' && !Array.isArray(value) && name !== 'style') return `\`<${tag} ${name}={{…}}>\`: only \`style\` takes an object`
    const notAllowed = schemaProblem(tag, name, value)
    if (notAllowed) return notAllowed
  }
  return null
}

/**
 * The attributes the schema forces on a tag (GitHub's: an `<input>` is a disabled checkbox, a task
 * list's box), which the check of each attribute alone does not see: a bare `<input />` would be a
 * field a reader types into, a password prompt drawn on the site's page.
 */
export function requiredProblem(tag, attributes) {
  const required = SITE_SCHEMA.required[tag]
  if (!required) return null
  const written = new Map(attributes)
  const missing = Object.entries(required).find(([name, value]) => (value === true ? ![true, '', name].includes(written.get(name)) : String(written.get(name)).toLowerCase() !== value))
  if (!missing) return null
  const wanted = Object.entries(required).map(([name, value]) => (value === true ? name : `${name}="${value}"`)).join(' ')
  return `\`<${tag}>\` must be written \`<${tag} ${wanted} />\` (a task list's box; Markdown's \`- [ ]\` makes one): a page holds no field a reader could type into`
}

/** Why a writer component, with its props, cannot be in a page; null when it can. */
export function componentProblem(name, attributes) {
  const takes = COMPONENT_PROPS[name]
  if (!takes) return `\`<${name}>\` is not a component pages can use`
  for (const [prop, value] of attributes) {
    const problem = anyElementProblem(name, prop, value)
    if (problem) return problem
    if (!takes.includes(prop)) return `\`<${name} ${prop}>\`: ${name} takes ${takes.length ? takes.map((each) => `\`${each}\``).join(', ') : 'no props'}`
    const wanted = PROP_VALUES[`${name}.${prop}`]
    if (wanted && !wanted.test(value)) return `\`<${name} ${prop}>\` is ${wanted.is}`
  }
  return null
}

/** Props a component uses unchecked (a card's link, the tabs' titles): without one, the page's render failed, naming neither file nor line. */
const REQUIRED_PROPS = { 'Cards.Card': ['href'], Tabs: ['items'] }

/** Why a writer component given the props named `given` (all of them) lacks one it cannot do without; null when it lacks none. */
export function missingPropProblem(name, given) {
  const missing = REQUIRED_PROPS[name]?.find((prop) => !given.includes(prop))
  return missing ? `\`<${name}>\` needs \`${missing}\`: ${PROP_VALUES[`${name}.${missing}`].is}` : null
}

const wholeNumber = (from, to) => (value) => Number.isInteger(value) && value >= from && value <= to
/** A prop the component draws as text: an object there fails the render (React error #31), on whichever page comes first. */
const TEXT = { test: (value) => value === null || typeof value === 'string' || typeof value === 'number', is: 'text, written in quotes ("…"), or null for none' }
/** A prop the component reads as a switch. */
const SWITCH = { test: (value) => typeof value === 'boolean', is: 'true or false, written as the prop alone or prop={false}' }

/**
 * What a component's prop may hold, where the component puts it where another value would do harm
 * (Cards writes `num` into its style, unchecked; Tabs keeps its choice in localStorage under
 * `storageKey`, beside the site's own keys) or break the page's render (Tabs maps `items`; text
 * props are drawn as text). Every prop of COMPONENT_PROPS has an entry.
 */
const PROP_VALUES = {
  'Cards.num': { test: wholeNumber(1, 12), is: 'the number of columns, a whole number from 1 to 12, written num={2}' },
  'Tabs.items': { test: (value) => Array.isArray(value) && value.length > 0 && value.every((item) => typeof item === 'string' || typeof item === 'number'), is: "the tabs' titles, a list of text: items={['First', 'Second']}" },
  'Tabs.defaultIndex': { test: wholeNumber(0, 99), is: 'the index of a tab, a whole number from 0: defaultIndex={1}' },
  'Tabs.selectedIndex': { test: wholeNumber(0, 99), is: 'the index of a tab, a whole number from 0: selectedIndex={1}' },
  'Tabs.storageKey': { test: (value) => typeof value === 'string' && /^tabs-[a-z0-9-]{1,60}$/.test(value), is: 'the name tabs that change together share, "tabs-" and lowercase letters, digits and hyphens (storageKey="tabs-package-manager"): the site keeps its own settings beside it' },
  'Bleed.full': SWITCH,
  'Callout.type': { test: (value) => ['default', 'info', 'warning', 'error'].includes(value), is: 'one of "default", "info", "warning", "error" (another drew a callout of no colour)' },
  'Callout.emoji': TEXT,
  'Cards.Card.title': TEXT,
  'Cards.Card.href': { test: (value) => typeof value === 'string', is: 'a link, written in quotes (href="/docs/leads/intro")' },
  'Cards.Card.icon': TEXT,
  'Cards.Card.arrow': SWITCH,
  'FileTree.File.name': TEXT,
  'FileTree.File.active': SWITCH,
  'FileTree.Folder.name': TEXT,
  'FileTree.Folder.open': SWITCH,
  'FileTree.Folder.defaultOpen': SWITCH,
  'FileTree.Folder.active': SWITCH,
}
// A prop added to COMPONENT_PROPS without its kind of value would take anything.
for (const [name, props] of Object.entries(COMPONENT_PROPS)) {
  for (const prop of props) if (!PROP_VALUES[`${name}.${prop}`]) throw new Error(`pageSanitizer: <${name} ${prop}> has no entry in PROP_VALUES`)
}

/**
 * Why an attribute of an element the page did not write as a tag (Markdown's links and images,
 * and what Nextra's plugins make of the page) is refused: only what is dangerous on any element,
 * since their tags and other attributes come from the Markdown grammar and the site's plugins.
 */
export function attributesProblem(tag, attributes) {
  for (const [name, value] of attributes) {
    // React writes no attribute for null, where the checks below would read the text "null".
    if (value === null) return `\`<${tag} ${name}={null}>\` writes no attribute: leave it out`
    const problem = anyElementProblem(tag, name, value)
    if (problem) return problem
  }
  return null
}
