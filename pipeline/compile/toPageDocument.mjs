/**
 * Turns a page, as Nextra's compiler sees it, into the data the browser renders
 * (lib/render/pageDocument.ts): no code, only elements, text and JSON properties.
 *
 * Two plugins, added to Nextra's own compile (./compileWorker.mjs):
 *
 * - `rehypeCheckPage`, the first rehype plugin, refuses what a page written as data cannot hold:
 *   imports of anything but the fixed components, exports, `{expressions}`, component names
 *   outside the fixed map, and attributes that are not plain values; and what would run in a
 *   reader's browser, by the allowlist of ./pageSanitizer.mjs (tags, attributes, component props,
 *   URLs); and what a reader needs, by ./readerChecks.mjs (alt text, no skipped heading level).
 *   It runs on the page's own nodes (the ones with a place in the file), so each refusal
 *   names its line and column.
 * - `recmaCapturePage`, the first recma plugin, reads the compiled program's JSX (after every
 *   rehype plugin and MDX's own rewrite of element names, before Nextra's last rewrite) and turns
 *   it into the tree. Reading the program rather than the HTML tree keeps exactly what the page
 *   renders today: which elements go through the theme's components (`_components.p`) and which
 *   are plain tags written as JSX (`<div>`), the attribute names and style objects, the line
 *   breaks between blocks, and the table of contents' values as Nextra computed them. It checks
 *   every element it keeps against the same allowlist again, so nothing a plugin made of the page
 *   (or a node with no place in the file) reaches the document unchecked.
 *
 * Plain ESM, no dependencies: the worker imports it, and its lists are checked against the
 * browser's component map by the tests (__tests__/render/).
 */

import { attributesProblem, componentProblem, htmlTagProblem, isClobbered, missingPropProblem, requiredProblem, targetProblem, unlistedTagProblem, withClobberPrefix } from './pageSanitizer.mjs'
import { altProblem, headingLevel, headingProblem } from './readerChecks.mjs'
import { textFieldProblem } from '../../lib/plainText.mjs'

/** The components a page may use, each under the name it is written with. */
export const WRITER_COMPONENTS = [
  'Bleed',
  'Callout',
  'Cards',
  'Cards.Card',
  'FileTree',
  'FileTree.File',
  'FileTree.Folder',
  'SectionCards',
  'Steps',
  'Tabs',
  'Tabs.Tab',
]

/**
 * Where each importable component comes from, as the page's MDX imports it today: Nextra's
 * components, the docs theme's Bleed, and the project's SectionCards by a relative path.
 */
const IMPORTABLE = [
  { test: (source) => source === 'nextra/components', label: "'nextra/components'", names: ['Callout', 'Cards', 'FileTree', 'Steps', 'Tabs'] },
  { test: (source) => source === 'nextra-theme-docs', label: "'nextra-theme-docs'", names: ['Bleed'] },
  { test: (source) => /^\.\.?\/(?:.*\/)?components\/SectionCards(?:\.tsx)?$/.test(source), label: "'<relative path>/components/SectionCards'", names: ['SectionCards'] },
]

/**
 * The icons Nextra's code blocks show by language (its rehypeIcon plugin imports them from
 * nextra/icons and passes one to `pre` as `icon`). The document holds each as the `<svg>` it draws
 * (`drawIcon`, given by the worker), so the browser needs none of Nextra's icon code: that module
 * is in every page's shared script, the sign-in page's included, with the theme's own icons.
 */
export const ICON_COMPONENTS = [
  'CPPIcon',
  'CsharpIcon',
  'CssIcon',
  'GoIcon',
  'GraphQLIcon',
  'JavaScriptIcon',
  'MarkdownIcon',
  'MdxIcon',
  'MoveIcon',
  'PythonIcon',
  'RustIcon',
  'TerminalIcon',
  'TerraformIcon',
  'TypeScriptIcon',
]

const ALLOWED_IMPORTS = IMPORTABLE.map(({ label, names }) => `{ ${names.join(', ')} } from ${label}`).join(', ')
const COMPONENT_LIST = WRITER_COMPONENTS.join(', ')

// ---------------------------------------------------------------------------------------------
// Plain values: what an attribute's `{…}` may hold.

class NotPlain extends Error {
  constructor(node, what) {
    super(what)
    this.node = node
  }
}

