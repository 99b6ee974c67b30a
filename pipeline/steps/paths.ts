/**
 * Where the build reads and writes, for a project root. The build steps and the scripts that read
 * the build's output (local stack, edge and AI tools' server bundles, deploy, live audit,
 * benchmarks) take their paths from here; the tests' audit build has the same layout under its own
 * root.
 */
import path from 'node:path'

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
  /** Files served as they are (images under public/docs/<section>/, logos). */
  public: string
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
    public: path.join(absolute, 'public'),
  }
}
