/**
 * One compile worker (a worker thread of ./compilePages.ts), the one place a page's MDX is
 * compiled. It calls Nextra's own compileMdx with the options Nextra's loader would give it
 * (node_modules/nextra/dist/server/loader.js), without its twoslash transformer, and this site's
 * (./nextraPageOptions.json), so pages compile, and fail, as they did inside the bundler when
 * Nextra's loader compiled them there.
 *
 * Plain ESM: @mdx-js/mdx, Nextra and Shiki are ES modules, which neither Jest nor a CommonJS
 * caller can load. The site's highlighter (pipeline/onDemandHighlighter.ts) comes as an ES module
 * that the pool transpiles from its TypeScript (workerData.highlighter).
 *
 * The output is not Nextra's JS module but the page as data (lib/render/pageDocument.ts): two
 * plugins of ./toPageDocument.mjs refuse what data cannot hold (the first rehype plugin), prefix its
 * ids (the second), and read the compiled page's elements (the first recma plugin, after every
 * rehype plugin). Everything else (heading slugs, highlighting, copy buttons, title, front matter,
 * search data) is Nextra's own.
 *
 * Messages in: { id, file (absolute), route, source (the bytes the cache key was made from), frontMatter (the content source's parse of it), bodyStart (where its body starts, after the front matter), lastHighlights (the coloured code blocks of the page's last cache entry) }. Out: { id, ok: true, output, highlights, hidden (./hiddenRanges.mjs, in the body, when any) } or
 * { id, ok: false, error: { reason, line?, column?, deterministic } }. With `withModule: true` (the
 * equivalence tests, which render both), the success also carries Nextra's JS module as `module`.
 */
import { readFileSync, readlinkSync } from 'node:fs'
import { setPriority } from 'node:os'
import { parentPort, workerData } from 'node:worker_threads'
import { loadCompiler } from './compilerBundle.mjs'
import { withClobberPrefix } from './pageSanitizer.mjs'
import { recmaCapturePage, rehypeCheckPage, rehypePrefixIds } from './toPageDocument.mjs'
import { inBody, remarkHiddenRanges } from './hiddenRanges.mjs'
import { withSitePaths } from './sitePaths.mjs'

/** The attributes of a tag that hold a URL (lib/render/codeInPages.json). */
const URL_ATTRIBUTES = new Set(JSON.parse(readFileSync(new URL('../../lib/render/codeInPages.json', import.meta.url), 'utf8')).urlAttributes)

// A worker warmed ahead for `npm run dev` (./compileWorkers.ts) takes only the CPU the rest leaves:
// it loads while Next starts and the first page opens, and compiles the writer's edits after.
// Linux gives a thread its own priority, by the id /proc names; elsewhere it runs at the process's.
if (workerData.background) {
  try {
    setPriority(Number(readlinkSync('/proc/thread-self').split('/').pop()), 19)
  } catch {
    // No /proc: the process's priority.
  }
}

// Nextra's compiler as one module, its tree walker patched (./compilerBundle.mjs).
const { compileMdx } = await loadCompiler(workerData.compiler.dir, workerData.compiler.key, workerData.compiler.root)
const { onDemandHighlighter } = await import(workerData.highlighter)
const nextraIcons = await import('nextra/icons')

/**
 * What a React element of plain tags is as the document's tree. Nextra's icons are plain `<svg>`
 * elements with their defaults (`(props) => jsx('svg', { viewBox, ...props, children })`).
 */
function elementTree(node) {
  if (node === null || node === undefined || typeof node === 'boolean') return []
  if (typeof node === 'string' || typeof node === 'number') return [{ type: 'text', value: String(node) }]
  if (Array.isArray(node)) return node.flatMap(elementTree)
  if (typeof node.type !== 'string') throw new Error(`an icon of nextra/icons holds a component (${node.type?.name ?? 'unknown'}); it can no longer be drawn as plain elements`)
  const { children, ...properties } = node.props
  return [{ type: 'element', tagName: node.type, properties, children: elementTree(children), raw: true }]
}

/** The `<svg>` a code-block icon of nextra/icons draws when given no props. */
function drawIcon(name) {
  const [svg] = elementTree(nextraIcons[name]({}))
  if (!svg || svg.type !== 'element') throw new Error(`nextra/icons ${name} draws no element`)
  return svg
}

