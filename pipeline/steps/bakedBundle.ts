/**
 * What the authority's two AWS bundles hold and how they are made: the Lambda@Edge authorizer
 * (pipeline/steps/buildEdge.ts) and the AI tools' server (pipeline/steps/buildMcp.ts) decide with
 * the same inputs, so both bake the one configuration made here, from the same build's files, and
 * are bundled the same way.
 */
import fs from 'node:fs'
import path from 'node:path'
import zlib from 'node:zlib'
import { build } from 'esbuild'
import accessConfig from '../../access.config'
import type { BakedEdgeConfig } from '../../edge/bakedConfig'
import { readScriptHashesFile } from '../../edge/scriptHashesFile'
import { accessEnvFor } from '../../lib/access/accessEnv'
import { compileAccess } from '../../lib/access/compileAccess'
import type { AudienceSummary } from '../../lib/access/readerView'
import { readAuthSettings, type AuthEnv } from '../../lib/auth/authSettings'
import { readAudiencesFile } from './audiencesFile'
import { jwksFor } from './jwksFor'
import { readJsonObject, sameStamp, settledAt, sha256, stampOf, writeAtomically, type FileStamp } from '../files'
import { CACHE_PATHS, sitePaths, type SitePaths } from './paths'

/** The site build hands its results over; alone, a step reads them from the last build's files. */
export interface BakeOptions {
  paths?: SitePaths
  scriptHashes?: readonly string[]
  assetRoutes?: Record<string, string>
  audiences?: AudienceSummary[]
  /** The settings the build checked as it started (bakedSettings). */
  settings?: BakedSettings
}

/** What both bundles bake that no step of the build makes: the auth settings, the pool's keys and the list overrides. */
export type BakedSettings = Pick<BakedEdgeConfig, 'auth' | 'jwks' | 'accessEnv'>

/**
 * The bundles' settings from the environment. The site build reads them as it starts, so a bad
 * one (a misspelt list override, a production key file that is not the pool's) fails it at once,
 * named, and not after the render, when the bundles are made.
 */
export async function bakedSettings(): Promise<BakedSettings> {
  const auth = readAuthSettings(process.env as AuthEnv)
  const accessEnv = accessEnvFor(Object.keys(accessConfig.lists), process.env)
  return { auth, jwks: await jwksFor(auth), accessEnv }
}

/** The module name a bundle imports its baked configuration by (edge/baked-config.d.ts). */
export const BAKED_CONFIG_MODULE = 'edge-baked-config'

/**
 * The configuration both bundles bake in: the auth settings and the pool's keys, this build's asset
 * routes and audiences, the list overrides as this build saw them (the bundles hold the lists, the
 * browser never does) and the pages' inline-script hashes.
 */
export async function bakeConfig(options: BakeOptions = {}): Promise<BakedEdgeConfig> {
  const paths = options.paths ?? sitePaths()
  const access = compileAccess(accessConfig)
  const lastBuild = <T>(given: T | undefined, file: string, read: (file: string) => T): T => {
    if (given) return given
    if (!fs.existsSync(file)) throw new Error(`${file} is missing; run the site build first (npm run build)`)
    return read(file)
  }
  // The last build's files first: a missing one is named before the pool's keys are fetched.
  const scriptHashes = [...lastBuild(options.scriptHashes, paths.scriptHashes, readScriptHashesFile)]
  const assetRoutes = lastBuild(options.assetRoutes, paths.assetRoutes, (file) => JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, string>)
  // Alone, only over a build made with these path rules (pipeline/steps/audiencesFile.ts says why).
  const audiences = options.audiences ?? readAudiencesFile(paths.audiences, access)
  return { ...(options.settings ?? (await bakedSettings())), assetRoutes, audiences, scriptHashes }
}

/** A bundle's line in the build's output: its size, and the limit it ships under. */
export const describeBundle = (limit: string) => ({ file, bytes, gzipBytes, kept }: Bundle) =>
  `${kept ? 'kept, nothing it is made from changed: ' : ''}${path.relative('.', file)} ${(bytes / 1024).toFixed(1)} kB (${(gzipBytes / 1024).toFixed(1)} kB gzip; ${limit})`

export interface Bundle {
  file: string
  bytes: number
  gzipBytes: number
  /** Whether the last bundle was kept: nothing it was made from changed. */
  kept: boolean
}

