/**
 * Bundles the Lambda@Edge authorizer into edge/dist/index.js with its configuration baked in,
 * and prints its size. Run after the site build (it needs .next/asset-routes.json).
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
import { jwksFor } from './jwksFor'
import { ASSET_ROUTES_FILE } from './siteFiles'

const OUT_DIR = path.resolve('edge/dist')

export async function buildEdge(): Promise<{ file: string; bytes: number; gzipBytes: number }> {
  compileAccess(accessConfig)
  const auth = readAuthSettings(process.env as AuthEnv)
  if (!fs.existsSync(ASSET_ROUTES_FILE)) throw new Error(`${ASSET_ROUTES_FILE} is missing; run the site build first (npm run build)`)
  const baked: BakedEdgeConfig = {
    auth,
    jwks: await jwksFor(auth),
    assetRoutes: JSON.parse(fs.readFileSync(ASSET_ROUTES_FILE, 'utf8')),
    // The list overrides as this build saw them: the bundle holds the lists, the browser never does.
    accessEnv: accessEnvFor(Object.keys(accessConfig.lists), process.env),
  }
  fs.rmSync(OUT_DIR, { recursive: true, force: true })
  fs.mkdirSync(OUT_DIR, { recursive: true })
  const bakedFile = path.join(OUT_DIR, 'baked-config.json')
  fs.writeFileSync(bakedFile, JSON.stringify(baked))
  const file = path.join(OUT_DIR, 'index.js')
  await build({
    entryPoints: [path.resolve('edge/lambda.ts')],
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
  const code = fs.readFileSync(file)
  return { file, bytes: code.length, gzipBytes: zlib.gzipSync(code, { level: 9 }).length }
}

if (require.main === module) {
  buildEdge().then(
    ({ file, bytes, gzipBytes }) => console.log(`buildEdge: ${path.relative('.', file)} ${(bytes / 1024).toFixed(1)} kB (${(gzipBytes / 1024).toFixed(1)} kB gzip; Lambda@Edge viewer-request limit 1 MB zipped)`),
    (error) => {
      console.error(`buildEdge: ${error instanceof Error ? error.message : error}`)
      process.exit(1)
    }
  )
}
