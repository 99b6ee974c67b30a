/**
 * Nextra's client modules as the site's pages use them (nextra/mdx, nextra/components,
 * nextra/icons) and the docs theme, bundled into one CommonJS file: they ship as ES modules only,
 * which Jest cannot load. One bundle, so the MDX provider, the theme's components and Nextra's
 * components share their React contexts, as in the site's bundle. As the site's build does
 * (patches/theme/plainImages.cjs), Nextra's MDX image component is the plain `img`.
 *
 *   jest.mock('nextra/mdx', () => require('./helpers/nextraClient').nextraClient().mdx, { virtual: true })
 */
import { execFileSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'

const root = path.resolve(__dirname, '../../..')

const ENTRY = `
export * as mdx from 'nextra/mdx'
export * as icons from 'nextra/icons'
export { getComponents, Bleed } from 'nextra-theme-docs'
export { Callout } from 'nextra/components/callout'
export { Cards } from 'nextra/components/cards'
export { FileTree } from 'nextra/components/file-tree'
export { Steps } from 'nextra/components/steps'
export { Tabs } from 'nextra/components/tabs/index'
`

export interface NextraClient {
  mdx: Record<string, unknown>
  icons: Record<string, unknown>
  components: Record<string, unknown>
  theme: Record<string, unknown>
}

function bundlePath(): string {
  const versions = ['nextra-theme-docs', 'nextra', 'esbuild'].map((pkg) => `${pkg}@${JSON.parse(fs.readFileSync(path.join(root, 'node_modules', pkg, 'package.json'), 'utf8')).version}`)
  const plainImages = fs.readFileSync(path.join(root, 'patches/theme/plainImages.cjs'), 'utf8')
  const key = createHash('sha256').update(JSON.stringify([root, versions, ENTRY, plainImages])).digest('hex').slice(0, 16)
  const out = path.join(os.tmpdir(), `jest-nextra-client-${key}.cjs`)
  if (fs.existsSync(out)) return out
  const tmp = `${out}.${process.pid}.tmp`
  // esbuild's JS API refuses to run inside jsdom, so the bundle is built in a child Node.
  const script = `
    const root = ${JSON.stringify(root)}
    const { REPLACEMENTS } = require(root + '/patches/theme/plainImages.cjs')
    const fs = require('fs')
    require('esbuild').build({
      stdin: { contents: ${JSON.stringify(ENTRY)}, resolveDir: root, loader: 'js' },
      bundle: true, format: 'cjs', platform: 'node', mainFields: ['browser', 'module', 'main'], conditions: ['browser', 'import'],
      loader: { '.css': 'empty' }, outfile: ${JSON.stringify(tmp)}, logLevel: 'error',
      plugins: [{ name: 'site', setup(build) {
        // React and Next stay outside, required by absolute path: Jest gives them its own instances.
        build.onResolve({ filter: /^(react|react-dom|next)(\\/|$)/ }, (args) => ({ path: require.resolve(args.path, { paths: [root] }), external: true }))
        build.onLoad({ filter: /nextra[\\\\/]dist[\\\\/]client[\\\\/]mdx\\.js$/ }, (args) => ({
          contents: REPLACEMENTS.reduce((text, [from, to]) => text.split(from).join(to), fs.readFileSync(args.path, 'utf8')), loader: 'js',
        }))
      } }],
    }).catch((error) => { console.error(error); process.exit(1) })`
  execFileSync(process.execPath, ['-e', script], { cwd: root, stdio: 'pipe' })
  fs.renameSync(tmp, out)
  return out
}

let loaded: NextraClient | null = null

export function nextraClient(): NextraClient {
  if (loaded) return loaded
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const bundle = require(bundlePath())
  const { mdx, icons, getComponents, Bleed, ...components } = bundle
  loaded = { mdx, icons, components, theme: { getComponents, Bleed } }
  return loaded
}
