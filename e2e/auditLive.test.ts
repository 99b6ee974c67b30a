/**
 * `npm run audit:live` against the local stack (as ops would run it against a deployed site), and
 * against misconfigured servers, which it must catch: one that serves a protected file to anyone,
 * one whose public page names a protected page's title.
 */
import { spawn } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import { readAuthSettings } from '../lib/auth/authSettings'
import { startLocalServer } from '../scripts/server/localServer'
import { outDirObjects, type SiteObjects } from '../scripts/server/siteObjects'
import { readScriptHashesFile } from '../edge/scriptHashesFile'
import { sitePaths } from '../pipeline/steps/paths'
import { PASSWORD, siteEnv } from './siteEnv'

const { dir, outDir, siteUrl, cognitoUrl, access, audiences } = siteEnv()
const ROOT = path.resolve(__dirname, '..')
const routesFile = path.join(dir, '.next/asset-routes.json')

function auditLive(url: string): Promise<{ status: number | null; stdout: string }> {
  return new Promise((resolve) => {
    // From the audit build's copy, so the audit reads the access configuration that build was made with.
    const child = spawn(process.execPath, [path.join(ROOT, 'node_modules/tsx/dist/cli.mjs'), 'scripts/audit/auditLive.ts', url, '--out', outDir, '--routes', routesFile], {
      cwd: dir,
      env: {
        ...process.env,
        DOCS_AUTH_MODE: 'local',
        DOCS_COGNITO_ENDPOINT: cognitoUrl,
        AUDIT_CREDENTIALS: JSON.stringify({ leads1: PASSWORD, admin: PASSWORD, supportlead: PASSWORD, support1: PASSWORD }),
      },
    })
    let stdout = ''
    child.stdout.on('data', (chunk) => (stdout += chunk))
    child.on('close', (status) => resolve({ status, stdout }))
  })
}

test('the local stack passes the live audit: every role is served exactly what the rules allow, and nothing leaks', async () => {
  const run = await auditLive(siteUrl)
  expect(run.stdout).toContain('audit:live: no findings')
  expect(run.stdout).toMatch(/^leads1\s+\d+\s+\d+\s+0\s+0\s+0\s+0\s+0\s+0\s+0$/m)
  expect(run.status).toBe(0)
}, 120_000)

/** The local server over the audit build's files, as `objects` gives them, and as `assetRoutes` maps them. */
async function serverOf(objects: SiteObjects, assetRoutes: Record<string, string>) {
  const jwks = await fetch(`${cognitoUrl}/eu-west-2_LocalDocs/.well-known/jwks.json`).then((response) => response.json())
  return startLocalServer({
    objects,
    auth: readAuthSettings({ DOCS_AUTH_MODE: 'local', DOCS_COGNITO_ENDPOINT: cognitoUrl }),
    jwks,
    assetRoutes,
    scriptHashes: readScriptHashesFile(sitePaths(dir).scriptHashes),
    audiences,
    access,
    port: 0,
    // Pages and files only: the AI tools' sign-in (an ES-module library jest cannot load) is not under test here.
    aiToolSignIn: false,
  })
}

test("a page anyone may fetch that names a protected page's title fails the live audit, which names the title, its page and the file", async () => {
  const assetRoutes = JSON.parse(fs.readFileSync(routesFile, 'utf8')) as Record<string, string>
  const title = /<title[^>]*>([^<]*) – /.exec(fs.readFileSync(path.join(outDir, 'docs/internal/intro.html'), 'utf8'))![1]
  const built = outDirObjects(outDir)
  // The mistake: the sign-in page carries the internal section's first page's title, as a leaked page map would.
  const objects: SiteObjects = {
    where: built.where,
    async read(objectKey) {
      const object = await built.read(objectKey)
      return object && objectKey === '/login.html' ? { ...object, body: Buffer.from(object.body.toString('utf8').replace('</body>', `<div hidden>${title}</div></body>`)) } : object
    },
  }
  const misconfigured = await serverOf(objects, assetRoutes)
  try {
    const run = await auditLive(misconfigured.url)
    expect(run.status).toBe(1)
    expect(run.stdout).toContain(`anonymous: foreign title: "${title}" (/docs/internal/intro) in /login.html`)
    expect(run.stdout).toContain(`leads1: foreign title: "${title}" (/docs/internal/intro) in /login.html`)
    expect(run.stdout).not.toContain(`admin: foreign title`)
  } finally {
    await misconfigured.stop()
  }
}, 120_000)

test('a server that serves one protected file to anyone fails the live audit, which names the file', async () => {
  const assetRoutes = JSON.parse(fs.readFileSync(routesFile, 'utf8')) as Record<string, string>
  const [build] = fs.readdirSync(path.join(outDir, '_next/data'))
  const leakedKey = `/_next/data/${build}/docs/internal/intro.json`
  // The mistake: the internal intro page's data is mapped to the sign-in page's rule.
  const misconfigured = await serverOf(outDirObjects(outDir), { ...assetRoutes, [leakedKey]: '/login' })
  try {
    const run = await auditLive(misconfigured.url)
    expect(run.status).toBe(1)
    expect(run.stdout).toContain(`anonymous: served, but the rules refuse it: ${leakedKey}`)
    expect(run.stdout).toContain(`leads1: served, but the rules refuse it: ${leakedKey}`)
    expect(run.stdout).toMatch(/audit:live: \d+ finding\(s\)/)
  } finally {
    await misconfigured.stop()
  }
}, 120_000)
