/**
 * @jest-environment node
 *
 * A deploy with nothing to do reads two small records of the bucket and the first line of the
 * build's record of out/, whatever the size of the site: no listing, no manifest, no change
 * record, no file of out/, no write (scripts/deploy/deploySeal.ts). Everything else still
 * reaches the bucket: an edit, a deploy cut short, a file kept for open tabs falling due, a
 * change of rules, a withdraw, a hand-made change found by `--list`. Against a real S3 API
 * (s3rver on 127.0.0.1).
 */
import fs from 'node:fs'
import path from 'node:path'
import { DeleteObjectCommand, GetObjectCommand, ListObjectsV2Command, PutObjectCommand } from '@aws-sdk/client-s3'
import { outRecordFileFor, readOut, setOutRecordAside } from '../../pipeline/steps/outRecord'
import { readRecord } from '../../scripts/deploy/deployRecord'
import { LEASE_KEY } from '../../scripts/deploy/deployLease'
import { SEAL_KEY } from '../../scripts/deploy/deploySeal'
import { startLocalS3, type LocalS3 } from '../../scripts/deploy/localS3'
import { RulesChangedError } from '../../scripts/deploy/rulesRecord'
import { runDeploy, type DeployOptions } from '../../scripts/deploy/runDeploy'
import { s3SiteBucket } from '../../scripts/deploy/s3Bucket'
import { runWithdraw } from '../../scripts/deploy/withdraw'
import { tempSite } from '../fixtures/tempSite'

jest.setTimeout(60_000)

let s3: LocalS3
beforeAll(async () => (s3 = await startLocalS3()))
afterAll(() => s3.stop())

const HOUR = 3_600_000
/** A deploy with work reads the seal and rules record, then takes the lease (a read, then a conditional write), reads them again under it, and reads the lease before it lets it go. */
const UNDER_LEASE_READS = [`GET ${LEASE_KEY}`, `GET ${LEASE_KEY}`, 'GET _deploy/rules', 'GET _deploy/rules', `GET ${SEAL_KEY}`, `GET ${SEAL_KEY}`]
const BUILT_AT = Math.floor(Date.now() / 1000) - 3600
const FILES = {
  'index.html': '<html>home</html>',
  'docs/intro.html': '<html>intro</html>',
  '_next/static/chunks/main-0123456789abcdef.js': 'console.log(1)',
}
let sites = 0

/** Every object of a bucket but the deploy's record: its bytes and the headers stored with it. */
async function objectsOf(bucket: string): Promise<Record<string, string>> {
  const listed = await s3.client.send(new ListObjectsV2Command({ Bucket: bucket }))
  const held: Record<string, string> = {}
  for (const { Key } of listed.Contents ?? []) {
    if (!Key || Key.startsWith('_deploy/')) continue
    const object = await s3.client.send(new GetObjectCommand({ Bucket: bucket, Key }))
    held[Key] = `${object.ContentType} | ${object.CacheControl} | ${await object.Body!.transformToString()}`
  }
  return held
}

/** out/ as a finished build left it, with its record, and an empty bucket of its own. */
async function builtSite() {
  const root = tempSite('seal-', Object.fromEntries(Object.entries(FILES).map(([key, text]) => [`out/${key}`, text])))
  const outDir = path.join(root, 'out')
  for (const key of Object.keys(FILES)) fs.utimesSync(path.join(outDir, key), BUILT_AT, BUILT_AT)
  setOutRecordAside(outDir)
  readOut(outDir).write('b1')
  const name = `seal-${++sites}`
  await s3.createBucket(name)
  const bucket = s3SiteBucket(s3.client, name)
  /** A rebuild: the record set aside, files written or removed (null), the record written last. */
  const rebuild = (edits: Record<string, string | null>) => {
    setOutRecordAside(outDir)
    for (const [key, text] of Object.entries(edits)) {
      if (text === null) fs.rmSync(path.join(outDir, key))
      else fs.writeFileSync(path.join(outDir, key), text)
    }
    readOut(outDir).write('b2')
  }
  /** One deploy, and every request it made. */
  const deploy = async (options: Partial<DeployOptions> = {}) => {
    const from = await s3.requestsSoFar()
    const result = await runDeploy({ outDir, bucket, graceMs: 0, rules: 'r1', ...options })
    await s3.settled()
    return { result, requests: s3.requests.slice(from).map((request) => `${request.method} ${request.path.slice(name.length + 2)}${request.listPrefix !== undefined ? `?list=${request.listPrefix}` : ''}`) }
  }
  const holds = async (key: string) => {
    try {
      await s3.client.send(new GetObjectCommand({ Bucket: name, Key: key }))
      return true
    } catch {
      return false
    }
  }
  /** The same out/ deployed into a new, empty bucket: what the bucket should hold, and the record it should have. */
  const clean = async () => {
    const other = `seal-clean-${++sites}`
    await s3.createBucket(other)
    const otherBucket = s3SiteBucket(s3.client, other)
    await runDeploy({ outDir, bucket: otherBucket, graceMs: 0, rules: 'r1' })
    return { objects: await objectsOf(other), files: (await readRecord(otherBucket, await otherBucket.listKeys('_deploy/'))).manifest!.files }
  }
  const state = async () => ({ objects: await objectsOf(name), files: (await readRecord(bucket, await bucket.listKeys('_deploy/'))).manifest!.files })
  return { outDir, name, bucket, rebuild, deploy, holds, clean, state }
}

