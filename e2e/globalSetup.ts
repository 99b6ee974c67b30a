import fs from 'node:fs'
import path from 'node:path'
import { AUDIT_COGNITO_PORT, AUDIT_SITE_FILE, buildAuditSite, freePort, type AuditSite } from '../scripts/audit/buildAuditSite'
import type { LocalStack } from '../scripts/server/startStack'

declare global {
  // eslint-disable-next-line no-var
  var __E2E_STACK__: LocalStack | undefined
}

/** Starts the local Cognito and the authorizing server over the audit build, once for all browser and audit tests. */
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
  process.env.AUDIT_SITE_DIR = dir
  process.env.E2E_SITE_URL = stack.siteUrl
  process.env.E2E_COGNITO_URL = stack.cognitoUrl
}
