// The site's mobile/desktop breakpoint is 996 px, as the replaced Docusaurus site's: 996 px and
// narrower is mobile (its `max-width: 996px`). Nextra's docs theme hard-codes Tailwind's `md`
// (768 px) in its CSS and in two `window.innerWidth` checks; this loader moves both.
// Each replacement must match exactly as often as expected, so a theme upgrade that changes them
// fails the build instead of silently mixing breakpoints.
//
// Measured by: e2e/layoutTour.test.ts, which lays pages out on each side of 996 px. Tested in
// __tests__/patches/theme.test.ts.
const replaceExactly = require('../replaceExactly.cjs')

const MOBILE_MAX = 996
const REPLACEMENTS = {
  'style.css': [
    ['(max-width:767px)', `(max-width:${MOBILE_MAX}px)`, 1],
    ['(min-width:768px)', `(min-width:${MOBILE_MAX + 1}px)`, 6],
  ],
  'index.js': [
    ['window.innerWidth > 767', `window.innerWidth > ${MOBILE_MAX}`, 1],
    ['window.innerWidth < 768', `window.innerWidth < ${MOBILE_MAX + 1}`, 1],
  ],
}

module.exports = function mobileBreakpointLoader(source) {
  const file = this.resourcePath.endsWith('.css') ? 'style.css' : 'index.js'
  let result = source
  for (const [from, to, expected] of REPLACEMENTS[file]) {
    result = replaceExactly(result, from, to, expected, { loader: 'mobileBreakpointLoader', file: `nextra-theme-docs/dist/${file}`, dependency: 'the theme' })
  }
  return result
}
module.exports.MOBILE_MAX = MOBILE_MAX