test('with nothing to do, a deploy reads the seal and the rules record, and nothing else', async () => {
  const site = await builtSite()
  expect((await site.deploy()).result.uploaded).toBe(3)
  // out/ is not needed: a deploy that read any file of it would fail.
  fs.renameSync(site.outDir, `${site.outDir}-aside`)
  fs.mkdirSync(site.outDir)
  // The record beside out/ is read no further than its first line: the rest damaged, still nothing to do.
  const record = outRecordFileFor(site.outDir)
  fs.writeFileSync(record, fs.readFileSync(record, 'utf8').split('\n')[0] + '\n{damaged')
  const idle = await site.deploy()
  expect(idle.result).toMatchObject({ fromBuild: 'b1', plan: null, uploaded: 0, deleted: 0, invalidatedPaths: [] })
  expect(idle.requests.sort()).toEqual(['GET _deploy/rules', `GET ${SEAL_KEY}`])
})

test('an edit is deployed past the seal, and the deploy seals the bucket again', async () => {
  const site = await builtSite()
  await site.deploy()
  site.rebuild({ 'docs/intro.html': '<html>intro, edited</html>' })
  const edit = await site.deploy()
  expect(edit.result.uploaded).toBe(1)
  // Under the bucket's lease (./deployLease.ts), the seal goes (a batch delete is a POST to the bucket) before the first write, and comes back after the last.
  expect(edit.requests.filter((request) => !request.startsWith('GET'))).toEqual([`PUT ${LEASE_KEY}`, 'POST ', 'PUT _deploy/rules', 'PUT docs/intro.html', 'PUT _deploy/change-000002', 'PUT _deploy/rules', `PUT ${SEAL_KEY}`, 'POST '])
  expect((await site.deploy()).requests).toHaveLength(2)
})

test("after edits, the deploy uploads what the build's delta names, reads neither record whole, and leaves the bucket as a clean deploy does", async () => {
  const site = await builtSite()
  await site.deploy()
  site.rebuild({ 'docs/intro.html': '<html>intro, edited</html>', 'docs/added.html': '<html>added</html>' })
  // A second build before the deploy: the delta runs on from the build the bucket holds.
  site.rebuild({ 'index.html': '<html>home, edited</html>', '_next/static/chunks/main-0123456789abcdef.js': null, '_next/static/chunks/main-fedcba9876543210.js': 'console.log(2)' })
  const edit = await site.deploy()
  expect(edit.result.uploaded).toBe(4)
  expect(edit.result.deleted).toBe(1)
  // No listing, no manifest or change record read: the seal and the rules record (read again under the lease), then writes only.
  expect(edit.requests.filter((request) => request.startsWith('GET')).sort()).toEqual(UNDER_LEASE_READS)
  expect(await site.state()).toEqual(await site.clean())
  expect((await site.deploy()).result.plan).toBeNull()
  // The next edit runs from the build this deploy left.
  site.rebuild({ 'docs/added.html': null, 'docs/intro.html': '<html>intro, edited again</html>' })
  const next = await site.deploy()
  expect(next.result).toMatchObject({ uploaded: 1, deleted: 1 })
  expect(next.requests.filter((request) => request.startsWith('GET')).sort()).toEqual(UNDER_LEASE_READS)
  expect(await site.state()).toEqual(await site.clean())
})

test('a deploy cut short leaves no seal, and the next one finishes the upload', async () => {
  const site = await builtSite()
  await site.deploy()
  site.rebuild({ 'docs/intro.html': '<html>intro, edited</html>', 'index.html': '<html>home, edited</html>' })
  await s3.refuse({ method: 'PUT', path: `/${site.name}/index.html` })
  try {
    await expect(site.deploy({ concurrency: 1 })).rejects.toThrow()
  } finally {
    await s3.refuse(null)
  }
  expect(await site.holds(SEAL_KEY)).toBe(false)
  const next = await site.deploy()
  expect(next.result.plan).not.toBeNull()
  expect(next.result.uploaded).toBeGreaterThanOrEqual(1)
  expect(await site.holds(SEAL_KEY)).toBe(true)
})

