// The docs theme's layout, as a keyboard or screen reader meets it:
// - the table of contents comes after the article in the page's order, as it does on screen (the
//   theme draws it first and moves it to the right with CSS `order`, so Tab went sidebar → table of
//   contents → article: WCAG 2.4.3, focus order);
// - the mobile menu button says whether the menu is open (aria-expanded);
// - landmarks: the navbar is the page's banner (a <header>), its <nav> is named "Site" apart from
//   the table of contents' and the footer's, and the sidebar is named.
// Each replacement must match exactly once, so a theme upgrade that changes them fails the build.
//
// Measured by: e2e/keyboard.test.ts and e2e/screenReaderAndZoom.test.ts. Tested in __tests__/patches/theme.test.ts.
const replaceExactly = require('../replaceExactly.cjs')

const REPLACEMENTS = [
  [
    '          tocEl,\n          /* @__PURE__ */ jsx26(SkipNavContent, {}),\n          /* @__PURE__ */ jsx26(Body, { children })\n',
    '          /* @__PURE__ */ jsx26(SkipNavContent, {}),\n          /* @__PURE__ */ jsx26(Body, { children }),\n          tocEl\n',
  ],
  ['          "aria-label": "Menu",\n', '          "aria-label": "Menu",\n          "aria-expanded": menu,\n'],
  ['jsxs12("div", { className: "nextra-nav-container ', 'jsxs12("header", { className: "nextra-nav-container '],
  ['jsxs12("nav", { className: "_mx-auto _flex _h-[var(--nextra-navbar-height)]', 'jsxs12("nav", { "aria-label": "Site", className: "_mx-auto _flex _h-[var(--nextra-navbar-height)]'],
  ['    /* @__PURE__ */ jsxs13(\n      "aside",\n      {\n', '    /* @__PURE__ */ jsxs13(\n      "aside",\n      {\n        "aria-label": "Sidebar",\n'],
]

module.exports = function readerLayoutLoader(source) {
  let result = source
  for (const [from, to] of REPLACEMENTS) {
    result = replaceExactly(result, from, to, 1, { loader: 'readerLayoutLoader', file: 'nextra-theme-docs/dist/index.js', dependency: 'the theme' })
  }
  return result
}
