import fs from 'node:fs'
import path from 'node:path'
import { LOCAL_COGNITO, readAuthSettings } from '../../lib/auth/authSettings'
import { startLocalCognito } from '../cognito/localCognito'
import { sitePaths } from '../../pipeline/steps/paths'
import { startLocalServer, type RunningServer } from './localServer'
import { portOf, SITE_PORT } from './ports'
import { outDirObjects, type SiteObjects } from './siteObjects'
import { readScriptHashesFile } from '../../edge/scriptHashesFile'
import { ACCESS_LOG_ENV } from './accessLogFile'
import type { CompiledAccess } from '../../lib/access/compileAccess'
import { access as shippedAccess } from '../../lib/access'
import { readAudiencesFile } from '../../pipeline/steps/audiencesFile'
import type { RateLimit } from '../../mcp/oauth/rateLimit'

export interface LocalStack {
  siteUrl: string
  cognitoUrl: string
  stop(): Promise<void>
}

export interface BuiltSiteOptions {
  /** The build's out/ (beside its .next/); the project's when left out. */
  outDir?: string
  /** Where the files are read: the build's out/ unless given (a bucket a deploy filled from this build, scripts/server/bucketObjects.ts). */
  objects?: SiteObjects
  /** The local Cognito the server trusts (its keys are fetched from it). */
  cognitoUrl: string
  port?: number
  accessLog?: string
  access?: CompiledAccess
  registrationRate?: RateLimit
  /** Off for a caller in a jest test file, which cannot load the AI tools' sign-in (localServer.ts says why). */
  aiToolSignIn?: boolean
}

/**
 * The site server over one build: the authorizer's inputs (asset routes, audiences, script hashes)
 * come from the build's .next/, as the edge bundle bakes them, and the files from its out/ or from
 * the bucket it was deployed to.
 */
export async function startBuiltSite(options: BuiltSiteOptions): Promise<RunningServer> {
  // A build elsewhere (the audit build) is a project root's out/, beside its own .next/.
  const paths = sitePaths(options.outDir ? path.dirname(path.resolve(options.outDir)) : undefined)
  const outDir = options.outDir ? path.resolve(options.outDir) : paths.out
  const routesFile = paths.assetRoutes
  if (!fs.existsSync(path.join(outDir, 'index.html')) || !fs.existsSync(routesFile) || !fs.existsSync(paths.audiences)) {
    throw new Error(`no built site at ${outDir} (or ${routesFile} or ${paths.audiences} is missing); run \`npm run build\` first`)
  }
  if (!fs.existsSync(paths.scriptHashes)) {
    throw new Error(`${paths.scriptHashes} is missing (the inline-script hashes of the site's Content-Security-Policy); run \`npm run build\` again`)
  }
  const auth = readAuthSettings({ DOCS_AUTH_MODE: 'local', DOCS_COGNITO_ENDPOINT: options.cognitoUrl })
  return startLocalServer({
    objects: options.objects ?? outDirObjects(outDir),
    auth,
    jwks: await fetch(`${options.cognitoUrl}/${auth.userPoolId}/.well-known/jwks.json`).then((response) => response.json()),
    assetRoutes: JSON.parse(fs.readFileSync(routesFile, 'utf8')),
    scriptHashes: readScriptHashesFile(paths.scriptHashes),
    audiences: readAudiencesFile(paths.audiences, options.access ?? shippedAccess),
    // The rules the site was built with, when they are not the shipped ones (the audit build's).
    access: options.access,
    port: options.port,
    accessLog: options.accessLog,
    registrationRate: options.registrationRate,
    aiToolSignIn: options.aiToolSignIn,
  })
}

/**
 * The embedded default: the local Cognito and the site served through the edge authorizer,
 * both on 127.0.0.1. Tests start their own on free ports (port 0).
 */
export async function startLocalStack(
  options: { outDir?: string; sitePort?: number; cognitoPort?: number; accessLog?: string; access?: CompiledAccess; registrationRate?: RateLimit } = {}
): Promise<LocalStack> {
  // Checked before anything starts: a bad PORT is named, not met as a listen error.
  const sitePort = options.sitePort ?? portOf('PORT', process.env.PORT, SITE_PORT, true)
  const cognito = await startLocalCognito({ host: LOCAL_COGNITO.host, port: options.cognitoPort ?? LOCAL_COGNITO.port, quiet: true })
  try {
    const site = await startBuiltSite({
      outDir: options.outDir,
      cognitoUrl: cognito.url,
      access: options.access,
      port: sitePort,
      // Off unless asked for, so tests and benches stay quiet; `npm start` asks for stdout.
      accessLog: options.accessLog ?? process.env[ACCESS_LOG_ENV],
      registrationRate: options.registrationRate,
    })
    return {
      siteUrl: site.url,
      cognitoUrl: cognito.url,
      stop: async () => {
        await site.stop()
        await cognito.stop()
      },
    }
  } catch (error) {
    await cognito.stop()
    throw error
  }
}