/**
 * The site's compiler options (./nextraPageOptions.json), merged as Nextra's loader merges them
 * (its DEFAULT_CONFIG, then the site's):
 * - staticImage false: images stay plain <img> under public/docs/<section>/, so each is served
 *   under its section's path and rule;
 * - search without code blocks: each page's text by heading feeds pipeline/steps/
 *   buildSearchIndexes.ts, which writes one Pagefind index per audience;
 * - defaultShowCopyCode: every code block has a copy button.
 * That file is part of the cache's fingerprint (./fingerprint.ts).
 */
const SITE = {
  ...JSON.parse(readFileSync(new URL('./nextraPageOptions.json', import.meta.url), 'utf8')),
  codeHighlight: true,
  mdxOptions: { rehypePrettyCodeOptions: { getHighlighter: (options) => onDemandHighlighter(options, pageBlocks) } },
}

/**
 * The loader's call (loader.js: `compileMdx(source, { mdxOptions: { ...mdxOptions, jsx: true, … } })`),
 * but for one thing: Nextra's loader gives rehype-pretty-code a twoslash transformer, which runs
 * the TypeScript compiler on the code of a ```ts twoslash block. A page is written by a writer, and
 * nothing of it runs, at build time either: there is no transformer, and the check refuses the
 * block (./toPageDocument.mjs) rather than show it as plain code the writer did not mean.
 */
function loaderOptions(file, route) {
  return {
    mdxOptions: {
      ...SITE.mdxOptions,
      // Added before Nextra's own plugins, which compileMdx appends: the check sees the page as
      // written, and the capture sees the program after every rehype plugin, before Nextra's
      // last rewrite of it.
      remarkPlugins: [remarkReportHidden, remarkSourceFrontMatter],
      rehypePlugins: [rehypeCheckPage, rehypePrefixIds],
      recmaPlugins: [recmaReportPage],
      jsx: true,
      outputFormat: 'program',
      format: 'detect',
      rehypePrettyCodeOptions: SITE.mdxOptions.rehypePrettyCodeOptions,
    },
    defaultShowCopyCode: SITE.defaultShowCopyCode,
    staticImage: SITE.staticImage,
    search: SITE.search,
    codeHighlight: SITE.codeHighlight,
    route,
    locale: '',
    filePath: file,
    useCachedCompiler: true,
    isPageImport: true,
  }
}

/**
 * Each page's front matter as the content source parsed it (pipeline/content/frontMatter.ts), by
 * file: the one parse. Nextra's compile would parse the YAML block again; the first remark plugin
 * puts the source's data in its place, as the `export const frontMatter` Nextra's own plugin makes
 * of it, so Nextra's title and front matter come from the same result.
 */
const frontMatters = new Map()

/** A JSON-like value (what YAML front matter parses to) as an ECMAScript expression. */
function valueToEstree(value) {
  if (Array.isArray(value)) return { type: 'ArrayExpression', elements: value.map(valueToEstree) }
  if (value !== null && typeof value === 'object') {
    return { type: 'ObjectExpression', properties: Object.entries(value).map(([key, each]) => ({ type: 'Property', kind: 'init', method: false, shorthand: false, computed: false, key: { type: 'Literal', value: key }, value: valueToEstree(each) })) }
  }
  return { type: 'Literal', value }
}

function remarkSourceFrontMatter() {
  return (tree, vfile) => {
    if (!frontMatters.has(vfile.path)) return
    const at = tree.children.findIndex((node) => node.type === 'yaml')
    if (at === -1) return
    const declaration = { type: 'VariableDeclaration', kind: 'const', declarations: [{ type: 'VariableDeclarator', id: { type: 'Identifier', name: 'frontMatter' }, init: valueToEstree(frontMatters.get(vfile.path)) }] }
    tree.children[at] = { type: 'mdxjsEsm', value: '', data: { estree: { type: 'Program', sourceType: 'module', body: [{ type: 'ExportNamedDeclaration', specifiers: [], source: null, declaration }] } } }
  }
}

/** What of each file no reader sees (./hiddenRanges.mjs), by path, as `captured` below. */
const hiddenRanges = new Map()
const remarkReportHidden = remarkHiddenRanges((file, ranges) => hiddenRanges.set(file, ranges))

/** `(3:1-3:6)` at the end of some parsers' reasons, when the error itself carries no place. */
const PLACE_IN_REASON = /\((\d+):(\d+)(?:-\d+:\d+)?\)/