/** What a bundle was made from: its options and baked configuration, and each source file esbuild read, with its time, size and digest. */
interface BundleRecord {
  key: string
  output: string
  /** Its size, and gzipped, as reported: a kept bundle is not compressed again to say it. */
  bytes: number
  gzipBytes: number
  /** Each source's stamp (null when it was read too soon after its write to be trusted, ../files.ts) and digest. */
  inputs: Record<string, [stamp: FileStamp | null, digest: string]>
}

/** Whether `record` still describes `file` and the sources it was made from (a file whose time or size changed is compared by digest). */
function unchanged(record: BundleRecord, key: string, file: string, root: string): boolean {
  if (record.key !== key || typeof record.gzipBytes !== 'number' || !fs.existsSync(file) || sha256(fs.readFileSync(file)) !== record.output) return false
  return Object.entries(record.inputs).every(([input, [stamp, digest]]) => {
    const absolute = path.resolve(root, input)
    const now = stampOf(absolute)
    // A stamp of another form (an older record's) is no stamp: the source is compared by digest.
    return now !== null && ((stamp !== null && typeof stamp === 'object' && sameStamp(now, stamp)) || sha256(fs.readFileSync(absolute)) === digest)
  })
}

/**
 * Bundles `entry` into `outDir`/index.js (CommonJS for the Lambda Node.js runtime, which the
 * bundle's `handler` export is named to) with `baked` as its BAKED_CONFIG_MODULE. `external`
 * packages are left to the runtime; `keepNames` keeps class and function names through
 * minification, for code that reads them. A bundle whose options, baked configuration and every
 * source file are as when it was last made is kept as it is: a writer's edit changes none of
 * them, and bundling is a fixed cost that a rebuild for an edit should not pay.
 */
export async function bundleWithConfig(options: { root: string; entry: string; outDir: string; baked: BakedEdgeConfig; external?: string[]; keepNames?: boolean }): Promise<Bundle> {
  const file = path.join(options.outDir, 'index.js')
  const recordFile = path.join(options.root, CACHE_PATHS.bundles, `${sha256(path.relative(options.root, options.outDir)).slice(0, 16)}.json`)
  const key = sha256(JSON.stringify([options.entry, options.external ?? [], options.keepNames ?? false, options.baked]))
  // None yet, or unreadable: bundled again.
  const record = readJsonObject(recordFile) as BundleRecord | null
  if (record && unchanged(record, key, file, options.root)) return { file, bytes: record.bytes, gzipBytes: record.gzipBytes, kept: true }
  fs.rmSync(recordFile, { force: true })
  fs.rmSync(options.outDir, { recursive: true, force: true })
  fs.mkdirSync(options.outDir, { recursive: true })
  const bakedFile = path.join(options.outDir, 'baked-config.json')
  fs.writeFileSync(bakedFile, JSON.stringify(options.baked))
  let inputs: string[]
  try {
    const result = await build({
      entryPoints: [options.entry],
      outfile: file,
      bundle: true,
      platform: 'node',
      target: 'node20',
      format: 'cjs',
      minify: true,
      keepNames: options.keepNames ?? false,
      legalComments: 'none',
      alias: { [BAKED_CONFIG_MODULE]: bakedFile },
      external: options.external,
      logLevel: 'warning',
      metafile: true,
    })
    // esbuild names inputs relative to its working folder; the baked file is in the key already.
    inputs = Object.keys(result.metafile.inputs).map((input) => path.resolve(input)).filter((input) => input !== path.resolve(bakedFile))
  } finally {
    fs.rmSync(bakedFile)
  }
  const entries = inputs.map((input): [string, [FileStamp | null, string]] => {
    const stamp = stampOf(input)
    const readAt = Date.now()
    const digest = sha256(fs.readFileSync(input))
    return [path.relative(options.root, input), [stamp && settledAt(stamp, readAt) ? stamp : null, digest]]
  })
  const code = fs.readFileSync(file)
  const bundle = { file, bytes: code.length, gzipBytes: zlib.gzipSync(code, { level: 9 }).length, kept: false }
  writeAtomically(recordFile, JSON.stringify({ key, output: sha256(code), bytes: bundle.bytes, gzipBytes: bundle.gzipBytes, inputs: Object.fromEntries(entries) } satisfies BundleRecord))
  return bundle
}
