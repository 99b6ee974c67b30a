/**
 * @jest-environment node
 *
 * The two sources the local server reads the site's files from: out/, each file with the headers
 * the deploy stores for it; and a bucket on a real S3 API (s3rver), each object with the headers
 * stored on it, whatever they are, so a server over the bucket sends what CloudFront would.
 * out/ is read as the AI tools' server reads it (mcp/siteFiles.ts).
 */
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { PutObjectCommand } from '@aws-sdk/client-s3'
import { CACHE_CONTROL } from '../../edge/cacheHeaders'
import { startLocalS3, type LocalS3 } from '../../scripts/deploy/localS3'
import { bucketObjects } from '../../scripts/server/bucketObjects'
import { outDirObjects } from '../../scripts/server/siteObjects'
import { localSiteFiles } from '../../mcp/siteFiles'

const outDir = fs.mkdtempSync(path.join(os.tmpdir(), 'site-objects-'))
// A folder beside out/ whose name starts with out/'s: a key that climbs into it reads nothing.
const sibling = `${outDir}-sibling`
let s3: LocalS3

beforeAll(async () => {
  fs.mkdirSync(path.join(outDir, 'docs'))
  fs.mkdirSync(path.join(outDir, '_next/static/chunks'), { recursive: true })
  fs.writeFileSync(path.join(outDir, 'docs/page.html'), '<p>page</p>')
  fs.writeFileSync(path.join(outDir, '_next/static/chunks/main-0123abcd.js'), 'chunk')
  fs.mkdirSync(sibling)
  fs.writeFileSync(path.join(sibling, 'page.html'), 'beside out/')
  s3 = await startLocalS3()
  await s3.createBucket('site')
  await s3.client.send(new PutObjectCommand({ Bucket: 'site', Key: 'docs/page.html', Body: '<p>page</p>', ContentType: 'text/html; charset=utf-8', CacheControl: 'private, no-cache' }))
  // As no deploy writes it: another type than its extension's, and no Cache-Control.
  await s3.client.send(new PutObjectCommand({ Bucket: 'site', Key: 'docs/notes.html', Body: 'notes', ContentType: 'text/plain' }))
})
afterAll(async () => {
  await s3?.stop()
  fs.rmSync(outDir, { recursive: true, force: true })
  fs.rmSync(sibling, { recursive: true, force: true })
})

test('out/: each file with the Content-Type of its extension and the Cache-Control of its key; nothing outside out/ or that is not a file', async () => {
  const objects = outDirObjects(outDir)
  expect(await objects.read('/docs/page.html')).toMatchObject({ body: Buffer.from('<p>page</p>'), contentType: 'text/html; charset=utf-8', cacheControl: CACHE_CONTROL.file })
  expect(await objects.read('/_next/static/chunks/main-0123abcd.js')).toMatchObject({ contentType: 'text/javascript; charset=utf-8', cacheControl: CACHE_CONTROL.hashedAsset })
  for (const key of ['/docs/missing.html', '/docs', `/../${path.basename(sibling)}/page.html`, '/../../etc/passwd']) expect([key, await objects.read(key)]).toEqual([key, null])
})

test('out/: a file only under its own name, never under another name the file system gives it', async () => {
  // A Mac's file system finds `ſecret/` (long s) as `secret/`, whose rule the authorizer did not
  // apply to `ſecret/`; Linux has no such folding, and a link gives the folder its second name.
  fs.mkdirSync(path.join(outDir, 'docs/secret'))
  fs.writeFileSync(path.join(outDir, 'docs/secret/page.html'), 'restricted')
  fs.symlinkSync('secret', path.join(outDir, 'docs/ſecret'))
  fs.symlinkSync('secret/page.html', path.join(outDir, 'docs/alias.html'))
  const objects = outDirObjects(outDir)
  expect(await objects.read('/docs/secret/page.html')).toMatchObject({ body: Buffer.from('restricted') })
  for (const key of ['/docs/ſecret/page.html', '/docs/alias.html']) expect([key, await objects.read(key)]).toEqual([key, null])
  // The AI tools' server reads out/ the same way.
  expect(await localSiteFiles(outDir).read('/docs/secret/page.html')).toEqual(Buffer.from('restricted'))
  expect(await localSiteFiles(outDir).read('/docs/ſecret/page.html')).toBeNull()
  // out/ itself may be reached through a link (a Mac's /tmp is /private/tmp).
  const linked = `${outDir}-link`
  fs.symlinkSync(outDir, linked)
  try {
    expect(await outDirObjects(linked).read('/docs/page.html')).toMatchObject({ body: Buffer.from('<p>page</p>') })
  } finally {
    fs.rmSync(linked)
  }
})

test('a bucket: each object with the headers stored on it, none where none is stored; a missing key is null', async () => {
  const objects = bucketObjects(s3.client, 'site')
  const page = await objects.read('/docs/page.html')
  expect(page).toMatchObject({ body: Buffer.from('<p>page</p>'), contentType: 'text/html; charset=utf-8', cacheControl: 'private, no-cache' })
  expect(page!.version).not.toBe('')
  expect(await objects.read('/docs/notes.html')).toMatchObject({ body: Buffer.from('notes'), contentType: 'text/plain', cacheControl: null })
  expect(await objects.read('/docs/missing.html')).toBeNull()
})

test('a bucket that cannot be read is an error, never a missing page', async () => {
  await expect(bucketObjects(s3.client, 'no-such-bucket').read('/docs/page.html')).rejects.toThrow(/bucket/i)
})
