/**
 * Patches to Next itself: how it bundles and what `next build` does beside compiling. Measured by
 * `npm run bench size` (first-load JavaScript of each kind of page, docs/benchmarks.md) and the
 * build's step table (`npm run bench`), and tested in __tests__/patches/next.test.ts and
 * clientChunks.test.ts.
 */
import path from 'node:path'
import type { BundlerConfig, PatchOptions } from '../bundlerConfig'
import { webpackLikeClientChunks } from './clientChunks'

export const NEXT_PATCH_FILES = {
  noServerTraces: path.join(__dirname, 'noServerTraces.cjs'),
} as const

/** The plugin of Next's server compile that traces each page's server files (next/dist/build/webpack/plugins/next-trace-entrypoints-plugin.js). */
export const TRACE_PLUGIN = 'TraceEntryPointsPlugin'

/**
 * A static export deploys no server, so Next's server file traces (.nft.json, for standalone and
 * serverless hosting) are never used. Collecting them reads `.next/package.json` once per traced
 * module with unbounded concurrency: at 1,000 pages that exhausted the open-file limit (EMFILE)
 * and the build died while generating pages. Without the plugin there is nothing to trace.
 * Measured by: the 1,000-page and larger builds of `npm run bench` completing.
 */
export function withoutServerTraces(config: BundlerConfig): void {
  config.plugins = (config.plugins ?? []).filter((plugin) => (plugin as { constructor?: { name?: string } } | null)?.constructor?.name !== TRACE_PLUGIN)
}

/**
 * No persistent bundler cache. A compile reusing Rspack's cache could name and fill some chunks
 * differently from a compile without it (the runtime chunk and the sign-in chunks, seen in CI), so
 * the same sources could give different files, and pages kept from the last build
 * (pipeline/render/renderPlan.ts) could name chunks the new build no longer has. Every compile
 * starts clean instead: its entries are the same whatever the number of pages (one route serves
 * every page), so it takes a few seconds on any site. Measured by: the byte-identity rebuilds of
 * __tests__/integration/rebuild.test.ts.
 */
export function withoutPersistentCache(config: BundlerConfig): void {
  config.cache = false
}

/**
 * Next's trace of its own server's files, which a static export never deploys (noServerTraces.cjs).
 * Called where next.config.ts loads: the trace runs in `next build`'s main process, which may not
 * be the one that compiles.
 */
export function skipServerTraces(): void {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  require(NEXT_PATCH_FILES.noServerTraces).skipServerTraces()
}

/** The patches to Next's bundler configuration, for either bundler and both compiles. */
export function patchNext(config: BundlerConfig, options: PatchOptions): void {
  if (options.bundler === 'rspack' && !options.isServer && !options.dev) webpackLikeClientChunks(config, options.context)
  if (options.isServer) withoutServerTraces(config)
  withoutPersistentCache(config)
}