/**
 * The JSON value of an expression that is one (numbers, strings, booleans, null, arrays and
 * objects of those, a template without `${}`), read from its syntax tree: nothing is run.
 */
export function plainValue(node) {
  switch (node.type) {
    case 'Literal':
      if (node.regex || typeof node.bigint === 'string') throw new NotPlain(node, 'a regular expression or a bigint')
      if (typeof node.value === 'number' && !Number.isFinite(node.value)) throw new NotPlain(node, 'a number JSON cannot hold')
      return node.value
    case 'UnaryExpression':
      if ((node.operator === '-' || node.operator === '+') && node.argument.type === 'Literal' && typeof node.argument.value === 'number') {
        return node.operator === '-' ? -node.argument.value : node.argument.value
      }
      throw new NotPlain(node, `the operator \`${node.operator}\``)
    case 'TemplateLiteral':
      if (node.expressions.length > 0) throw new NotPlain(node, 'a template with `${…}`')
      return node.quasis.map((quasi) => quasi.value.cooked).join('')
    case 'ArrayExpression':
      return node.elements.map((element) => {
        if (element === null) throw new NotPlain(node, 'an array with a hole')
        if (element.type === 'SpreadElement') throw new NotPlain(element, 'a spread `...`')
        return plainValue(element)
      })
    case 'ObjectExpression': {
      const object = {}
      for (const property of node.properties) {
        if (property.type !== 'Property' || property.kind !== 'init' || property.method || property.computed) {
          throw new NotPlain(property, property.type === 'SpreadElement' ? 'a spread `...`' : 'a computed key, method or accessor')
        }
        if (property.shorthand) throw new NotPlain(property, `the name \`${property.key.name}\``)
        const key = property.key.type === 'Identifier' ? property.key.name : String(property.key.value)
        // Assigned, it sets the object's prototype: its styles were dropped without a word.
        if (key === '__proto__') throw new NotPlain(property, 'the key `__proto__`')
        object[key] = plainValue(property.value)
      }
      return object
    }
    case 'Identifier':
      throw new NotPlain(node, `the name \`${node.name}\``)
    case 'ArrowFunctionExpression':
    case 'FunctionExpression':
      throw new NotPlain(node, 'a function')
    case 'JSXElement':
    case 'JSXFragment':
      throw new NotPlain(node, 'JSX')
    default:
      throw new NotPlain(node, 'code')
  }
}

// ---------------------------------------------------------------------------------------------
// The refusals, on the page's own nodes.

/** A point of the file from an estree node (columns 0-based there), else the MDX node's start. */
function placeOf(estree, node) {
  if (estree?.loc?.start) return { line: estree.loc.start.line, column: estree.loc.start.column + 1 }
  return node?.position?.start
}

/** Stops the compile at `place` with a message the writer can act on; cached like a parser's. */
function refuse(file, reason, place) {
  const message = file.message(reason, { place, source: 'docs-page', ruleId: 'page-as-data' })
  message.fatal = true
  throw message
}

const isHtmlName = (name) => /^[a-z]/.test(name)

/** The name a component is written with, its import's alias replaced (`T.Tab` → `Tabs.Tab`). */
function canonicalName(name, aliases) {
  const [head, ...rest] = name.split('.')
  return [aliases.get(head) ?? head, ...rest].join('.')
}

function checkImport(file, statement, node, aliases) {
  const source = String(statement.source.value)
  const from = IMPORTABLE.find(({ test }) => test(source))
  const place = placeOf(statement, node)
  const fix = `a page imports only the site's components: ${ALLOWED_IMPORTS}`
  if (!from) refuse(file, `cannot import from '${source}': ${fix}`, place)
  for (const specifier of statement.specifiers) {
    if (specifier.type !== 'ImportSpecifier') {
      refuse(file, `\`import ${specifier.local.name}${specifier.type === 'ImportNamespaceSpecifier' ? ' (as a namespace)' : ''} from '${source}'\` is not a named import: ${fix}`, placeOf(specifier, node) ?? place)
    }
    const imported = specifier.imported.type === 'Identifier' ? specifier.imported.name : String(specifier.imported.value)
    if (!from.names.includes(imported)) refuse(file, `'${source}' gives a page no component \`${imported}\`: ${fix}`, placeOf(specifier, node) ?? place)
    aliases.set(specifier.local.name, imported)
  }
}

