/**
 * `nextra/components` as this site's pages and theme see it (next.config aliases it here).
 *
 * Nextra's own index also re-exports Mermaid, Playground, RemoteContent and MathJax. Webpack
 * builds every module an index names, used or not, so those four put mermaid with d3 and
 * lodash-es, and a second copy of the MDX compiler with every Shiki grammar, into the client
 * compile: about 2,000 modules that no page ships. Importing one of the four from here fails the
 * build; a ```mermaid fence is refused earlier, by the content step, since a page is data and a
 * diagram would need the component's code (pipeline/compile/toPageDocument.mjs). Measured by: the
 * `next build` step's time in `npm run bench build`. Tested in __tests__/patches/theme.test.ts.
 */
export { Button } from 'nextra/components/button'
export { Callout } from 'nextra/components/callout'
export { Cards } from 'nextra/components/cards'
export { Code } from 'nextra/components/code'
export { CopyToClipboard } from 'nextra/components/copy-to-clipboard'
export { FileTree } from 'nextra/components/file-tree'
export { Image } from 'nextra/components/image'
export { ImageZoom } from 'nextra/components/image-zoom'
export { Popup } from 'nextra/components/popup'
export { Pre } from 'nextra/components/pre'
export { Steps } from 'nextra/components/steps'
export { Table } from 'nextra/components/table'
export { Tabs } from 'nextra/components/tabs/index'
export { Td } from 'nextra/components/td'
export { Th } from 'nextra/components/th'
export { Tr } from 'nextra/components/tr'
