/**
 * One compile worker (a worker thread of ./compilePages.ts). It compiles pages with Nextra's own
 * compileMdx and the options Nextra's loader gives it in `next build` (node_modules/nextra/dist/
 * server/loader.js, with this site's options from next.config.ts), so a page fails here exactly
 * when, and with the message that, it would fail inside the bundler.
 *
 * Plain ESM: @mdx-js/mdx, Nextra and Shiki are ES modules, which neither Jest nor a CommonJS
 * caller can load. The site's highlighter (pipeline/onDemandHighlighter.ts) comes as an ES module
 * that the pool transpiles from its TypeScript (workerData.highlighter).
 *
 * Messages in: { id, file (absolute), route, source } (the bytes the cache key was made from). Out: { id, ok: true, output } or
 * { id, ok: false, error: { reason, line?, column?, deterministic } }.
 */
import { readFileSync } from 'node:fs'
import { parentPort, workerData } from 'node:worker_threads'

const { compileMdx } = await import('nextra/compile')
const { transformerTwoslash } = await import('@shikijs/twoslash')
// Nextra's twoslash renderer is not among its package's exports; the loader imports it by path.
const { twoslashRenderer } = await import(new URL('./rehype-plugins/twoslash.js', import.meta.resolve('nextra/compile')).href)
const { onDemandHighlighter } = await import(workerData.highlighter)

/**
 * The options next.config.ts gives `nextra({...})` that reach the compiler (one file for both:
 * nextraPageOptions.json), merged as the loader merges them (Nextra's DEFAULT_CONFIG, then the
 * site's). That file and next.config.ts are part of the cache's fingerprint.
 */
const SITE = {
  ...JSON.parse(readFileSync(new URL('./nextraPageOptions.json', import.meta.url), 'utf8')),
  codeHighlight: true,
  mdxOptions: { rehypePrettyCodeOptions: { getHighlighter: onDemandHighlighter } },
}

/** The loader's call (loader.js: `compileMdx(source, { mdxOptions: { ...mdxOptions, jsx: true, … } })`). */
function loaderOptions(file, route) {
  return {
    mdxOptions: {
      ...SITE.mdxOptions,
      jsx: true,
      outputFormat: 'program',
      format: 'detect',
      rehypePrettyCodeOptions: {
        ...SITE.mdxOptions.rehypePrettyCodeOptions,
        transformers: [transformerTwoslash({ renderer: twoslashRenderer(), explicitTrigger: true })],
      },
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
  return { reason: reason + cause, line, column, deterministic }
}

// compileMdx logs "[nextra] Error compiling <file>." before rethrowing; the error is reported by
// the pool, once, in the content check's words.
console.error = () => {}

parentPort.on('message', async ({ id, file, route, source }) => {
  try {
    const output = await compileMdx(source, loaderOptions(file, route))
    parentPort.postMessage({ id, ok: true, output })
  } catch (error) {
    parentPort.postMessage({ id, ok: false, error: describe(error) })
  }
})
parentPort.postMessage({ ready: true })