/** What the writer needs of a compile error: the compiler's reason and where it points. */
function describe(error) {
  const reason = String(error?.reason ?? error?.message ?? error)
  const cause = error?.cause instanceof Error && error.cause.message && !reason.includes(error.cause.message) ? `: ${error.cause.message}` : ''
  let line = typeof error?.line === 'number' ? error.line : undefined
  let column = typeof error?.column === 'number' ? error.column : undefined
  if (line === undefined) {
    const match = PLACE_IN_REASON.exec(reason)
    if (match) [line, column] = [Number(match[1]), Number(match[2])]
  }
  // A parser's message (a VFileMessage, with its source) is the same for the same input and may be
  // cached; anything else (a plugin that threw, out of memory) is compiled again next time.
  const deterministic = error?.name === 'VFileMessage' || typeof error?.source === 'string'
  // A page refused as data (./toPageDocument.mjs refuse), not MDX that does not parse: the fix is the message's own.
  const refused = error?.ruleId === 'page-as-data' || undefined
  return { reason: reason + cause, line, column, deterministic, ...(refused ? { refused } : {}) }
}

// compileMdx logs "[nextra] Error compiling <file>." before rethrowing; the error is reported by
// the pool, once, in the content check's words.
console.error = () => {}

/**
 * What ./toPageDocument.mjs found in each file, by path. compileMdx returns only its own fields, and
 * keeps one processor for every page (useCachedCompiler), so the plugin reports through this map
 * rather than through a closure of one call.
 */
const captured = new Map()
function recmaReportPage() {
  const capture = recmaCapturePage({ drawIcon })
  return (program, vfile) => {
    capture(program, vfile)
    captured.set(vfile.path, { tree: vfile.data.pageTree, toc: vfile.data.pageToc })
  }
}

/**
 * Nextra's search data (`id#Heading` → text, made in the remark stage, before the ids are
 * prefixed) with the ids the headings have, so a search result links to its heading's own id.
 */
function searchDataWithIds(data) {
  return Object.fromEntries(Object.entries(data).map(([key, text]) => {
    const at = key.indexOf('#')
    return [at > 0 ? `${withClobberPrefix(key.slice(0, at))}${key.slice(at)}` : key, text]
  }))
}

/**
 * The code blocks of the page being compiled, coloured (pipeline/onDemandHighlighter.ts): those its
 * last compile coloured, taken from its cache entry (`highlights`), and those of this compile,
 * which its new entry keeps. The worker compiles one page at a time.
 */
const pageBlocks = {
  salt: workerData.compiler.key,
  last: new Map(),
  made: {},
  get(key) {
    return this.last.get(key)
  },
  set(key, html) {
    this.made[key] = html
  },
}

/** Nextra's output as the PageDocument the browser renders, and Nextra's JS module. */
async function compilePage(file, filePath, route, source, frontMatter, bodyStart = 0) {
  captured.delete(file)
  hiddenRanges.delete(file)
  if (frontMatter) frontMatters.set(file, frontMatter)
  const compiled = await compileMdx(source, loaderOptions(file, route)).finally(() => frontMatters.delete(file))
  const page = captured.get(file)
  const hidden = inBody(hiddenRanges.get(file) ?? [], bodyStart)
  captured.delete(file)
  hiddenRanges.delete(file)
  if (!page) throw new Error(`the page's tree was not captured for ${filePath}`)
  /** @type {import('../../lib/render/pageDocument').PageDocument} */
  const doc = {
    route,
    filePath,
    title: compiled.title ?? '',
    frontMatter: compiled.frontMatter ?? {},
    ...(compiled.hasJsxInH1 && { hasJsxInH1: true }),
    tree: withSitePaths(page.tree, route, URL_ATTRIBUTES),
    toc: page.toc.map((entry) => ({ ...entry, value: withSitePaths(entry.value, route, URL_ATTRIBUTES) })),
    ...(compiled.structurizedData && { structurizedData: searchDataWithIds(compiled.structurizedData) }),
  }
  // Front matter is YAML: a date becomes its ISO text here, as JSON makes of it.
  return { doc: JSON.parse(JSON.stringify(doc)), module: compiled.result, hidden }
}

parentPort.on('message', async ({ id, file, filePath, route, source, frontMatter, bodyStart, lastHighlights, withModule }) => {
  // The blocks the page's last cache entry kept, as the build's thread read and checked it.
  pageBlocks.last = new Map(Object.entries(lastHighlights ?? {}))
  pageBlocks.made = {}
  try {
    const { doc, module, hidden } = await compilePage(file, filePath, route, source, frontMatter, bodyStart)
    parentPort.postMessage({ id, ok: true, output: doc, highlights: pageBlocks.made, ...(hidden.length > 0 && { hidden }), ...(withModule && { module }) })
  } catch (error) {
    parentPort.postMessage({ id, ok: false, error: describe(error) })
  }
})
parentPort.postMessage({ ready: true })
