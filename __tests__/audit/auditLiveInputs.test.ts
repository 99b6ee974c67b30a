/**
 * @jest-environment node
 *
 * `npm run audit:live` given a wrong site or sign-in: each error names what failed and where, not
 * `fetch failed` or Amplify's bare "A network error has occurred." (the audit of a running site
 * is e2e/auditLive.test.ts).
 */
import { spawn } from 'node:child_process'
import fs from 'node:fs'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import os from 'node:os'
import path from 'node:path'
import { freePort } from '../../scripts/audit/buildAuditSite'

jest.setTimeout(60_000)
const ROOT = path.resolve(__dirname, '../..')
let work: string

beforeAll(() => {
  // The deployed build's out/ and asset routes, as far as the audit reads them before it fetches.
  work = fs.mkdtempSync(path.join(os.tmpdir(), 'audit-live-inputs-'))
  fs.mkdirSync(path.join(work, 'out'))
  fs.writeFileSync(path.join(work, 'out/index.html'), '<html></html>')
  fs.writeFileSync(path.join(work, 'routes.json'), '{}')
})
afterAll(() => fs.rmSync(work, { recursive: true, force: true }))

function audit(url: string, env: Record<string, string> = {}): Promise<{ status: number | null; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [path.join(ROOT, 'node_modules/tsx/dist/cli.mjs'), 'scripts/audit/auditLive.ts', url, '--out', path.join(work, 'out'), '--routes', path.join(work, 'routes.json')], {
      cwd: ROOT,
      env: { ...process.env, AUDIT_CREDENTIALS: JSON.stringify({ leads1: 'docs-local-pass' }), ...env },
    })
    let stderr = ''
    child.stderr.on('data', (chunk) => (stderr += chunk))
    child.on('close', (status) => resolve({ status, stderr }))
  })
}

test('a site URL with a path is refused, naming the form it takes', async () => {
  expect(await audit('http://127.0.0.1:9/docs')).toMatchObject({ status: 2, stderr: expect.stringContaining("audit:live: the site's URL is its origin, like https://docs.example.com; http://127.0.0.1:9/docs has a path") })
})

test('a site that cannot be reached is named, with the reason', async () => {
  const port = freePort()
  expect(await audit(`http://127.0.0.1:${port}`)).toMatchObject({ status: 2, stderr: expect.stringContaining(`audit:live: http://127.0.0.1:${port}/login cannot be reached (ECONNREFUSED)`) })
})

test('a sign-in service that cannot be reached is named with the user and the pool, and how to audit a deployed site', async () => {
  const site = http.createServer((_request, response) => response.end('<html>sign in</html>'))
  await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve))
  try {
    const { port } = site.address() as AddressInfo
    const cognito = freePort()
    const run = await audit(`http://127.0.0.1:${port}`, { DOCS_COGNITO_ENDPOINT: `http://127.0.0.1:${cognito}` })
    expect(run.status).toBe(2)
    expect(run.stderr).toContain(`audit:live: signing in as leads1 at the local Cognito at http://127.0.0.1:${cognito} failed:`)
    expect(run.stderr).toContain('set DOCS_AUTH_MODE=production and its DOCS_COGNITO_* settings')
  } finally {
    site.close()
  }
})