/** The place of an attribute of `node`, else the node's start. */
const attributePlace = (attribute, node) => attribute.position?.start ?? node.position.start

/** The attribute's value as the document will hold it: text, true, or the plain value of `{…}`. */
function attributeValue(attribute) {
  if (attribute.value === null || attribute.value === undefined) return true
  if (typeof attribute.value === 'string') return attribute.value
  return plainValue(attribute.value.data.estree.body[0].expression)
}

/**
 * Refuses a tag or component the allowlist does not let through, at the attribute it objects to
 * (./pageSanitizer.mjs); `component` is the component's name as the map knows it, for components.
 */
function checkAllowed(file, node, name, component) {
  const problem = (attributes) => (component ? componentProblem(component, attributes) : htmlTagProblem(name, attributes))
  const tagProblem = problem([])
  if (tagProblem) refuse(file, tagProblem, node.position.start)
  for (const attribute of node.attributes) {
    const attributeProblem = problem([[attribute.name, attributeValue(attribute)]])
    if (attributeProblem) refuse(file, attributeProblem, attributePlace(attribute, node))
  }
  const missing = component ? missingPropProblem(component, node.attributes.map((attribute) => attribute.name)) : requiredProblem(name, node.attributes.map((attribute) => [attribute.name, attributeValue(attribute)]))
  if (missing) refuse(file, missing, node.position.start)
  if (!component) {
    const linkProblem = targetProblem(name, node.attributes.map((attribute) => [attribute.name, attributeValue(attribute)]))
    if (linkProblem) refuse(file, linkProblem, attributePlace(node.attributes.find((attribute) => attribute.name.toLowerCase() === 'target'), node))
  }
}

/**
 * Code-block meta that runs something at build time: ```ts twoslash runs TypeScript on the
 * writer's code (its compiler, with the page's imports and `// @filename` files). Nextra's trigger
 * is the word `twoslash` in the meta; the worker loads no twoslash transformer at all.
 */
const TWOSLASH = /\btwoslash\b/

/** The most lines and matches a block's ranges may name, all its ranges together. */
const MAX_RANGE_NUMBERS = 10_000
/** A range as a writer writes one: whole numbers, each range ascending (`1-3,5`). */
const PLAIN_RANGES = /^\s*\d+(?:\s*-\s*\d+)?(?:\s*,\s*\d+(?:\s*-\s*\d+)?)*\s*$/

/**
 * The texts rehype-pretty-code hands parse-numeric-range, which makes a list of every number they
 * name (a span of billions ended the build's process, V8's array limit, naming no page): found with
 * its own expressions on the meta Nextra gives it (without `filename="…"`).
 */
