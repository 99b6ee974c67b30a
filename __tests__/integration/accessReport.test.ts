/** @jest-environment node */
/** `npm run access:report` as an admin runs it: against the local Cognito, and across a git revision. */
import { execFileSync, spawn } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { LOCAL_COGNITO } from '../../lib/auth/authSettings'
import { copyProject } from '../../scripts/audit/copyProject'
import { startLocalCognito, type LocalCognito } from '../../scripts/cognito/localCognito'

jest.setTimeout(60_000)
const ROOT = path.resolve(__dirname, '../..')
let cognito: LocalCognito

beforeAll(async () => {
  cognito = await startLocalCognito({ host: '127.0.0.1', port: 0, quiet: true })
})
afterAll(async () => {
  await cognito?.stop()
})

/** Runs the command without blocking this process, whose event loop serves the local Cognito. */
function report(args: string[], env: Record<string, string> = {}, cwd = ROOT): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [path.join(ROOT, 'node_modules/tsx/dist/cli.mjs'), 'scripts/access/report.ts', ...args], { cwd, env: { ...process.env, ...env } })
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (chunk) => (stdout += chunk))
    child.stderr.on('data', (chunk) => (stderr += chunk))
    child.on('close', (status) => resolve({ status, stdout, stderr }))
  })
}

test('a typo in a list and a disabled user who is still listed are flagged against the local Cognito (exit 2)', async () => {
  await fetch(cognito.url, {
    method: 'POST',
    headers: { 'content-type': 'application/x-amz-json-1.1', 'x-amz-target': 'AWSCognitoIdentityProviderService.AdminDisableUser' },
    body: JSON.stringify({ UserPoolId: LOCAL_COGNITO.userPoolId, Username: 'internal1' }),
  })
  const run = await report(['--endpoint', cognito.url, '--json'], { DOCS_LEADS_USERS: 'leads1, leeds2' })
  expect(run.status).toBe(2)
  const { pool, entries } = JSON.parse(run.stdout)
  expect(pool.source).toBe(`the local Cognito at ${cognito.url}`)
  expect(pool.found.unknownEntries).toEqual([{ kind: 'user', name: 'leeds2' }])
  expect(pool.found.disabledButListed).toEqual(['internal1'])
  expect(pool.found.usersWithNothing).toEqual(expect.arrayContaining(['leads2', 'outsider']))
  expect(entries.find((entry: { name: string }) => entry.name === 'leeds2').opens).toEqual(['Leads API'])
})

test('a mistake in the configuration is said in one line, naming it, with no stack (exit 1)', async () => {
  const run = await report(['--no-pool'], { DOCS_LEADS_USERS: 'leads1, leads 2' })
  expect(run.status).toBe(1)
  expect(run.stderr.trim()).toBe('access:report: DOCS_LEADS_USERS (set in place of list "leadsUsers" of access.config.ts): list "leadsUsers" has an entry containing whitespace: "leads 2"')
})

test('the table for a terminal, and a clean configuration exits 0', async () => {
  const run = await report(['--no-pool'])
  expect(run.status).toBe(0)
  expect(run.stdout).toMatch(/entry\s+Leads API\s+Internal\s+Twilio support\s+Other pages/)
  expect(run.stdout).toMatch(/group support-team\s+-\s+-\s+yes\s+-/)
})

test('--diff names who gained and who lost, between a revision and the working tree', async () => {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'access-diff-'))
  try {
    copyProject(ROOT, work)
    const git = (...args: string[]) => execFileSync('git', ['-c', 'user.email=t@t', '-c', 'user.name=t', ...args], { cwd: work, stdio: 'pipe' })
    git('init', '-q')
    git('add', 'access.config.ts', 'lib')
    git('commit', '-qm', 'before')
    const file = path.join(work, 'access.config.ts')
    fs.writeFileSync(file, fs.readFileSync(file, 'utf8').replace("'leads1, leads2, leads3, leads4, leads5'", "'leads1, leads2, leads3, leads4, newpartner'"))
    const run = await report(['--no-pool', '--diff', 'HEAD'], {}, work)
    expect(run.status).toBe(0)
    expect(run.stdout).toContain('Changes since HEAD:\n  user leads5 loses Leads API\n  user newpartner gains Leads API')
    expect(await report(['--no-pool', '--diff', 'nosuchrev'], {}, work)).toMatchObject({ status: 64, stderr: expect.stringContaining('no access.config.ts at revision "nosuchrev"') })
  } finally {
    fs.rmSync(work, { recursive: true, force: true })
  }
})

test('rules the build would refuse are named, after the table, and it exits 3', async () => {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'access-refused-'))
  try {
    copyProject(ROOT, work)
    const file = path.join(work, 'access.config.ts')
    const rules = "rules: [{ path: '/docs/internal/no-such-page', match: 'exact', require: 'fullAccessUsers' }, { path: '/', match: 'exact', require: 'signedIn' }],"
    fs.writeFileSync(file, fs.readFileSync(file, 'utf8').replace("rules: [{ path: '/', match: 'exact', require: 'signedIn' }],", rules))
    const run = await report(['--no-pool'], {}, work)
    expect(run.status).toBe(3)
    expect(run.stdout).toMatch(/entry\s+Leads API/)
    expect(run.stderr).toContain('access:report: the build refuses these sections and rules of access.config.ts:\n  - rule "exact /docs/internal/no-such-page')
    expect(run.stderr).toContain('matches no page or file')
    // With a list entry the pool lacks too, the pool's 2 stands, and the rules are still named.
    const both = await report(['--endpoint', cognito.url], { DOCS_LEADS_USERS: 'leads1, leeds2' }, work)
    expect(both.status).toBe(2)
    expect(both.stderr).toContain('access:report: the build refuses these sections and rules of access.config.ts:')
  } finally {
    fs.rmSync(work, { recursive: true, force: true })
  }
})
