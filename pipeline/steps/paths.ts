/**
 * Where the build reads and writes, for a project root. The build steps and the scripts that read
 * the build's output (local stack, edge and AI tools' server bundles, deploy, live audit,
 * benchmarks) take their paths from here; the tests' audit build has the same layout under its own
 * root.
 */
import path from 'node:path'

const { BUNDLE_DIR: BUILD_BUNDLE_DIR } = require('./build.cjs') as { BUNDLE_DIR: string }

/**
 * What the build keeps between runs under `.cache/`, relative to the project (`rm -rf .cache`
 * forgets all of it). The props live in lib/ (the docs route reads them at run time).
 */
export const CACHE_PATHS = {
  /** Held by the one build that runs in the project, from its start to its end (./buildLock.ts). */
  buildLock: '.cache/build.lock',
  /** The page store (../store/pageStore.ts). */
  store: '.cache/store.json',
  /** What changed in the store since its file was last written whole (../store/storeChanges.ts). */
  storeChanges: '.cache/store.changes.json',
  /** Present while a render runs: the store's record of what out/ holds is not to be trusted then. */
  storeRendering: '.cache/store.rendering',
  /** The compile cache: one document per page version and compiler (../compile/compilePages.ts). */
  mdx: '.cache/mdx',
  /** The site's highlighter, transpiled for the compile workers. */
  compiler: '.cache/compiler',
  /** Each page's body after the MDX is released, by digest (../content/contentSource.ts). */
  markdown: '.cache/markdown',
  /** The Markdown step's files as it last wrote them, linked into out/ (./keptFiles.ts). */
  markdownFiles: '.cache/markdown-files',
  /** Which inputs each of the Markdown step's kept files was made from, and its inode (./keptFiles.ts). */
  markdownFilesRecord: '.cache/markdown-files.json',
  /** The public files as the render step last placed them, linked into out/ (./keptFiles.ts). */
  publicFiles: '.cache/public-files',
  /** The kept public files' record, as the Markdown step's (./keptFiles.ts). */
  publicFilesRecord: '.cache/public-files.json',
  /** Each `_meta` file's data, by the digest of its text. */
  meta: '.cache/meta',
  /** The routes the render step renders, while it runs (../render/renderPlan.ts). */
  renderRoutes: '.cache/render-routes.json',
  /** The last out/, set aside while the render step makes a new one. */
  previousOut: '.cache/out-previous',
  /** Where the renderer writes pages before they move into out/ (../render/lastBuildRenderer.ts). */
  rendered: '.cache/rendered',
  /** Each docs file's last commit time, under the commit it was read at (../lastUpdated.ts). */
  lastUpdated: '.cache/last-updated.json',
  /** The last build's navigation, under a digest of what it was made from (../navigationRecord.ts). */
  navigation: '.cache/navigation.json',
  /** The build's own modules as one file, under the digest of their bytes (./build.cjs spells it: it runs before any TypeScript loads). */
  buildBundle: BUILD_BUNDLE_DIR,
  /** What each AWS bundle was last made from, so an unchanged one is not made again (./bakedBundle.ts). */
  bundles: '.cache/bundles',
  /** The search step's placed pages and shards (./buildSearchIndexes.ts). */
  search: '.cache/search',
  /** Each file of out/ with its sha256 and size, written last by a finished build; the deploy reads it (./outRecord.ts). */
  outRecord: '.cache/out-record.json',
  /** The last finished build's record, set aside while a build runs: its stats spare hashing unchanged files. */
  previousOutRecord: '.cache/out-record.previous.json',
  /** What out/ changed since an earlier build's record, for a deploy from that one (./outDelta.ts). */
  outDelta: '.cache/out-record.delta.json',
} as const

export interface SitePaths {
  root: string
  /** The static export: what is uploaded and served. */
  out: string
  /** Next's build folder. */
  next: string
  /** Each build file's governing route, for the edge and the local server. */
  assetRoutes: string
  /** What the authority needs of the aggregate plan (lib/access/planAggregates.ts audienceSummaries). */
  audiences: string
  /** The hashes of the pages' inline scripts, for the Content-Security-Policy (inlineScriptHashes.ts). */
  scriptHashes: string
  /** The bundled Lambda@Edge authorizer. */
  edgeDist: string
  /** The bundled AI tools' server, a Lambda function behind a function URL (mcp/lambda.ts). */
  mcpDist: string
}

export function sitePaths(root = process.cwd()): SitePaths {
  const absolute = path.resolve(root)
  return {
    root: absolute,
    out: path.join(absolute, 'out'),
    next: path.join(absolute, '.next'),
    assetRoutes: path.join(absolute, '.next/asset-routes.json'),
    audiences: path.join(absolute, '.next/audiences.json'),
    scriptHashes: path.join(absolute, '.next/script-hashes.json'),
    edgeDist: path.join(absolute, 'edge/dist'),
    mcpDist: path.join(absolute, 'mcp/dist'),
  }
}
