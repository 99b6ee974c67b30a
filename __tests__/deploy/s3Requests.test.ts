/**
 * @jest-environment node
 *
 * An upload that S3 answers with InternalError, or whose connection is cut, is sent again, with the
 * file's whole bytes, until it is stored; one that keeps failing, or fails for good, stops the
 * deploy with an error naming the object. Against a real S3 API (s3rver, scripts/deploy/localS3.ts) told to refuse requests. And the local
 * S3 lists a bucket of more keys than one answer holds, which s3rver alone gets wrong.
 */
import crypto from 'node:crypto'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { GetObjectCommand } from '@aws-sdk/client-s3'
import type { LocalFile } from '../../scripts/deploy/deployPlan'
import { startLocalS3, type LocalS3 } from '../../scripts/deploy/localS3'
import { inParallel } from '../../scripts/deploy/inParallel'
import { OutChangedError, s3ClientFor, s3SiteBucket } from '../../scripts/deploy/s3Bucket'
import { BACKOFF_CAP_MS, backoffDelayMs, S3_ATTEMPTS, S3RequestError } from '../../scripts/deploy/s3Retry'

jest.setTimeout(60_000)

let s3: LocalS3
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'upload-retries-'))
// Large enough to go up in more than one chunk, so a refused attempt has read part of its stream.
const bytes = crypto.randomBytes(300_000)
const localFile = (key: string): LocalFile => {
  const file = path.join(dir, key.replaceAll('/', '_'))
  fs.writeFileSync(file, bytes)
  return { key, file, bytes: bytes.length, sha256: crypto.createHash('sha256').update(bytes).digest('hex'), contentType: 'text/html; charset=utf-8', cacheControl: 'no-cache' }
}
const putsOf = async (key: string) => {
  await s3.settled()
  return s3.requests.filter((request) => request.method === 'PUT' && request.path === `/site/${key}`).length
}

beforeAll(async () => {
  s3 = await startLocalS3()
  await s3.createBucket('site')
})
afterEach(() => s3.refuse(null))
afterAll(async () => {
  await s3.stop()
  fs.rmSync(dir, { recursive: true, force: true })
})

test('an upload refused twice with InternalError is sent a third time and the bucket then holds the whole file', async () => {
  const key = 'docs/refused-twice.html'
  await s3.refuse({ method: 'PUT', path: `/site/${key}`, times: 2 })
  await s3SiteBucket(s3.client, 'site').upload(localFile(key))
  expect(await putsOf(key)).toBe(3)
  const object = await s3.client.send(new GetObjectCommand({ Bucket: 'site', Key: key }))
  expect(Buffer.from(await object.Body!.transformToByteArray()).equals(bytes)).toBe(true)
  expect(object.ContentType).toBe('text/html; charset=utf-8')
})

test('a file of out/ removed or edited since the build recorded it stops the upload before any request, naming the file and the build to run', async () => {
  const gone = localFile('docs/gone.md')
  fs.rmSync(gone.file)
  const edited = localFile('docs/edited.md')
  fs.appendFileSync(edited.file, 'a line more')
  await s3.settled()
  const from = s3.requests.length
  const bucket = s3SiteBucket(s3.client, 'site')
  await expect(bucket.upload(gone)).rejects.toThrow(new OutChangedError(gone.file, 'missing'))
  await expect(bucket.upload(edited)).rejects.toThrow(`${edited.file} is ${bytes.length + 11} bytes, not the ${bytes.length} the build recorded: out/ changed since the build recorded it; write it anew (rm -rf out, then npm run build:prod: a build in place rewrites only what its sources changed), then deploy`)
  await s3.settled()
  expect(s3.requests.length).toBe(from)
})

test("the deploy's other requests are named when S3 fails them, and sent again while it fails for a while", async () => {
  const bucket = s3SiteBucket(s3.client, 'site')
  await bucket.writeRecord('_deploy/seal', '{}')
  await s3.refuse({ method: 'GET', path: '/site/_deploy/seal', times: 2 })
  expect(await bucket.readRecord('_deploy/seal')).toBe('{}')
  await s3.refuse({ method: 'PUT', path: '/site/_deploy/change-000002', times: 2 })
  await bucket.writeRecord('_deploy/change-000002', '{"written": true}')
  expect(await bucket.readRecord('_deploy/change-000002')).toBe('{"written": true}')
  expect(await bucket.readRecord('_deploy/missing')).toBeNull()
  await s3.refuse({ method: 'GET', path: '/site/_deploy/seal' })
  await expect(bucket.readRecord('_deploy/seal')).rejects.toThrow(`read of s3://site/_deploy/seal failed ${S3_ATTEMPTS} times: InternalError`)
})

