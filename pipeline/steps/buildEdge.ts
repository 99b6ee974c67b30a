/**
 * Bundles the Lambda@Edge authorizer into edge/dist/index.js with its configuration baked in, and
 * leaves the pages' inline-script hashes beside it (edge/dist/script-hashes.json), where the CDK
 * stack reads them for its response-headers policy. A step of the site build
 * (pipeline/steps/buildSite.ts); `npm run build:edge` runs it alone on the last build's asset
 * routes and script hashes.
 */
import fs from 'node:fs'
import path from 'node:path'
import zlib from 'node:zlib'
import { build } from 'esbuild'
import { accessEnvFor } from '../../lib/access/accessEnv'
import { compileAccess } from '../../lib/access/compileAccess'
import accessConfig from '../../access.config'
import { readAuthSettings, type AuthEnv } from '../../lib/auth/authSettings'
import type { BakedEdgeConfig } from '../../edge/bakedConfig'
import { readScriptHashesFile, writeScriptHashesFile } from '../../edge/scriptHashesFile'
import { SCRIPT_HASHES_FILE } from '../../edge/securityHeaders'
import type { AudienceSummary } from '../../lib/access/readerView'
import { readAudiencesFile } from './audiencesFile'
import { jwksFor } from './jwksFor'
import { sitePaths, type SitePaths } from './paths'

export interface EdgeBundle {
  file: string
  bytes: number
  gzipBytes: number
}

/**
 * The authorizer with this build's asset routes and audiences: the site build hands them over;
 * alone (after a change of lists, npm run deploy:access) they are read from the last build's files.
 */
export async function buildEdge(options: { paths?: SitePaths; scriptHashes?: readonly string[]; assetRoutes?: Record<string, string>; audiences?: AudienceSummary[] } = {}): Promise<EdgeBundle> {
  const paths = options.paths ?? sitePaths()
  const access = compileAccess(accessConfig)
  const auth = readAuthSettings(process.env as AuthEnv)
  if (!options.scriptHashes && !fs.existsSync(paths.scriptHashes)) throw new Error(`${paths.scriptHashes} is missing; run the site build first (npm run build)`)
  const scriptHashes = [...(options.scriptHashes ?? readScriptHashesFile(paths.scriptHashes))]
  const lastBuild = <T>(given: T | undefined, file: string): T => {
    if (given) return given
    if (!fs.existsSync(file)) throw new Error(`${file} is missing; run the site build first (npm run build)`)
    return JSON.parse(fs.readFileSync(file, 'utf8')) as T
  }
  const baked: BakedEdgeConfig = {
    auth,
    jwks: await jwksFor(auth),
    assetRoutes: lastBuild(options.assetRoutes, paths.assetRoutes),
    // Alone, only over a build made with these path rules (pipeline/steps/audiencesFile.ts says why).
    audiences: options.audiences ?? readAudiencesFile(paths.audiences, access),
    // The list overrides as this build saw them: the bundle holds the lists, the browser never does.
    accessEnv: accessEnvFor(Object.keys(accessConfig.lists), process.env),
    scriptHashes,
  }
  fs.rmSync(paths.edgeDist, { recursive: true, force: true })
  fs.mkdirSync(paths.edgeDist, { recursive: true })
  const bakedFile = path.join(paths.edgeDist, 'baked-config.json')
  fs.writeFileSync(bakedFile, JSON.stringify(baked))
  const file = path.join(paths.edgeDist, 'index.js')
  await build({
    entryPoints: [path.join(paths.root, 'edge/lambda.ts')],
    outfile: file,
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'cjs',
    minify: true,
    legalComments: 'none',
    alias: { 'edge-baked-config': bakedFile },
    logLevel: 'warning',
  })
  fs.rmSync(bakedFile)
  writeScriptHashesFile(path.join(paths.edgeDist, SCRIPT_HASHES_FILE), scriptHashes)
  const code = fs.readFileSync(file)
  return { file, bytes: code.length, gzipBytes: zlib.gzipSync(code, { level: 9 }).length }
}

export const describeEdgeBundle = ({ file, bytes, gzipBytes }: EdgeBundle) =>
  `${path.relative('.', file)} ${(bytes / 1024).toFixed(1)} kB (${(gzipBytes / 1024).toFixed(1)} kB gzip; Lambda@Edge viewer-request limit 1 MB zipped)`

if (require.main === module) {
  buildEdge().then(
    (bundle) => console.log(`buildEdge: ${describeEdgeBundle(bundle)}`),
    (error) => {
      console.error(`buildEdge: ${error instanceof Error ? error.message : error}`)
      process.exit(1)
    }
  )
}
