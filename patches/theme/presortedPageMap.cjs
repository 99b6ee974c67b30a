// Nextra's normalizePages sorts every folder of the page map on every render: `_meta` first, then
// by name with localeCompare. The first localeCompare on a page starts ICU's collator, a cost paid
// inside hydration (docs/benchmarks.md, figures behind choices in the code). lib/navigation/navigationTree.ts
// builds the page map in that order, so here the comparator keeps that order (the
// sort is stable) instead of comparing names again. A Nextra upgrade that changes the comparator
// fails the build.
//
// Measured by: a docs page's Lighthouse run in `npm run bench browser` (time to interactive).
// Tested in __tests__/patches/theme.test.ts.
const replaceExactly = require('../replaceExactly.cjs')

const FROM = 'return a.name.localeCompare(b.name);'
const TO = 'return 0; /* presorted at build time (lib/navigation/navigationTree.ts) */'

module.exports = function presortedPageMapLoader(source) {
  return replaceExactly(source, FROM, TO, 1, { loader: 'presortedPageMapLoader', file: 'nextra/dist/client/normalize-pages.js', dependency: 'Nextra' })
}
module.exports.FROM = FROM
