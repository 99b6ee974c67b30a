/**
 * @jest-environment node
 *
 * What goes to AWS is built for the real user pool (lib/auth/builtFor.ts): an authorizer built for
 * the local Cognito trusts tokens anyone can sign with cognito-local's published key. `npm run
 * deploy` and `npm run deploy:access` refuse one before they touch a bucket or a stack, as an ops
 * person runs them.
 */
import { spawnSync } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { assertOutBuiltFor, BuiltForError, poolOf, writeBuiltFor, type BuiltFor } from '../../lib/auth/builtFor'
import { readOut, readOutRecordHeader } from '../../pipeline/steps/outRecord'
import { writeRulesFingerprint } from '../../edge/rulesFingerprint'

jest.setTimeout(60_000)

const ROOT = path.resolve(__dirname, '../..')
const LOCAL: BuiltFor = { mode: 'local', region: 'eu-west-2', userPoolId: 'eu-west-2_LocalDocs' }
const PRODUCTION: BuiltFor = { mode: 'production', region: 'eu-west-2', userPoolId: 'eu-west-2_Real12345' }
let work: string

beforeEach(() => {
  work = fs.mkdtempSync(path.join(os.tmpdir(), 'docs-built-for-'))
  fs.mkdirSync(path.join(work, 'edge/dist'), { recursive: true })
})
afterEach(() => fs.rmSync(work, { recursive: true, force: true }))

/** A script of the project run as npm runs it, from `work` and with only `env` of the DOCS_* settings. */
function run(script: string, args: string[], env: Record<string, string> = {}) {
  // No AWS reachable: a deploy that got past the check would fail on its first request, not pass.
  const childEnv: NodeJS.ProcessEnv = { ...process.env, AWS_ACCESS_KEY_ID: 'none', AWS_SECRET_ACCESS_KEY: 'none', AWS_REGION: 'us-east-1', AWS_MAX_ATTEMPTS: '1' }
  for (const name of Object.keys(childEnv)) if (name.startsWith('DOCS_')) delete childEnv[name]
  return spawnSync(process.execPath, ['--require', path.join(ROOT, 'node_modules/tsx/dist/cjs/index.cjs'), path.join(ROOT, script), ...args], {
    cwd: work,
    encoding: 'utf8',
    env: { ...childEnv, ...env },
    timeout: 50_000,
  })
}

const deploy = (...args: string[]) => run('scripts/deploy/deploySite.ts', ['--bucket', 'docs-site-bucket', '--edge', path.join(work, 'edge/dist'), ...args])

test('npm run deploy refuses a site built for the local Cognito, and one that does not say what it was built for', () => {
  writeBuiltFor(path.join(work, 'edge/dist'), LOCAL)
  for (const extra of [[], ['--withdraw'], ['--endpoint', 'https://s3.eu-west-2.amazonaws.com']]) {
    const refused = deploy(...extra)
    expect(refused.status).toBe(1)
    expect(refused.stderr).toContain(`deploy: refused: ${path.join(work, 'edge/dist')} was built for the local Cognito (npm run build)`)
    expect(refused.stderr).toContain('npm run build:prod')
  }
  fs.rmSync(path.join(work, 'edge/dist/user-pool.json'))
  expect(deploy().stderr).toMatch(/deploy: refused: .* has no user-pool\.json .*npm run build:prod/)
})

test('npm run deploy takes a local build to a bucket on this machine (a test\'s), and a production build anywhere', () => {
  writeBuiltFor(path.join(work, 'edge/dist'), LOCAL)
  // Past the check, each stops at the next thing it needs: the rules the authorizer was built with.
  expect(deploy('--endpoint', 'http://127.0.0.1:9')).toMatchObject({ status: 1, stderr: expect.stringMatching(/rules-fingerprint\.txt/) })
  writeBuiltFor(path.join(work, 'edge/dist'), PRODUCTION)
  expect(deploy()).toMatchObject({ status: 1, stderr: expect.stringMatching(/rules-fingerprint\.txt/) })
})

