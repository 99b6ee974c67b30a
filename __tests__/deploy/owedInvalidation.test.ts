/**
 * @jest-environment node
 *
 * A deploy or a withdraw that changed the bucket and then failed to invalidate (CloudFront's call
 * failed, the process was killed) leaves the paths owed in the bucket, and the next run with a
 * distribution invalidates them: the bucket is as it should be by then, so that run would find
 * nothing changed, and CloudFront would serve the old copies (after a withdraw, under the new
 * edge's rules). Against a real S3 API (s3rver on 127.0.0.1), CloudFront a fake that fails when told.
 */
import fs from 'node:fs'
import path from 'node:path'
import { GetObjectCommand, PutObjectCommand } from '@aws-sdk/client-s3'
import { readOut, setOutRecordAside } from '../../pipeline/steps/outRecord'
import { startLocalS3, type LocalS3 } from '../../scripts/deploy/localS3'
import { OWED_KEY } from '../../scripts/deploy/owedInvalidation'
import { readRulesRecord } from '../../scripts/deploy/rulesRecord'
import { runDeploy } from '../../scripts/deploy/runDeploy'
import { s3SiteBucket } from '../../scripts/deploy/s3Bucket'
import { runWithdraw } from '../../scripts/deploy/withdraw'
import { tempSite } from '../fixtures/tempSite'

jest.setTimeout(60_000)

let s3: LocalS3
beforeAll(async () => (s3 = await startLocalS3()))
afterAll(() => s3.stop())

let sites = 0
const BUILT_AT = Math.floor(Date.now() / 1000) - 3600

/** A CloudFront that records each invalidation it took, and refuses while `down`. */
function cloudFront() {
  const taken: string[][] = []
  const fake = {
    down: false,
    taken,
    invalidate: async (paths: readonly string[]) => {
      if (fake.down) throw new Error('getaddrinfo ENOTFOUND cloudfront.amazonaws.com')
      taken.push([...paths])
      return `I${taken.length}`
    },
    awaitInvalidation: async () => {},
  }
  return fake
}

async function builtSite() {
  const root = tempSite('owed-', { 'out/index.html': '<html>home</html>', 'out/docs/intro.html': '<html>intro</html>', 'out/docs/other.html': '<html>other</html>' })
  const outDir = path.join(root, 'out')
  for (const key of ['index.html', 'docs/intro.html', 'docs/other.html']) fs.utimesSync(path.join(outDir, key), BUILT_AT, BUILT_AT)
  setOutRecordAside(outDir)
  readOut(outDir).write('b1')
  const name = `owed-${++sites}`
  await s3.createBucket(name)
  const bucket = s3SiteBucket(s3.client, name)
  const rebuild = (edits: Record<string, string | null>, buildId: string) => {
    setOutRecordAside(outDir)
    for (const [key, text] of Object.entries(edits)) {
      if (text === null) fs.rmSync(path.join(outDir, key))
      else fs.writeFileSync(path.join(outDir, key), text)
    }
    readOut(outDir).write(buildId)
  }
  const owes = async () => {
    try {
      await s3.client.send(new GetObjectCommand({ Bucket: name, Key: OWED_KEY }))
      return true
    } catch {
      return false
    }
  }
  const cdn = cloudFront()
  const deploy = () => runDeploy({ outDir, bucket, graceMs: 0, rules: 'r1', invalidate: cdn.invalidate })
  /** Deployed, then edited, then deployed while CloudFront is down: the edit is in the bucket, its invalidation not made. */
  const editWhileCloudFrontIsDown = async () => {
    await deploy()
    rebuild({ 'docs/intro.html': '<html>intro, edited</html>' }, 'b2')
    cdn.down = true
    // Named with what it leaves and what to do, not with CloudFront's words alone.
    await expect(deploy()).rejects.toThrow(
      `CloudFront's invalidation of 2 paths failed (getaddrinfo ENOTFOUND cloudfront.amazonaws.com). The bucket is written; the paths stay owed (s3://${name}/${OWED_KEY}), and \`npm run deploy\` run again invalidates them.`
    )
    cdn.down = false
  }
  return { name, outDir, bucket, rebuild, owes, cdn, deploy, editWhileCloudFrontIsDown }
}

test("a deploy whose invalidation failed leaves it owed; the next deploy, with nothing else to do, pays it", async () => {
  const site = await builtSite()
  await site.editWhileCloudFrontIsDown()
  expect(await site.owes()).toBe(true)
  // The bucket holds build b2 (its seal says so): nothing to upload, but the edit's paths are still owed.
  const again = await site.deploy()
  expect(again).toMatchObject({ plan: null, uploaded: 0, invalidatedPaths: ['/docs/intro', '/docs/intro.html'] })
  expect(site.cdn.taken.at(-1)).toEqual(['/docs/intro', '/docs/intro.html'])
  expect(await site.owes()).toBe(false)
  // Paid, it is not paid twice.
  expect((await site.deploy()).invalidationId).toBeNull()
})

test('a deploy after one whose invalidation failed invalidates both edits at once', async () => {
  const site = await builtSite()
  await site.editWhileCloudFrontIsDown()
  site.rebuild({ 'docs/other.html': '<html>other, edited</html>' }, 'b3')
  await site.deploy()
  expect(site.cdn.taken.at(-1)).toEqual(['/docs/intro', '/docs/intro.html', '/docs/other', '/docs/other.html'])
  expect(await site.owes()).toBe(false)
})

test('a withdraw whose invalidation failed does not record the withdraw when run again until CloudFront took the deleted paths', async () => {
  const site = await builtSite()
  const { cdn } = site
  await site.deploy()
  site.rebuild({ 'docs/intro.html': '<html>intro, under new rules</html>' }, 'b2')
  const withdraw = () => runWithdraw({ outDir: site.outDir, bucket: site.bucket, rules: 'r2', invalidate: cdn.invalidate, awaitInvalidation: cdn.awaitInvalidation })
  cdn.down = true
  await expect(withdraw()).rejects.toThrow(/^CloudFront's invalidation of 2 paths failed \(getaddrinfo ENOTFOUND cloudfront\.amazonaws\.com\)\. .*`npm run deploy -- --withdraw` run again invalidates them\.$/)
  expect((await readRulesRecord(site.bucket))?.withdrawnFor).toBeNull()
  cdn.down = false
  // The file is gone from the bucket already: the run finds nothing more to delete, and still invalidates it.
  const again = await withdraw()
  expect(again.deleted).toEqual([])
  expect(cdn.taken.at(-1)).toEqual(['/docs/intro', '/docs/intro.html'])
  expect((await readRulesRecord(site.bucket))?.withdrawnFor).toBe('r2')
  expect(await site.owes()).toBe(false)
})

test('a record of what is owed that cannot be read owes everything: one path, /*', async () => {
  const site = await builtSite()
  await site.deploy()
  await s3.client.send(new PutObjectCommand({ Bucket: site.name, Key: OWED_KEY, Body: Buffer.from([0x1f, 0x8b, 0x08, 0x00]) }))
  expect(await site.deploy()).toMatchObject({ plan: null, invalidatedPaths: ['/*'] })
  expect(await site.owes()).toBe(false)
})

