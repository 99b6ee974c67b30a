/** @jest-environment node */
import shipped from '../../access.config'
import { assertOutBuiltUnder, readRulesFingerprint, rulesFingerprint, RulesFingerprintError, writeRulesFingerprint } from '../../edge/rulesFingerprint'
import { compileAccess } from '../../lib/access/compileAccess'
import { tempSite } from '../fixtures/tempSite'
import { invalidationWaiter, InvalidationTimeoutError } from '../../scripts/deploy/cloudFrontInvalidation'
import { parseDeployArgs } from '../../scripts/deploy/deployArgs'
import { MANIFEST_KEY } from '../../scripts/deploy/deployManifest'
import type { LocalFile } from '../../scripts/deploy/deployPlan'
import { checkUpload, needsWithdraw, RulesChangedError, type RulesRecord } from '../../scripts/deploy/rulesRecord'
import { isNoSuchStack } from '../../scripts/deploy/stackOutputs'
import { planWithdraw } from '../../scripts/deploy/withdraw'

const OLD = 'a'.repeat(64)
const NEW = 'b'.repeat(64)
const site = new Set(['index.html', MANIFEST_KEY])
const record = (rules: string | null, withdrawnFor: string | null = null, uploading = false): RulesRecord => ({ version: 1, rules, withdrawnFor, uploading })

describe('whether an upload may go ahead', () => {
  test('into an empty bucket, over files of the same rules (an upload of them cut short included), or over files withdrawn for these rules', () => {
    expect(() => checkUpload(null, NEW, new Set([MANIFEST_KEY]), 'b')).not.toThrow()
    expect(() => checkUpload(record(NEW), NEW, site, 'b')).not.toThrow()
    expect(() => checkUpload(record(NEW, null, true), NEW, site, 'b')).not.toThrow()
    expect(() => checkUpload(record(OLD, NEW), NEW, site, 'b')).not.toThrow()
    expect(() => checkUpload(record(null, NEW), NEW, site, 'b')).not.toThrow()
  })
  test('not over files of other rules, nor withdrawn for other rules, nor of unknown rules; the error names the order', () => {
    expect(() => checkUpload(record(OLD), NEW, site, 'b')).toThrow(RulesChangedError)
    expect(() => checkUpload(record(OLD), NEW, site, 'b')).toThrow(/npm run deploy -- --withdraw, then cdk deploy DocsSiteStack, then npm run deploy/)
    expect(() => checkUpload(record(NEW, OLD), NEW, site, 'b')).toThrow(/withdrawn for other rules/)
    expect(() => checkUpload(null, NEW, site, 'b')).toThrow(/no record of the rules/)
  })
  test('a withdraw has nothing to do over files of the same rules, even after an upload of them was cut short', () => {
    expect(needsWithdraw(record(NEW), NEW)).toBe(false)
    expect(needsWithdraw(record(NEW, null, true), NEW)).toBe(false)
    expect(needsWithdraw(record(OLD), NEW)).toBe(true)
    expect(needsWithdraw(record(OLD, NEW), NEW)).toBe(true)
    expect(needsWithdraw(null, NEW)).toBe(true)
  })
})

test('a withdraw deletes what the new build changes or lacks, and what the record does not know; never build code or the record', () => {
  const file = (key: string, sha = 'a'): LocalFile => ({ key, file: `/out/${key}`, bytes: 1, sha256: sha.repeat(64), contentType: 'text/plain', cacheControl: 'private, no-cache' })
  const held = [file('same.md'), file('changed.html'), file('gone.json'), file('_next/static/chunks/old-1.js'), file('_next/static/b0/_routes/a.js')]
  const manifest = { version: 1 as const, through: 0, files: Object.fromEntries(held.map(({ key, sha256, contentType, cacheControl }) => [key, { sha256, contentType, cacheControl }])), retired: {} }
  const keys = new Set([...held.map((entry) => entry.key), 'unrecorded.txt', MANIFEST_KEY])
  const local = [file('same.md'), file('changed.html', 'b'), file('unrecorded.txt'), file('new.html')]
  expect(planWithdraw(local, keys, manifest)).toEqual(['_next/static/b0/_routes/a.js', 'changed.html', 'gone.json', 'unrecorded.txt'])
  expect(planWithdraw(local, keys, null)).toEqual(['_next/static/b0/_routes/a.js', 'changed.html', 'gone.json', 'same.md', 'unrecorded.txt'])
})

