/**
 * A patch to the MDX compile, applied as the compiler is bundled (pipeline/compile/compilerBundle.mjs):
 * it rewrites one statement of unist-util-visit-parents, the tree walker of every remark, rehype
 * and retext plugin.
 *
 * The walker names each visit function after the node it visits (`node (paragraph)`), for stack
 * traces, with `Object.defineProperty` on a new function for every node of every walk. The
 * compile walks each page's trees dozens of times (remark-smartypants alone walks every word), so
 * those names were a sixth of the compile (docs/benchmarks.md, "Props once, packed; a faster
 * compile; a warm dev restart"). Nothing reads the names.
 *
 * Measured by: `npm run bench build-vs-docusaurus-3000` (the content step), and the compile's
 * time with and without the names, taken by hand. Tested by __tests__/patches/compile.test.ts; the bundle fails when
 * the patch applied to no walker, and the patch throws when an upgrade changed the statement.
 */
import replaceExactly from '../replaceExactly.cjs'

/** The walker's module, as its package ships it: the file the bundle patches, wherever it is installed. */
const WALKER = 'node_modules/unist-util-visit-parents/lib/index.js'

/** Its path, as the bundler's filter (a regular expression) meets it. */
export const WALKER_FILE = new RegExp(`/${WALKER.replace(/[./]/g, '\\$&')}$`)

const NAMING = `      Object.defineProperty(visit, 'name', {
        value:
          'node (' + color(node.type + (name ? '<' + name + '>' : '')) + ')'
      })`

/** Marks a walker patched already: applied twice, the patch applies once. */
export const MARKER = 'export const visitFunctionsUnnamed = true'

/** The walker's source without the naming, with the marker. */
export function withoutNames(source, file) {
  if (source.includes(MARKER)) return source
  const patched = replaceExactly(source, NAMING, '      // Unnamed: patches/compile/visitWithoutNames.mjs', 1, { loader: 'visitWithoutNames', file, dependency: 'unist-util-visit-parents' })
  return `${patched}\n${MARKER}\n`
}
