import fs from 'node:fs'
import path from 'node:path'
import { AUDIT_COGNITO_PORT, AUDIT_SITE_FILE, buildAuditSite, freePort, type AuditSite } from '../scripts/audit/buildAuditSite'
import type { LocalStack } from '../scripts/server/startStack'
import type { RunningServer } from '../scripts/server/localServer'
import type { LocalS3 } from '../scripts/deploy/localS3'

declare global {
  // eslint-disable-next-line no-var
  var __E2E_STACK__: LocalStack | undefined
  // eslint-disable-next-line no-var
  var __E2E_BUCKET__: LocalS3 | undefined
  // eslint-disable-next-line no-var
  var __E2E_BUCKET_SITE__: RunningServer | undefined
}

/**
 * Starts the local Cognito and the authorizing server over the audit build, and a second server
 * over the bucket that build was deployed to, once for all browser and audit tests.
 */
export default async function globalSetup() {
  const root = path.resolve(__dirname, '..')
  let dir = process.env.AUDIT_SITE_DIR
  if (!dir || !fs.existsSync(path.join(dir, 'out', 'index.html'))) {
    dir = dir ?? path.join(require('node:os').tmpdir(), 'docs-audit-site')
    console.log(`\nBuilding the audit site in ${dir} …`)
    buildAuditSite(root, dir, freePort())
  }
  const siteFile = path.join(dir, AUDIT_SITE_FILE)
  const site: Partial<AuditSite> = fs.existsSync(siteFile) ? JSON.parse(fs.readFileSync(siteFile, 'utf8')) : {}
  // The server and the tests decide with the lists the audit build saw (access.config.ts reads
  // these when first imported, so they are set before the server's modules load).
  Object.assign(process.env, site.accessEnv ?? {})
  const { startLocalStack } = await import('../scripts/server/startStack')
  const { compileAccess } = await import('../lib/access/compileAccess')
  // The rules the audit build was made with (the shipped ones and finer ones), as its edge bundle has them.
  const access = site.accessConfig ? compileAccess(site.accessConfig, process.env) : undefined
  // The browser tests and the leak audit register hundreds of tools from 127.0.0.1, far past the
  // real limit per address (REGISTRATION_RATE), which __tests__/mcp/oauth/registration.test.ts tests.
  const registrationRate = { limit: 100_000, windowSeconds: 300 }
  const stack = await startLocalStack({ outDir: path.join(dir, 'out'), sitePort: 0, cognitoPort: site.cognitoPort ?? AUDIT_COGNITO_PORT, access, registrationRate })
  globalThis.__E2E_STACK__ = stack
  // What ships: the same build deployed to a bucket by `npm run deploy`'s code, served from the
  // bucket through the same authorizer, with the same Cognito (e2e/fixtures/deployedBucket.ts).
  const { deployAuditBuild } = await import('./fixtures/deployedBucket')
  const { startBuiltSite } = await import('../scripts/server/startStack')
  const { bucketObjects } = await import('../scripts/server/bucketObjects')
  const { s3, deployed } = await deployAuditBuild(dir)
  globalThis.__E2E_BUCKET__ = s3
  const bucketSite = await startBuiltSite({ outDir: path.join(dir, 'out'), objects: bucketObjects(s3.client, deployed.bucket), cognitoUrl: stack.cognitoUrl, port: 0, access, registrationRate })
  globalThis.__E2E_BUCKET_SITE__ = bucketSite
  process.env.AUDIT_SITE_DIR = dir
  process.env.E2E_SITE_URL = stack.siteUrl
  process.env.E2E_COGNITO_URL = stack.cognitoUrl
  process.env.E2E_BUCKET = JSON.stringify({ ...deployed, siteUrl: bucketSite.url })
}