test("the withdraw waits until CloudFront reports the invalidation done, and gives up naming it", async () => {
  const statuses = ['InProgress', 'InProgress', 'Completed']
  const asked: unknown[] = []
  const client = { createInvalidation: async () => ({}), getInvalidation: async (input: unknown) => (asked.push(input), { Invalidation: { Status: statuses.shift() } }) }
  await invalidationWaiter(client, 'E1', 1, 1000)('I1')
  expect(asked).toEqual(Array(3).fill({ DistributionId: 'E1', Id: 'I1' }))
  const never = { createInvalidation: async () => ({}), getInvalidation: async () => ({ Invalidation: { Status: 'InProgress' } }) }
  await expect(invalidationWaiter(never, 'E1', 1, 3)('I2')).rejects.toThrow(InvalidationTimeoutError)
})

test('--withdraw and --edge are read', () => {
  expect(parseDeployArgs(['--withdraw', '--edge', '/x/edge/dist'])).toMatchObject({ withdraw: true, edgeDir: '/x/edge/dist' })
  expect(parseDeployArgs([])).toMatchObject({ withdraw: false })
})

test("the rules fingerprint changes with a rule or an audience's folder, not with who is on a list; a missing one is named", () => {
  const config = { ...shipped, rules: [...shipped.rules] }
  const base = rulesFingerprint(compileAccess(config, {}), { '/_audiences/x/': '/' })
  expect(rulesFingerprint(compileAccess(config, { DOCS_LEADS_USERS: 'someone-else' }), { '/_audiences/x/': '/', '/_next/static/chunks/a-1.js': '/login' })).toBe(base)
  expect(rulesFingerprint(compileAccess({ ...config, rules: [{ path: '/docs/leads/x', match: 'prefix', require: 'fullAccessUsers' }, ...config.rules] }, {}), { '/_audiences/x/': '/' })).not.toBe(base)
  expect(rulesFingerprint(compileAccess(config, {}), { '/_audiences/y/': '/' })).not.toBe(base)
  // The build code's folders (an earlier build's code for open tabs) take a route the rules decide:
  // a build from before them deploys without a withdraw.
  expect(rulesFingerprint(compileAccess(config, {}), { '/_audiences/x/': '/', '/_next/static/chunks/': '/', '/_next/static/css/': '/', '/_next/static/media/': '/' })).toBe(base)
  const dir = tempSite('edge-dist-')
  expect(() => readRulesFingerprint(dir)).toThrow(RulesFingerprintError)
  writeRulesFingerprint(dir, base)
  expect(readRulesFingerprint(dir)).toBe(base)
})

test("before the stack exists, CloudFormation's answer reads as no stack (the withdraw then has nothing to do); other errors do not", () => {
  expect(isNoSuchStack(Object.assign(new Error('Stack with id DocsSiteStack does not exist'), { name: 'ValidationError' }))).toBe(true)
  expect(isNoSuchStack(new Error('The security token included in the request is expired'))).toBe(false)
})

test("out/ goes out only beside an authorizer of the rules its record names: another build's, or a record that names none, is refused", () => {
  const rules = 'a'.repeat(64)
  expect(() => assertOutBuiltUnder('/site/out', rules, '/site/edge/dist', rules)).not.toThrow()
  expect(() => assertOutBuiltUnder('/site/out', 'b'.repeat(64), '/site/edge/dist', rules)).toThrow(
    new RulesFingerprintError('/site/out was built under other rules than the authorizer in /site/edge/dist: deploy the out/ and the edge/dist of one finished build (npm run build:prod writes both)')
  )
  expect(() => assertOutBuiltUnder('/site/out', null, '/site/edge/dist', rules)).toThrow('/site/out has no record of a finished build that names its rules')
})
