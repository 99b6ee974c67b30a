/** The parts of a webpack or Rspack configuration the patches touch, and how Next compiles. */
export interface BundlerRule {
  test?: RegExp
  enforce?: 'pre' | 'post'
  resourceQuery?: RegExp
  use?: Array<{ loader: string; options?: Record<string, unknown> }>
  oneOf?: BundlerRule[]
  rules?: BundlerRule[]
  [key: string]: unknown
}
export interface BundlerConfig {
  module: { rules: Array<BundlerRule | null | false | '...'> }
  resolve: { alias?: Record<string, unknown>; [key: string]: unknown }
  plugins?: unknown[]
  cache?: unknown
  [key: string]: unknown
}

export interface PatchOptions {
  bundler: 'webpack' | 'rspack'
  /** Whether this is the server compile (Next runs one for the server and one for the browser). */
  isServer: boolean
  /** `next dev`: no chunk splitting to correct (Next turns it off for the browser in development). */
  dev: boolean
  /** The project root, which names the large-module chunks as Next does. */
  context: string
  /** The values next.config.ts inlines into the bundle (its `env`), which a dev cache must match. */
  env?: Record<string, string>
  /** `npm run dev` keeps Next's source maps in the browser's scripts (DOCS_DEV_SOURCE_MAPS=1). */
  devSourceMaps?: boolean
}