test('an upload whose connection is cut before any answer (an idle connection the server closed) is sent again and stored', async () => {
  // Under jest, Node's socket errors are of another realm; the deploy's client still has to tell them.
  const key = 'docs/cut-once.html'
  await s3.refuse({ method: 'PUT', path: `/site/${key}`, times: 1, cut: true })
  await s3SiteBucket(s3.client, 'site').upload(localFile(key))
  expect(await putsOf(key)).toBe(2)
  const object = await s3.client.send(new GetObjectCommand({ Bucket: 'site', Key: key }))
  expect(Buffer.from(await object.Body!.transformToByteArray()).equals(bytes)).toBe(true)
})

test('an upload refused every time stops after the last attempt, with an error naming the object and the cause', async () => {
  const key = 'docs/always-refused.html'
  await s3.refuse({ method: 'PUT', path: `/site/${key}` })
  const failure = await s3SiteBucket(s3.client, 'site').upload(localFile(key)).catch((error: unknown) => error)
  expect(failure).toBeInstanceOf(S3RequestError)
  expect((failure as Error).message).toContain(`upload of s3://site/${key} failed ${S3_ATTEMPTS} times`)
  expect((failure as Error).message).toContain('InternalError')
  expect(await putsOf(key)).toBe(S3_ATTEMPTS)
})

test('an upload the server refuses for good (no such bucket) is not repeated', async () => {
  const key = 'docs/no-bucket.html'
  const failure = await s3SiteBucket(s3.client, 'no-such-bucket').upload(localFile(key)).catch((error: unknown) => error)
  expect((failure as Error).message).toContain(`upload of s3://no-such-bucket/${key} failed: NoSuchBucket`)
  await s3.settled()
  expect(s3.requests.filter((request) => request.path === `/no-such-bucket/${key}`)).toHaveLength(1)
})

test('a bucket of more than 1,000 objects is listed whole, page after page, whichever way its keys sort against their folders', async () => {
  const bucket = s3SiteBucket(s3.client, 'site')
  const failuresBefore = s3.failures.length
  // `many.html` and `many-x.txt` sort before `many/…`, but their files come after that folder.
  const keys = [...Array.from({ length: 1005 }, (_, i) => `many/${String(i).padStart(4, '0')}.txt`), 'many.html', 'many-x.txt']
  const file = localFile('many/template.txt')
  await inParallel(keys, 16, (key) => bucket.upload({ ...file, key }))
  const listed = await bucket.listKeys()
  expect(keys.filter((key) => !listed.has(key))).toEqual([])
  await s3.settled()
  expect(s3.failures.slice(failuresBefore)).toEqual([])
})

describe("the wait between an S3 request's attempts", () => {
  test.each([1, 2, 3, 10])('after attempt %i: 2^n × 100 ms, plus less than 100 ms of jitter', (attempt) => {
    expect(backoffDelayMs(attempt, () => 0)).toBe(2 ** attempt * 100)
    expect(backoffDelayMs(attempt, () => 0.5)).toBe(2 ** attempt * 100 + 50)
    expect(backoffDelayMs(attempt, () => 0.999999)).toBeLessThan(2 ** attempt * 100 + 100)
  })

  test('the jitter is random by default, within its bounds', () => {
    const delays = Array.from({ length: 200 }, () => backoffDelayMs(1))
    for (const delay of delays) {
      expect(delay).toBeGreaterThanOrEqual(200)
      expect(delay).toBeLessThan(300)
    }
    expect(new Set(delays).size).toBeGreaterThan(1)
  })

  test('it never exceeds five minutes', () => {
    expect(BACKOFF_CAP_MS).toBe(300_000)
    expect(backoffDelayMs(11, () => 0)).toBe(204_800)
    expect(backoffDelayMs(12, () => 0)).toBe(300_000)
    expect(backoffDelayMs(40, () => 0.9)).toBe(300_000)
  })
})

test("the deploy's S3 client asks the site stack's region, where its bucket is, whatever region the operator's shell names; a local S3 keeps the shell's", async () => {
  const saved = { AWS_REGION: process.env.AWS_REGION, AWS_DEFAULT_REGION: process.env.AWS_DEFAULT_REGION }
  try {
    // An operator who ran the user pool's commands (eu-west-2) in the same shell.
    process.env.AWS_REGION = 'eu-west-2'
    expect(await s3ClientFor({}).config.region()).toBe('us-east-1')
    expect(await s3ClientFor({ endpoint: 'http://127.0.0.1:9' }).config.region()).toBe('eu-west-2')
    delete process.env.AWS_REGION
    delete process.env.AWS_DEFAULT_REGION
    expect(await s3ClientFor({}).config.region()).toBe('us-east-1')
  } finally {
    for (const [name, value] of Object.entries(saved)) if (value === undefined) delete process.env[name]
    else process.env[name] = value
  }
})
