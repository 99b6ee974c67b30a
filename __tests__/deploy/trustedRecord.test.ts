/**
 * @jest-environment node
 *
 * A deploy learns what the bucket holds from the bucket's record, not by listing it: at 10,000
 * pages a listing is 42 calls for 41,900 keys. It lists the bucket only when there is no record,
 * after an upload cut short, or when asked (`--list`). Against a real S3 API (s3rver).
 */
import fs from 'node:fs'
import path from 'node:path'
import { CopyObjectCommand, DeleteObjectCommand, GetObjectCommand, PutObjectCommand } from '@aws-sdk/client-s3'
import { CACHE_CONTROL } from '../../edge/cacheHeaders'
import { startLocalS3, type LocalS3 } from '../../scripts/deploy/localS3'
import { runDeploy } from '../../scripts/deploy/runDeploy'
import { LEASE_KEY } from '../../scripts/deploy/deployLease'
import { s3SiteBucket } from '../../scripts/deploy/s3Bucket'
import { tempSite } from '../fixtures/tempSite'

jest.setTimeout(60_000)

let s3: LocalS3
beforeAll(async () => {
  s3 = await startLocalS3()
  await s3.createBucket('site')
})
afterAll(() => s3.stop())

const listings = (from: number) => s3.requests.slice(from).flatMap((request) => (request.listPrefix === undefined ? [] : [request.listPrefix]))

test('a deploy with nothing to do lists only the record, and uploads nothing; a listing is made when there is no record, or when asked', async () => {
  const out = tempSite('trusted-out-', { 'index.html': '<p>home</p>', 'docs/leads/intro.html': '<p>intro</p>', '_next/static/chunks/main-abc.js': 'code' })
  const bucket = s3SiteBucket(s3.client, 'site')
  const deploy = (fullListing = false) => runDeploy({ outDir: out, bucket, graceMs: 0, rules: 'r1', fullListing })

  let from = await s3.requestsSoFar()
  expect((await deploy()).uploaded).toBe(3)
  // No record yet: the whole bucket is listed.
  expect(listings(from)).toContain('')

  from = await s3.requestsSoFar()
  const idle = await deploy()
  await s3.settled()
  expect(idle).toMatchObject({ uploaded: 0, deleted: 0 })
  expect(listings(from)).toEqual(['_deploy/'])
  // Found the long way (out/ has no build's record, so no seal vouches for it): nothing is written but the lease it looked under (./deployLease.ts), taken and let go.
  expect(s3.requests.slice(from).filter((request) => request.method !== 'GET' && request.method !== 'HEAD').map((request) => `${request.method} ${request.path}`)).toEqual([`PUT /site/${LEASE_KEY}`, 'POST /site/'])

  // An edit: the changed file goes up, still without listing the bucket.
  fs.writeFileSync(path.join(out, 'docs/leads/intro.html'), '<p>intro, edited</p>')
  from = await s3.requestsSoFar()
  expect((await deploy()).uploaded).toBe(1)
  expect(listings(from)).toEqual(['_deploy/'])

  // Someone deleted an object by hand: the record does not know; `--list` finds it and puts it back.
  await s3.client.send(new DeleteObjectCommand({ Bucket: 'site', Key: 'index.html' }))
  expect((await deploy()).uploaded).toBe(0)
  from = await s3.requestsSoFar()
  expect((await deploy(true)).uploaded).toBe(1)
  expect(listings(from)).toContain('')
})

test('--list also puts back an object changed by hand, of another size or of the same size, with its headers, and invalidates it', async () => {
  await s3.createBucket('altered')
  const out = tempSite('altered-out-', { 'index.html': '<p>home</p>', 'docs/leads/intro.html': '<p>intro</p>', '_next/static/chunks/main-abc.js': 'code' })
  const bucket = s3SiteBucket(s3.client, 'altered')
  const invalidated: string[][] = []
  const deploy = (fullListing = false) => runDeploy({ outDir: out, bucket, graceMs: 0, rules: 'r1', fullListing, invalidate: async (paths) => (invalidated.push([...paths]), 'I1') })
  await deploy()
  // A hand's PutObject: other bytes, no headers.
  await s3.client.send(new PutObjectCommand({ Bucket: 'altered', Key: 'docs/leads/intro.html', Body: 'tampered by hand' }))
  await s3.client.send(new PutObjectCommand({ Bucket: 'altered', Key: 'index.html', Body: '<p>HOME</p>' }))
  // A content-hashed file, which CloudFront keeps a year: its name no longer says its bytes.
  await s3.client.send(new PutObjectCommand({ Bucket: 'altered', Key: '_next/static/chunks/main-abc.js', Body: 'evil' }))
  expect((await deploy()).uploaded).toBe(0)
  const listed = await deploy(true)
  expect(listed.uploaded).toBe(3)
  expect(invalidated.at(-1)).toEqual(['/', '/_next/static/chunks/main-abc.js', '/docs/leads/intro', '/docs/leads/intro.html', '/index.html'])
  for (const [key, text] of [['docs/leads/intro.html', '<p>intro</p>'], ['index.html', '<p>home</p>']]) {
    const object = await s3.client.send(new GetObjectCommand({ Bucket: 'altered', Key: key }))
    expect({ text: await object.Body!.transformToString(), type: object.ContentType, cache: object.CacheControl }).toEqual({ text, type: 'text/html; charset=utf-8', cache: CACHE_CONTROL.file })
  }
  // Put back, nothing differs.
  expect((await deploy(true)).uploaded).toBe(0)
  // The same bytes, served by a hand's copy with headers a shared cache may keep: put back too.
  await s3.client.send(
    new CopyObjectCommand({ Bucket: 'altered', Key: 'docs/leads/intro.html', CopySource: 'altered/docs/leads/intro.html', MetadataDirective: 'REPLACE', ContentType: 'text/plain', CacheControl: 'public, max-age=86400' })
  )
  expect((await deploy()).uploaded).toBe(0)
  expect((await deploy(true)).uploaded).toBe(1)
  const object = await s3.client.send(new GetObjectCommand({ Bucket: 'altered', Key: 'docs/leads/intro.html' }))
  expect({ type: object.ContentType, cache: object.CacheControl }).toEqual({ type: 'text/html; charset=utf-8', cache: CACHE_CONTROL.file })
  expect((await deploy(true)).uploaded).toBe(0)
})
