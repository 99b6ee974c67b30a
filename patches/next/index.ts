/**
 * Patches to Next itself: how it bundles and what `next build` does beside compiling. Measured by
 * `npm run bench size` (first-load JavaScript of each kind of page, docs/benchmarks.md) and the
 * build's step table (`npm run bench`), and tested in __tests__/patches/next.test.ts and
 * clientChunks.test.ts.
 */
import { createHash } from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import type { BundlerConfig, PatchOptions } from '../bundlerConfig'
import { webpackLikeClientChunks } from './clientChunks'

/** The plugin of Next's server compile that traces each page's server files (next/dist/build/webpack/plugins/next-trace-entrypoints-plugin.js). */
export const TRACE_PLUGIN = 'TraceEntryPointsPlugin'

/**
 * A static export deploys no server, so Next's server file traces (.nft.json, for standalone and
 * serverless hosting) are never used. Collecting them reads `.next/package.json` once per traced
 * module with unbounded concurrency: at 1,000 pages that exhausted the open-file limit (EMFILE)
 * and the build died while generating pages. Without the plugin there is nothing to trace.
 * (next.config.ts's outputFileTracingExcludes does not reach it: Next gives it `traceIgnores: []`.)
 * Measured by: the 1,000-page and larger builds of `npm run bench` completing.
 */
export function withoutServerTraces(config: BundlerConfig): void {
  withoutPlugin(config, TRACE_PLUGIN)
}

function withoutPlugin(config: BundlerConfig, className: string): void {
  config.plugins = (config.plugins ?? []).filter((plugin) => (plugin as { constructor?: { name?: string } } | null)?.constructor?.name !== className)
}

/**
 * The plugin that gives `next dev`'s compiles their source maps, one inline map per module (Next's
 * own for webpack, Rspack's for Rspack; next/dist/build/webpack/config/blocks/base.js), with
 * `devtool` false, so that removing it is not a devtool change Next reverts.
 */
export const DEV_SOURCE_MAP_PLUGIN = 'EvalSourceMapDevToolPlugin'

/** Set to 1, `npm run dev` keeps Next's source maps in the browser's scripts. */
export const DEV_SOURCE_MAPS_ENV = 'DOCS_DEV_SOURCE_MAPS'

/** Whether `npm run dev` keeps the browser's source maps: DOCS_DEV_SOURCE_MAPS is 1 (0 or unset: not). */
export function devSourceMaps(env: Record<string, string | undefined> = process.env): boolean {
  const value = env[DEV_SOURCE_MAPS_ENV] ?? ''
  if (!['', '0', '1'].includes(value)) throw new Error(`next.config: ${DEV_SOURCE_MAPS_ENV} must be 1 (keep the browser's source maps in npm run dev) or 0, not ${JSON.stringify(value)}`)
  return value === '1'
}

/**
 * The browser's scripts of `npm run dev` come without source maps: the maps were most of their
 * bytes, and a docs page's heading, which Next's dev server shows only once those scripts have
 * run, came about a second later with them. Stack traces still name the modules
 * (the scripts are not minified); DOCS_DEV_SOURCE_MAPS=1 keeps the maps for debugging. The server
 * compile keeps its maps, for the dev overlay's server errors. Measured by: `npm run bench
 * dev-3000` (first open; docs/benchmarks.md).
 */
