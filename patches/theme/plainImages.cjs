// Nextra's MDX components render every content image through its ImageZoom (react-medium-image-zoom
// around next/image). This site's images are plain <img> elements, enlarged by medium-zoom
// (components/ImageZoom.tsx), so the wrapper and both libraries go. A Nextra upgrade that
// changes these lines fails the build.
//
// Measured by: a docs page's first-load JavaScript in `npm run bench size`. Tested in
// __tests__/patches/theme.test.ts.
const replaceExactly = require('../replaceExactly.cjs')

const REPLACEMENTS = [
  ['import { ImageZoom } from "./components/image-zoom.js";\n', '', 1],
  ['img: ImageZoom', 'img: "img"', 1],
]

module.exports = function plainImagesLoader(source) {
  return REPLACEMENTS.reduce(
    (result, [from, to, expected]) => replaceExactly(result, from, to, expected, { loader: 'plainImagesLoader', file: 'nextra/dist/client/mdx.js', dependency: 'Nextra' }),
    source
  )
}
module.exports.REPLACEMENTS = REPLACEMENTS