test('a file kept for open tabs is deleted once it falls due, though the seal names the same build', async () => {
  const site = await builtSite()
  const start = Date.now()
  await site.deploy({ graceMs: HOUR, now: () => new Date(start) })
  site.rebuild({ '_next/static/chunks/main-0123456789abcdef.js': null, '_next/static/chunks/main-fedcba9876543210.js': 'console.log(2)' })
  expect((await site.deploy({ graceMs: HOUR, now: () => new Date(start) })).result.deleted).toBe(0)
  expect((await site.deploy({ graceMs: HOUR, now: () => new Date(start + HOUR / 2) })).result.plan).toBeNull()
  const due = await site.deploy({ graceMs: HOUR, now: () => new Date(start + 2 * HOUR) })
  expect(due.result.deleted).toBe(1)
  expect(await site.holds('_next/static/chunks/main-0123456789abcdef.js')).toBe(false)
  expect((await site.deploy({ graceMs: HOUR, now: () => new Date(start + 2 * HOUR) })).result.plan).toBeNull()
})

test('new rules are refused though the seal names the same build; a withdraw breaks the seal', async () => {
  const site = await builtSite()
  await site.deploy()
  await expect(site.deploy({ rules: 'r2' })).rejects.toThrow(RulesChangedError)
  await runWithdraw({ outDir: site.outDir, bucket: site.bucket, rules: 'r2' })
  expect(await site.holds(SEAL_KEY)).toBe(false)
  const upload = await site.deploy({ rules: 'r2' })
  expect(upload.result.plan).not.toBeNull()
  expect((await site.deploy({ rules: 'r2' })).result.plan).toBeNull()
})

test('--list does not trust the seal, and a seal that is not one is not trusted either', async () => {
  const site = await builtSite()
  await site.deploy()
  await s3.client.send(new DeleteObjectCommand({ Bucket: site.name, Key: 'index.html' }))
  expect((await site.deploy()).result.uploaded).toBe(0)
  expect((await site.deploy({ fullListing: true })).result.uploaded).toBe(1)
  await s3.client.send(new PutObjectCommand({ Bucket: site.name, Key: SEAL_KEY, Body: '{"version":1}' }))
  const checked = await site.deploy()
  expect(checked.result.plan).not.toBeNull()
  expect(checked.result.uploaded).toBe(0)
  // Nothing to do, found the long way: the seal is written again, so the next deploy is short.
  expect(checked.requests.filter((request) => !request.startsWith('GET'))).toEqual([`PUT ${LEASE_KEY}`, `PUT ${SEAL_KEY}`, 'POST '])
  expect((await site.deploy()).result.plan).toBeNull()
})

test("a damaged seal only spares no work: the deploy compares every file and seals the bucket anew; a damaged rules record is named with what to do", async () => {
  const site = await builtSite()
  await site.deploy()
  const damaged = Buffer.from([0x1f, 0x8b, 0x08, 0x00])
  await s3.client.send(new PutObjectCommand({ Bucket: site.name, Key: SEAL_KEY, Body: damaged }))
  const compared = await site.deploy()
  expect(compared.result).toMatchObject({ uploaded: 0, deleted: 0 })
  expect(compared.result.plan).not.toBeNull()
  expect((await site.deploy()).result.plan).toBeNull()

  await s3.client.send(new PutObjectCommand({ Bucket: site.name, Key: '_deploy/rules', Body: damaged }))
  await expect(site.deploy()).rejects.toThrow(
    `s3://${site.name}/_deploy/rules is damaged (not as a deploy wrote it): restore its previous version (the bucket keeps them 30 days), or delete it and run npm run deploy -- --withdraw, then npm run deploy`
  )
  await s3.client.send(new PutObjectCommand({ Bucket: site.name, Key: '_deploy/rules', Body: '{"version": 99}' }))
  await expect(site.deploy()).rejects.toThrow(`s3://${site.name}/_deploy/rules is not a rules record (or one of a later version of this tool): restore its previous version`)
})

test("an older seal put back by hand (a restored version) is not trusted: the deploy of that older build compares every file and puts the bucket back as the build has it", async () => {
  const site = await builtSite()
  await site.deploy()
  const sealOfA = await (await s3.client.send(new GetObjectCommand({ Bucket: site.name, Key: SEAL_KEY }))).Body!.transformToByteArray()
  // Build A's out/ and its record, kept as a pipeline's cache keeps them.
  const record = outRecordFileFor(site.outDir)
  fs.cpSync(site.outDir, `${site.outDir}-a`, { recursive: true, preserveTimestamps: true })
  fs.copyFileSync(record, `${record}-a`)
  const expected = await site.clean()
  site.rebuild({ 'docs/intro.html': '<html>intro of build B</html>', 'docs/b-only.html': '<html>only in B</html>' })
  await site.deploy()
  // Someone restores the seal of A; then A is deployed again.
  await s3.client.send(new PutObjectCommand({ Bucket: site.name, Key: SEAL_KEY, Body: sealOfA }))
  fs.rmSync(site.outDir, { recursive: true })
  fs.renameSync(`${site.outDir}-a`, site.outDir)
  fs.renameSync(`${record}-a`, record)
  const again = await site.deploy()
  expect(again.result.plan).not.toBeNull()
  expect(await site.state()).toEqual(expected)
  expect(await site.holds('docs/b-only.html')).toBe(false)
  // Sealed anew by this deploy: the next one has nothing to do.
  expect((await site.deploy()).requests).toHaveLength(2)
})
