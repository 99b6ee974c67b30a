/** @jest-environment node */
import fs from 'node:fs'
import { isLargePackageModule, largeModuleChunkName, webpackLikeClientChunks } from '../../patches/next/clientChunks'

const moduleOf = (file: string, size: number, type = 'javascript/auto') => ({
  type,
  size: () => size,
  nameForCondition: () => file,
  libIdent: ({ context }: { context: string }) => './' + file.slice(context.length + 1),
})

test('only a package module over 160 kB gets a chunk of its own, named as Next names it', () => {
  expect(isLargePackageModule(moduleOf('/site/node_modules/big/index.js', 200_000))).toBe(true)
  expect(isLargePackageModule(moduleOf('/site/node_modules/small/index.js', 20_000))).toBe(false)
  expect(isLargePackageModule(moduleOf('/site/lib/huge.ts', 500_000))).toBe(false)
  expect(isLargePackageModule(moduleOf('/site/node_modules/big/style.css', 200_000, 'css/mini-extract'))).toBe(false)
  const name = largeModuleChunkName(moduleOf('/site/node_modules/big/index.js', 200_000), '/site')
  expect(name).toMatch(/^[0-9a-f]{8}$/)
  expect(largeModuleChunkName(moduleOf('/site/node_modules/other/index.js', 200_000), '/site')).not.toBe(name)
})

test("replaces Next's one catch-all package chunk, and keeps main and _app whole", () => {
  const config = { optimization: { splitChunks: { chunks: /x/, cacheGroups: { framework: { name: 'framework' }, lib: { name: 'lib', test: /node_modules/ } } } } }
  webpackLikeClientChunks(config, '/site')
  const { chunks, cacheGroups } = config.optimization.splitChunks as unknown as { chunks: (chunk: { name: string }) => boolean; cacheGroups: Record<string, any> }
  expect(cacheGroups.framework).toEqual({ name: 'framework' })
  expect(cacheGroups.lib.name).not.toBe('lib')
  expect(['main', 'pages/_app', 'polyfills'].map((name) => chunks({ name }))).toEqual([false, false, false])
  expect(chunks({ name: 'pages/docs/leads/intro' })).toBe(true)
})

test('fails with a message when Next stops setting the chunk groups it replaces', () => {
  expect(() => webpackLikeClientChunks({ optimization: { splitChunks: { cacheGroups: {} } } }, '/site')).toThrow(/clientChunks: Next no longer sets/)
})

test("the installed Next still gives Rspack one catch-all package chunk (else this patch can go)", () => {
  const source = fs.readFileSync(require.resolve('next/dist/build/webpack-config.js'), 'utf8')
  const rspackGroups = source.slice(source.indexOf('cacheGroups: isRspack ?'), source.indexOf('framework: frameworkCacheGroup'))
  expect(rspackGroups).toMatch(/lib: \{\s*test: \/\[\/\]node_modules\[\/\]/)
  expect(rspackGroups).toContain("name: 'lib'")
})