test("npm run deploy refuses an out/ whose sign-in was built for another pool than its authorizer (the edge bundle built again alone for production, over a local build's out/)", () => {
  const edge = path.join(work, 'edge/dist')
  const outDir = path.join(work, 'out')
  fs.mkdirSync(outDir)
  fs.writeFileSync(path.join(outDir, 'index.html'), '<p>home</p>')
  // The record step names the pool of the edge bundle built beside out/.
  readOut(outDir).write('b1', 'a'.repeat(64), poolOf(LOCAL))
  expect(readOutRecordHeader(outDir)?.pool).toBe('local eu-west-2_LocalDocs')
  writeBuiltFor(edge, PRODUCTION)
  expect(() => assertOutBuiltFor(outDir, readOutRecordHeader(outDir)?.pool ?? null, edge)).toThrow(
    new BuiltForError(`${outDir} was built for the user pool "local eu-west-2_LocalDocs" and the authorizer in ${edge} for "production eu-west-2_Real12345": deploy the out/ and the edge/dist of one finished build (npm run build:prod writes both)`)
  )
  expect(() => assertOutBuiltFor(outDir, null, edge)).toThrow(`${outDir} has no record of the user pool its sign-in was built for`)
  expect(() => assertOutBuiltFor(outDir, poolOf(PRODUCTION), edge)).not.toThrow()
  // As an ops person runs it: refused before any bucket is touched.
  writeRulesFingerprint(edge, 'a'.repeat(64))
  expect(deploy()).toMatchObject({ status: 1, stderr: expect.stringContaining(`${outDir} was built for the user pool "local eu-west-2_LocalDocs"`) })
})

test('npm run deploy:access refuses an option it does not have, before anything: a `--dry-run` would have deployed', () => {
  for (const args of [['--dry-run'], ['--no-deploy', '--bogus'], ['extra']]) {
    const refused = run('scripts/deploy/deployAccess.ts', args)
    expect([args, refused.status]).toEqual([args, 1])
    expect(refused.stderr).toMatch(/^deploy:access: (Unknown option|Unexpected argument)/m)
  }
  // The stack's settings, as cdk deploy takes them (it deploys the stack again whole): key=value, or refused.
  expect(run('scripts/deploy/deployAccess.ts', ['-c', 'domainName'])).toMatchObject({ status: 1, stderr: expect.stringContaining('deploy:access: -c domainName: a stack setting is -c key=value') })
  expect(run('scripts/deploy/deployAccess.ts', ['--no-deploy', '-c', 'waf=on', '--context', 'domainName=docs.example.com']).stderr).not.toMatch(/Unknown option|stack setting/)
})

test('npm run deploy:access refuses to deploy an authorizer for the local Cognito, or to rebuild one for another pool', () => {
  const refused = run('scripts/deploy/deployAccess.ts', [])
  expect(refused.status).toBe(1)
  expect(refused.stderr).toContain('deploy:access: it deploys to AWS, so it builds the authorizer for the real user pool: set DOCS_AUTH_MODE=production')
  writeBuiltFor(path.join(work, 'edge/dist'), PRODUCTION)
  // Rebuilding for the local Cognito over the deployed build's authorizer would ship it at the next cdk deploy.
  const other = run('scripts/deploy/deployAccess.ts', ['--no-deploy'])
  expect(other.status).toBe(1)
  expect(other.stderr).toContain('deploy:access: edge/dist was built for eu-west-2_Real12345 (production), and these settings are for eu-west-2_LocalDocs (local)')
  // Built for the same pool, it goes on to the build's files, which this folder lacks.
  const same = run('scripts/deploy/deployAccess.ts', ['--no-deploy'], { DOCS_AUTH_MODE: 'production', DOCS_COGNITO_USER_POOL_ID: PRODUCTION.userPoolId, DOCS_COGNITO_CLIENT_ID: 'abcdefghijklmnopqrstuvwxyz' })
  expect(same.stderr).toContain('asset-routes.json is missing: build the site that is deployed first')
})
