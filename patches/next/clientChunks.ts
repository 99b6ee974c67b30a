/**
 * How the browser's JavaScript is split into chunks under Rspack.
 *
 * For Rspack, Next 15 puts every module from node_modules into one chunk named `lib` that every
 * page loads, including code a page only imports on demand: Amplify and the sign-in code, which
 * a docs page loads only to renew a session, made nearly half of a docs page's first load
 * (docs/benchmarks.md, figures behind choices in the code). Under webpack Next splits
 * differently: only a package module over 160 kB gets a chunk of its own, and the rest is shared
 * by the pages that use it. This gives Rspack webpack's rules.
 * Measured by: a docs page's first-load JavaScript in `npm run bench size`. Tested in
 * __tests__/patches/clientChunks.test.ts.
 */
import crypto from 'node:crypto'

/** A module as Rspack's and webpack's split-chunks callbacks both see it. */
interface ChunkedModule {
  type?: string
  size(): number
  nameForCondition(): string | null | undefined
  libIdent?(options: { context: string }): string | null
  layer?: string | null
}

const LARGE_PACKAGE_MODULE = 160_000
/** The chunks Next keeps whole: every page loads them, so there is nothing to share out. */
const UNSPLIT = /^(polyfills|main|pages\/_app)$/

export function isLargePackageModule(module: ChunkedModule): boolean {
  return !module.type?.startsWith('css') && module.size() > LARGE_PACKAGE_MODULE && /node_modules[/\\]/.test(module.nameForCondition() ?? '')
}

/** A stable name for a large module's chunk, as Next names it under webpack. */
export function largeModuleChunkName(module: ChunkedModule, context: string): string {
  const ident = module.libIdent?.({ context })
  if (!ident) throw new Error(`clientChunks: cannot name a chunk for ${module.nameForCondition() ?? 'a module without a path'}`)
  const hash = crypto.createHash('sha1').update(ident)
  if (module.layer) hash.update(module.layer)
  return hash.digest('hex').slice(0, 8)
}

export function webpackLikeClientChunks(config: any, context: string): void {
  const splitChunks = config.optimization?.splitChunks
  if (!splitChunks?.cacheGroups?.lib || !splitChunks.cacheGroups.framework) {
    throw new Error('clientChunks: Next no longer sets the framework and lib chunk groups for Rspack; review patches/next/clientChunks.ts')
  }
  splitChunks.chunks = (chunk: { name?: string | null }) => !UNSPLIT.test(chunk.name ?? '')
  splitChunks.cacheGroups.lib = {
    test: isLargePackageModule,
    name: (module: ChunkedModule) => largeModuleChunkName(module, context),
    priority: 30,
    minChunks: 1,
    reuseExistingChunk: true,
  }
}
