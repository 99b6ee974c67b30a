// Nextra's sidebar renders every folder's pages, collapsed folders included (hidden by a zero
// height). Measured before each page's props carried only its part of the page map
// (lib/navigation/trimPageMap.ts): each page's HTML held its section's sidebar links, and
// rendering them made "Generating static pages" grow with the square of the pages (figures at
// 1,000 pages: docs/benchmarks.md, figures behind choices in the code). The trim now bounds what a page's HTML can list; in the browser,
// where a reader's whole navigation arrives, the sidebar still renders only what is open. This
// loader renders a collapsed folder's pages only once the reader opens it, as Docusaurus does; a
// folder that was open stays rendered, so it still animates closed. Open folders (the current page's, and the
// top levels) render on the server exactly as before.
//
// Measured by: a page's HTML size and the pages step's time in `npm run bench build-1000`. Tested
// in __tests__/patches/theme.test.ts.
const replaceExactly = require('../replaceExactly.cjs')

const where = { loader: 'lazySidebarFoldersLoader', file: 'nextra-theme-docs/dist/index.js', dependency: 'the theme' }
const REPLACEMENTS = [
  // Remembers whether the folder was ever open (in FolderImpl, right after its rerender state).
  [
    '  const rerender = useState5({})[1];\n',
    '  const rerender = useState5({})[1];\n  const wasOpen = useRef5(false);\n  if (open) wasOpen.current = true;\n',
    1,
  ],
  // The folder's pages, only when it is or was open.
  [
    'Array.isArray(item.children) && /* @__PURE__ */ jsx21(Collapse, { isOpen: open, children: /* @__PURE__ */ jsx21(\n      Menu2,',
    'Array.isArray(item.children) && /* @__PURE__ */ jsx21(Collapse, { isOpen: open, children: wasOpen.current && /* @__PURE__ */ jsx21(\n      Menu2,',
    1,
  ],
]

module.exports = function lazySidebarFoldersLoader(source) {
  return REPLACEMENTS.reduce((result, [from, to, expected]) => replaceExactly(result, from, to, expected, where), source)
}
