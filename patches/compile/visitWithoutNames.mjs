/**
 * A patch to the MDX compile (pipeline/compile/compileWorker.mjs), applied as the worker loads its
 * modules: a Node module hook (`load`) that rewrites one statement of unist-util-visit-parents, the
 * tree walker of every remark, rehype and retext plugin.
 *
 * The walker names each visit function after the node it visits (`node (paragraph)`), for stack
 * traces, with `Object.defineProperty` on a new function for every node of every walk. The
 * compile walks each page's trees dozens of times (remark-smartypants alone walks every word), so
 * those names were a sixth of the compile (docs/benchmarks.md, "Props once, packed; a faster
 * compile; a warm dev restart"). Nothing reads the names.
 *
 * Measured by: `npm run bench build-vs-docusaurus-3000` (the content step), and the compile's
 * time with and without the names, taken by hand. Tested by __tests__/patches/compile.test.ts; the worker refuses to compile when
 * the patch did not apply, and the hook throws when an upgrade changed the statement.
 */
import replaceExactly from '../replaceExactly.cjs'

/** The walker's module, as its package ships it (not in its exports: it is loaded by its URL). */
export const WALKER_FILE = /\/unist-util-visit-parents\/lib\/index\.js$/

const NAMING = `      Object.defineProperty(visit, 'name', {
        value:
          'node (' + color(node.type + (name ? '<' + name + '>' : '')) + ')'
      })`

/** What the worker checks to know the patch applied. */
export const MARKER = 'export const visitFunctionsUnnamed = true'

/** The walker's source without the naming, with the marker. */
export function withoutNames(source, file) {
  if (source.includes(MARKER)) return source
  const patched = replaceExactly(source, NAMING, '      // Unnamed: patches/compile/visitWithoutNames.mjs', 1, { loader: 'visitWithoutNames', file, dependency: 'unist-util-visit-parents' })
  return `${patched}\n${MARKER}\n`
}

/** Node's module hook. */
export async function load(url, context, nextLoad) {
  const loaded = await nextLoad(url, context)
  if (!WALKER_FILE.test(url)) return loaded
  return { ...loaded, source: withoutNames(String(loaded.source), url) }
}