export function withoutDevSourceMaps(config: BundlerConfig): void {
  withoutPlugin(config, DEV_SOURCE_MAP_PLUGIN)
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

/** Where `npm run dev` keeps Rspack's cache, one folder per compile (client, server). */
export const DEV_CACHE_DIR = '.next/cache/rspack-dev'

/** What compiles the modules, besides Next and Rspack (whose versions the lock file holds); every file of `patches/`, as files. */
const DEV_CACHE_DEPENDENCIES = ['next.config.ts', 'tsconfig.json', 'package-lock.json']

function devCacheDependencies(context: string): string[] {
  const patches = path.join(context, 'patches')
  const patchFiles = fs.existsSync(patches) ? fs.readdirSync(patches, { recursive: true, withFileTypes: true }).filter((entry) => entry.isFile()).map((entry) => path.join(entry.parentPath, entry.name)) : []
  return [...DEV_CACHE_DEPENDENCIES.map((file) => path.join(context, file)), ...patchFiles.sort()]
}

/**
 * `npm run dev` keeps Rspack's cache on disk, so a restart compiles only the modules that changed
 * since the last run, instead of the docs route's 1,500 modules (the times at 3,000 pages:
 * docs/benchmarks.md, "Props once, packed; a faster compile; a warm dev restart"). Byte identity does not matter in dev, which is why only a build goes without it.
 * The cache is dropped when what compiles the modules changes: next.config.ts, tsconfig.json, the
 * patches and the lock file (build dependencies, by their bytes), and the values next.config.ts inlines into
 * the bundle (`env`, by the version: a sign-in setting changes no file), and whether the browser's scripts keep their source maps.
 */
export function withDevCache(config: BundlerConfig, options: PatchOptions): void {
  const compile = String(config.name ?? (options.isServer ? 'server' : 'client'))
  const version = createHash('sha256').update(JSON.stringify([compile, options.env ?? {}, options.devSourceMaps ?? false])).digest('hex').slice(0, 16)
  config.cache = true
  config.experiments = {
    ...(config.experiments as object | undefined),
    cache: {
      type: 'persistent',
      version,
      buildDependencies: devCacheDependencies(options.context),
      storage: { type: 'filesystem', directory: path.join(options.context, DEV_CACHE_DIR, compile) },
    },
  }
}

/** The manifest Next's dev server reads for every page it serves (next/dist/shared/lib/constants.js DYNAMIC_CSS_MANIFEST). */
export const DYNAMIC_CSS_MANIFEST_FILE = 'dynamic-css-manifest.json'

interface AssetCompiler {
  webpack: { Compilation: { PROCESS_ASSETS_STAGE_REPORT: number }; sources: { RawSource: new (source: string) => unknown } }
  hooks: { thisCompilation: { tap(name: string, fn: (compilation: AssetCompilation) => void): void } }
}
interface AssetCompilation {
  hooks: { processAssets: { tap(options: { name: string; stage: number }, fn: () => void): void } }
  getAsset(name: string): unknown
  emitAsset(name: string, source: unknown): void
}

/**
 * Next's dev server loads each page's manifests for every request it serves, and in dev tries a
 * missing one three times, 100 ms apart. The pages router's dynamic-CSS manifest is one it reads
 * but writes only in a production build (its ReactLoadablePlugin), so every page and data request
 * of `npm run dev` waited 200 ms for nothing: the first open once in the server and once in Next's
 * static-paths worker, and every later page, and every props refresh after an edit. The browser
 * compile of `npm run dev` writes it as a production build of this site does: empty, as no page
 * imports CSS dynamically (development CSS is injected by script, so there is no link to keep).
 * Measured by: `npm run bench dev-3000` (first open, another page, an edit) and a data request of
 * the dev server (docs/benchmarks.md, "`npm run dev`: no wait for a manifest, scripts uncompressed").
 */
export function withDevDynamicCssManifest(config: BundlerConfig): void {
  const name = 'DevDynamicCssManifest'
  config.plugins = [
    ...(config.plugins ?? []),
    {
      apply(compiler: AssetCompiler) {
        compiler.hooks.thisCompilation.tap(name, (compilation) => {
          compilation.hooks.processAssets.tap({ name, stage: compiler.webpack.Compilation.PROCESS_ASSETS_STAGE_REPORT }, () => {
            // Next's own, should a later version write it in dev.
            if (!compilation.getAsset(DYNAMIC_CSS_MANIFEST_FILE)) compilation.emitAsset(DYNAMIC_CSS_MANIFEST_FILE, new compiler.webpack.sources.RawSource('[]'))
          })
        })
      },
    },
  ]
}

/** The patches to Next's bundler configuration, for either bundler and both compiles. */
export function patchNext(config: BundlerConfig, options: PatchOptions): void {
  if (options.bundler === 'rspack' && !options.isServer && !options.dev) webpackLikeClientChunks(config, options.context)
  if (options.isServer) withoutServerTraces(config)
  if (options.dev && !options.isServer) withDevDynamicCssManifest(config)
  if (options.dev && !options.isServer && !options.devSourceMaps) withoutDevSourceMaps(config)
  if (options.dev && options.bundler === 'rspack') withDevCache(config, options)
  else withoutPersistentCache(config)
}