function rangeTexts(meta) {
  const texts = [...meta.matchAll(/\B\{(.*?)\}\B/g)].map((match) => match[1])
  for (const match of meta.matchAll(/(["/])(.*?)\1(\S*)/g)) if (match[3]) texts.push(match[3].split('#')[0])
  for (const segment of meta.match(/\{[^}]+\}#[a-zA-Z0-9]+/g) ?? []) texts.push(segment.split('#')[0].match(/\{(.*?)\}/)?.[1] ?? '')
  return texts.filter(Boolean)
}

function rangesProblem(meta) {
  let numbers = 0
  for (const text of rangeTexts(meta)) {
    if (!PLAIN_RANGES.test(text)) return `the code block's range {${text}} is not whole numbers and ascending ranges, written {1-3,5} (or /text/1-2)`
    for (const part of text.split(',')) {
      const [from, to = from] = part.split('-').map(Number)
      if (to < from) return `the code block's range ${part.trim()} runs backwards: write it ${to}-${from}`
      numbers += to - from + 1
    }
    if (numbers > MAX_RANGE_NUMBERS) return `the code block's ranges name more than ${MAX_RANGE_NUMBERS} lines or matches: highlight the lines the block has`
  }
  return null
}

function codeMetaProblem(node) {
  const meta = node.data?.meta
  if (typeof meta === 'string' && TWOSLASH.test(meta)) return '`twoslash` code blocks run the TypeScript compiler on the page\'s code at build time, which pages cannot do: write a plain ```ts block'
  if (typeof meta === 'string') {
    const given = meta.replace(/filename="([^"]+)"/, '')
    // rehype-pretty-code draws a title before the block, which Nextra's code plugin takes for the block and fails on.
    if (/title="([^"]*)"/.test(given)) return 'a code block\'s title is written filename="…" in Nextra (title="…" breaks its compile)'
    const ranges = rangesProblem(given)
    if (ranges) return ranges
  }
  // Nextra's plugins look a block's language up in plain objects: `constructor` finds a function there, and the compile breaks.
  const language = node.properties?.className?.find?.((name) => typeof name === 'string' && name.startsWith('language-'))?.slice('language-'.length)
  if (language !== undefined && language in Object.prototype) return `\`\`\`${language} names no language (every JavaScript object has a \`${language}\`, which the highlighter would take for one): write \`\`\`text, or the code's language`
  return null
}

function checkAttributes(file, node, name) {
  for (const attribute of node.attributes) {
    if (attribute.type === 'mdxJsxExpressionAttribute') {
      refuse(file, `\`<${name} {…}>\`: a spread of attributes is code, which pages cannot hold; write each attribute as name="text", name={number}, name={true}, or a list or object of those`, placeOf(attribute.data?.estree?.body?.[0], attribute) ?? node.position.start)
    }
    const value = attribute.value
    if (value === null || value === undefined || typeof value === 'string') continue
    const expression = value.data?.estree?.body?.[0]?.expression
    const place = placeOf(expression, attribute) ?? node.position.start
    if (!expression) refuse(file, `\`<${name} ${attribute.name}={}>\`: the attribute has no value; write ${attribute.name}="text", or leave out \`={}\` for true`, place)
    try {
      plainValue(expression)
    } catch (error) {
      if (!(error instanceof NotPlain)) throw error
      refuse(file, `\`<${name} ${attribute.name}={…}>\` holds ${error.message}, which a page cannot compute: attribute values are text ("…"), numbers, true/false, null, or lists and objects of those, written out`, placeOf(error.node, attribute) ?? place)
    }
  }
}

function walk(node, visit, ancestors = []) {
  visit(node, ancestors)
  if (Array.isArray(node.children)) for (const child of node.children) walk(child, visit, [...ancestors, node])
}

/** A component that renders only inside another: a `Tabs.Tab` outside `Tabs` failed the render of the page with no file or line. */
const PARENT_OF = { 'Tabs.Tab': 'Tabs' }

/**
 * The first rehype plugin: refuses what a page written as data cannot hold. Nodes that Nextra's
 * own plugins add (front matter and title exports, a code fence's imports) have no place in the
 * file and are left to the capture, which knows them.
 */
export function rehypeCheckPage() {
  return (tree, file) => {
    const aliases = new Map()
    let lastHeading = null
    // Nextra titles a page with no title in its front matter by its first h1, however it is written
    // (`#`, underlined over lines, in a quote, with character references): that title, as Nextra
    // made it, is held to a title's rules at the heading.
    let titleChecked = Boolean(file.data.frontMatter?.title)
    walk(tree, (node, ancestors) => {
      if (!node.position) return
      if (!titleChecked && node.type === 'element' && node.tagName === 'h1') {
        titleChecked = true
        const problem = textFieldProblem('title', file.data.title)
        if (problem) refuse(file, `the page has no title: in its front matter, so this first heading is its title (the tab, search, the llms files), and it ${problem}`, node.position.start)
      }
      if (node.type === 'mdxjsEsm') {
        for (const statement of node.data?.estree?.body ?? []) {
          if (statement.type === 'ImportDeclaration') checkImport(file, statement, node, aliases)
          else refuse(file, '`export` is code, which pages cannot hold: set page data in the front matter (the `---` block at the top)', placeOf(statement, node))
        }
      } else if (node.type === 'mdxFlowExpression' || node.type === 'mdxTextExpression') {
        const body = node.data?.estree?.body ?? []
        if (body.length > 0) {
          refuse(file, '`{…}` is an expression, which pages cannot compute: write its result as text, write a literal brace as \\{ or \\}, or make it a comment {/* … */}', node.position.start)
        }
      } else if (node.type === 'mdxJsxFlowElement' || node.type === 'mdxJsxTextElement') {
        const name = node.name
        if (name !== null && !isHtmlName(name) && !WRITER_COMPONENTS.includes(canonicalName(name, aliases))) {
          refuse(file, `\`<${name}>\` is not a component pages can use: use an HTML tag or one of ${COMPONENT_LIST}`, node.position.start)
        }
        checkAttributes(file, node, name ?? '')
        if (name !== null) checkAllowed(file, node, name, isHtmlName(name) ? null : canonicalName(name, aliases))
        const parent = name === null ? undefined : PARENT_OF[canonicalName(name, aliases)]
        if (parent && !ancestors.some((above) => (above.type === 'mdxJsxFlowElement' || above.type === 'mdxJsxTextElement') && above.name !== null && canonicalName(above.name, aliases) === parent)) {
          refuse(file, `\`<${name}>\` is drawn only inside \`<${parent}>\`: put it in one (<${parent} items={[…]}>…</${parent}>)`, node.position.start)
        }
      } else if (node.type === 'element') {
        // Markdown's own elements (a link, an image): their tags come from the grammar, their URLs from the writer.
        const attributes = Object.entries(node.properties ?? {})
        const problem = attributesProblem(node.tagName, attributes) ?? targetProblem(node.tagName, attributes) ?? (node.tagName === 'code' ? codeMetaProblem(node) : null)
        if (problem) refuse(file, problem, node.position.start)
      } else if (node.type === 'raw') {
        refuse(file, 'raw HTML cannot be checked, so pages cannot hold it: write the page as MDX, with HTML written as JSX tags', node.position.start)
      }
      // What every reader needs, once the node is known to be safe: alt text, and headings without
      // skipped levels (./readerChecks.mjs).
      const level = headingLevel(node)
      if (level !== null) {
        const problem = headingProblem(level, lastHeading)
        if (problem) refuse(file, problem, node.position.start)
        lastHeading = level
      }
      const alt = altProblem(node, attributeValue)
      if (alt) refuse(file, alt, node.position.start)
    })
    file.data.pageAliases = aliases
  }
}

// ---------------------------------------------------------------------------------------------
// Ids and names: the clobber prefix.

/**
 * The second rehype plugin, right after the check: writes the clobber prefix (`user-content-`) on
 * every id, name and ARIA reference of the page's HTML (./pageSanitizer.mjs `withClobberPrefix`),
 * so no element of a page takes the name of one of the site's (`__next`, `__NEXT_DATA__`), which
 * the browser and Next would read in its place. Heading ids are the writer's too (their text, or
 * `[#id]`), so they are prefixed like the rest, and the table of contents with them: Nextra's
 * list (`file.data.toc`, from remark-headings) gets the same ids before its rehype-extract-toc-content
 * matches headings by id, so the TOC, the headings' anchors and `useTOC` agree. A link to a
 * heading written without the prefix (`#intro`, an old deep link) still reaches it: the docs route
 * maps such a hash to its prefixed id (lib/render/useUnprefixedHash.ts).
 *
 * Before Nextra's own rehype plugins, and so in the compiled module Nextra would have run as well
 * as in the document: what renders is what the equivalence tests compare.
 */
export function rehypePrefixIds() {
  return (tree, file) => {
    walk(tree, (node) => {
      if (node.type === 'element') {
        for (const property of Object.keys(node.properties ?? {})) {
          if (isClobbered(property) && node.properties[property] !== null && node.properties[property] !== undefined) node.properties[property] = withClobberPrefix(node.properties[property])
        }
      } else if ((node.type === 'mdxJsxFlowElement' || node.type === 'mdxJsxTextElement') && node.name && isHtmlName(node.name)) {
        for (const attribute of node.attributes) {
          if (attribute.type !== 'mdxJsxAttribute' || !isClobbered(attribute.name) || attribute.value === null || attribute.value === undefined) continue
          // An id written as `{"…"}` is a plain value (the check refused anything else): written out as text, prefixed.
          attribute.value = withClobberPrefix(typeof attribute.value === 'string' ? attribute.value : plainValue(attribute.value.data.estree.body[0].expression))
        }
      }
    })
    if (Array.isArray(file.data.toc)) for (const entry of file.data.toc) if (entry && typeof entry === 'object' && typeof entry.id === 'string') entry.id = withClobberPrefix(entry.id)
  }
}

// ---------------------------------------------------------------------------------------------
// The capture: the compiled program's JSX → the tree.

/** The first place a JSX node or one of its parents has (nodes MDX makes often have none). */
function fail(file, reason, node) {
  refuse(file, reason, placeOf(node) ?? undefined)
}

function jsxName(name) {
  if (name.type === 'JSXIdentifier') return name.name
  if (name.type === 'JSXMemberExpression') return `${jsxName(name.object)}.${name.property.name}`
  return `${name.namespace.name}:${name.name.name}`
}

/**
 * Converts JSX children, in order; a fragment's children join their parent's (the same HTML),
 * and comments (`{/* … *\/}`, an empty expression) are dropped, as React drops them.
 */
function convertChildren(children, state, out = []) {
  for (const child of children) {
    if (child.type === 'JSXText') out.push({ type: 'text', value: child.value })
    else if (child.type === 'JSXExpressionContainer') {
      const expression = child.expression
      if (expression.type === 'JSXEmptyExpression') continue
      if (expression.type === 'Literal' && typeof expression.value === 'string') out.push({ type: 'text', value: expression.value })
      else if (expression.type === 'JSXElement' || expression.type === 'JSXFragment') convertChildren([expression], state, out)
      else fail(state.file, 'this part of the page is an expression, which pages cannot compute: write its result as text', expression)
    } else if (child.type === 'JSXFragment') convertChildren(child.children, state, out)
    else if (child.type === 'JSXElement') out.push(convertElement(child, state))
    else fail(state.file, `unexpected ${child.type} in the compiled page`, child)
  }
  return out
}

function convertElement(element, state) {
  const opening = element.openingElement
  const written = jsxName(opening.name)
  /** @type {import('../../lib/render/pageDocument').TreeElement} */
  const result = { type: 'element', tagName: '', properties: {}, children: [] }
  if (written.startsWith('_components.')) {
    // An element of the Markdown (a paragraph, a heading, a code block): the theme's component for
    // its tag renders it, as `_components.p` does today.
    result.tagName = written.slice('_components.'.length)
    // A code block's matched word (`/word/`): the highlighter marks it with a <mark>, not a tag of
    // GitHub's list, which the renderer draws; the theme styles it by its attribute, on any tag.
    if (result.tagName === 'mark' && opening.attributes.some((attribute) => attribute.type === 'JSXAttribute' && jsxName(attribute.name) === 'data-highlighted-chars')) result.tagName = 'span'
    const unlisted = unlistedTagProblem(result.tagName)
    if (unlisted) fail(state.file, unlisted, element)
  } else if (isHtmlName(written) && !written.includes('.')) {
    // A tag written as JSX: MDX renders it as the plain tag, whatever the theme maps it to.
    result.tagName = written
    result.raw = true
  } else {
    const name = canonicalName(written, state.aliases)
    if (!WRITER_COMPONENTS.includes(name)) {
      const what = state.generated.get(written.split('.')[0])
      fail(state.file, what ? `${what} is not supported on pages rendered as data` : `\`<${written}>\` is not a component pages can use: use an HTML tag or one of ${COMPONENT_LIST}`, element)
    }
    result.tagName = name
  }
  for (const attribute of opening.attributes) {
    if (attribute.type === 'JSXSpreadAttribute') fail(state.file, `\`<${written} {...}>\`: a spread of attributes is code, which pages cannot hold`, attribute)
    const name = jsxName(attribute.name)
    const value = attribute.value
    if (value === null) result.properties[name] = true
    else if (value.type === 'Literal') result.properties[name] = value.value
    else if (value.type === 'JSXExpressionContainer' && value.expression.type === 'Identifier' && state.icons.has(value.expression.name)) {
      // Nextra's code-block icon: the component itself is the value, as the element it draws.
      result.componentProps = { ...result.componentProps, [name]: state.drawIcon(state.icons.get(value.expression.name)) }
    } else if (value.type === 'JSXExpressionContainer') {
      try {
        result.properties[name] = plainValue(value.expression)
      } catch (error) {
        if (!(error instanceof NotPlain)) throw error
        fail(state.file, `\`<${written} ${name}={…}>\` holds ${error.message}, which a page cannot compute`, error.node)
      }
    } else fail(state.file, `\`<${written} ${name}>\`: unexpected attribute value`, attribute)
  }
  // The allowlist again, on what the document will hold (./pageSanitizer.mjs): the check above saw
  // the page as written; this sees every element, a plugin's included.
  const attributes = Object.entries(result.properties)
  const isComponent = /^[A-Z]/.test(result.tagName)
  const problem = result.raw ? (htmlTagProblem(result.tagName, attributes) ?? requiredProblem(result.tagName, attributes)) : isComponent ? (componentProblem(result.tagName, attributes) ?? missingPropProblem(result.tagName, Object.keys(result.properties))) : attributesProblem(result.tagName, attributes)
  if (problem) fail(state.file, problem, element)
  const linkProblem = isComponent ? null : targetProblem(result.tagName, attributes)
  if (linkProblem) fail(state.file, linkProblem, element)
  // Every id and name of an HTML element carries the prefix (rehypePrefixIds wrote it; this holds
  // for whatever a later plugin made too). A component's `name` is a prop (FileTree.File), not HTML's.
  if (!isComponent) for (const [name, value] of attributes) if (isClobbered(name) && value !== null && value !== true) result.properties[name] = withClobberPrefix(value)
  result.children = convertChildren(element.children, state)
  // Nextra empties the headings its table of contents lists and renders each with the entry's
  // id and value (its recmaRewriteJsx), matched by id in the order of its own list.
  const heading = /^h[2-6]$/.test(result.tagName) && !result.raw && typeof result.properties.id === 'string' ? state.headingIndex(result.properties.id) : -1
  if (heading >= 0 && state.toc[heading]) {
    result.properties.id = state.toc[heading].id
    result.children = state.toc[heading].value
  }
  return result
}

function returnedBy(fn) {
  return fn?.body?.body?.find((statement) => statement.type === 'ReturnStatement')?.argument ?? null
}

/**
 * The first recma plugin: stores the page's tree and table of contents in `file.data.pageTree`
 * and `file.data.pageToc`. It reads, and never changes, the program Nextra goes on compiling.
 * `drawIcon(name)` gives the element a code-block icon of ICON_COMPONENTS draws.
 */
export function recmaCapturePage({ drawIcon }) {
  return (program, file) => {
    const aliases = file.data.pageAliases ?? new Map()
    /** Local names Nextra's plugins import: the code-block icons, and what other fences would need. */
    const icons = new Map()
    const generated = new Map()
    for (const statement of program.body) {
      if (statement.type !== 'ImportDeclaration') continue
      const source = String(statement.source.value)
      for (const specifier of statement.specifiers) {
        const imported = specifier.imported?.name ?? specifier.local.name
        if (source === 'nextra/icons' && ICON_COMPONENTS.includes(imported)) icons.set(specifier.local.name, imported)
        else if (source.startsWith('@theguild/remark-mermaid')) generated.set(specifier.local.name, 'a ```mermaid diagram')
        else if (specifier.local.name.startsWith('$')) generated.set(specifier.local.name, 'an `npm2yarn` code block')
      }
    }
    const content = program.body.find((node) => node.type === 'FunctionDeclaration' && node.id?.name === '_createMdxContent')
    const useTOC = program.body.find((node) => node.type === 'ExportNamedDeclaration' && node.declaration?.type === 'FunctionDeclaration' && node.declaration.id.name === 'useTOC')
    const state = { file, aliases, icons, generated, drawIcon, toc: [], headingIndex: () => -1 }
    const entries = returnedBy(useTOC?.declaration)?.elements ?? []
    state.toc = entries.map((entry) => {
      if (entry.type !== 'ObjectExpression') fail(file, 'a table of contents entry from another file is not supported', entry)
      const field = (key) => entry.properties.find((property) => property.key.name === key)?.value
      const value = field('value')
      return {
        depth: plainValue(field('depth')),
        id: withClobberPrefix(plainValue(field('id'))),
        value: value.type === 'Literal' ? [{ type: 'text', value: String(value.value) }] : convertChildren([value], state),
      }
    })
    // The order Nextra matches headings in: its list of the headings' HTML nodes (rehype-extract-toc-content).
    const hastToc = Array.isArray(file.data.toc) ? file.data.toc : []
    state.headingIndex = (id) => hastToc.findIndex((node) => typeof node === 'object' && node.properties?.id === id)
    const returned = returnedBy(content)
    file.data.pageTree = returned ? convertChildren([returned], state) : []
    file.data.pageToc = state.toc
  }
}
