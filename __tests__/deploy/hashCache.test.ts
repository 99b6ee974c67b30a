/**
 * @jest-environment node
 *
 * The deploy reads only the files of out/ written since it last hashed them (the hash cache,
 * scripts/deploy/hashCache.ts), and still uploads every file whose bytes changed: against a real
 * S3 API (s3rver on 127.0.0.1), with every way the deploy could open a file of out/ counted.
 */
import fs from 'node:fs'
import path from 'node:path'
import { GetObjectCommand } from '@aws-sdk/client-s3'
import { hashCacheFileFor } from '../../scripts/deploy/hashCache'
import { startLocalS3, type LocalS3 } from '../../scripts/deploy/localS3'
import { runDeploy } from '../../scripts/deploy/runDeploy'
import { s3SiteBucket } from '../../scripts/deploy/s3Bucket'
import { tempSite } from '../fixtures/tempSite'

jest.setTimeout(60_000)

let s3: LocalS3
beforeAll(async () => (s3 = await startLocalS3()))
afterAll(() => s3.stop())

/** An hour ago, in whole seconds, so a test can set a file's time back to exactly it. */
const BUILT_AT = Math.floor(Date.now() / 1000) - 3600
const FILES = {
  'index.html': '<html>home</html>',
  'docs/intro.html': '<html>intro, as built</html>',
  'docs/guide.html': '<html>guide, as built</html>',
  'docs/intro.md': '# Intro\n',
  '_next/data/b1/docs/intro.json': '{"pageProps":{}}',
  '_next/static/chunks/main-0123456789abcdef.js': 'console.log(1)',
}
const KEYS = Object.keys(FILES).sort()
let sites = 0

/** A built site: out/ as a build long finished left it, and a bucket of its own. */
async function builtSite() {
  const root = tempSite('hash-cache-', Object.fromEntries(Object.entries(FILES).map(([key, text]) => [`out/${key}`, text])))
  const outDir = path.join(root, 'out')
  for (const key of KEYS) fs.utimesSync(path.join(outDir, key), BUILT_AT, BUILT_AT)
  const bucket = `site-${++sites}`
  await s3.createBucket(bucket)
  return { outDir, bucket, file: (key: string) => path.join(outDir, key) }
}

/** One deploy: the files of out/ it opened, by any of the ways a file can be read, and the keys it uploaded. */
async function deploy(site: { outDir: string; bucket: string }) {
  const read = new Set<string>()
  const spy = <T extends object>(owner: T, name: keyof T) => {
    const original = owner[name] as (...args: unknown[]) => unknown
    return jest.spyOn(owner, name as never).mockImplementation(((file: unknown, ...rest: unknown[]) => {
      const relative = path.relative(site.outDir, path.resolve(String(file)))
      if (!relative.startsWith('..')) read.add(relative.split(path.sep).join('/'))
      return original.call(owner, file, ...rest)
    }) as never)
  }
  const spies = [spy(fs, 'createReadStream'), spy(fs, 'readFileSync'), spy(fs, 'readFile'), spy(fs, 'openSync'), spy(fs, 'open'), spy(fs.promises, 'readFile'), spy(fs.promises, 'open')]
  try {
    const result = await runDeploy({ outDir: site.outDir, bucket: s3SiteBucket(s3.client, site.bucket), graceMs: 0, hashCache: hashCacheFileFor(site.outDir) })
    return { read: [...read].sort(), uploaded: result.plan.phases.flatMap((phase) => phase.files.map((file) => file.key)).sort() }
  } finally {
    spies.forEach((each) => each.mockRestore())
  }
}

async function held(bucket: string, key: string): Promise<string> {
  const object = await s3.client.send(new GetObjectCommand({ Bucket: bucket, Key: key }))
  return object.Body!.transformToString()
}

test('after a one-file change, the next deploy reads only that file, and uploads it', async () => {
  const site = await builtSite()
  expect(await deploy(site)).toEqual({ read: KEYS, uploaded: KEYS })
  expect(await deploy(site)).toEqual({ read: [], uploaded: [] })

  fs.writeFileSync(site.file('docs/intro.html'), '<html>intro, edited and longer</html>')
  expect(await deploy(site)).toEqual({ read: ['docs/intro.html'], uploaded: ['docs/intro.html'] })
  expect(await held(site.bucket, 'docs/intro.html')).toBe('<html>intro, edited and longer</html>')
  // Written less than two seconds before it was hashed, its hash is not kept: the next deploy reads it again.
  expect(await deploy(site)).toEqual({ read: ['docs/intro.html'], uploaded: [] })
})

test('a file rewritten with the same size within the same tick of the clock as the write that was hashed is read again, and uploaded', async () => {
  const site = await builtSite()
  await deploy(site)
  // Just written (half a second ago), and hashed by a deploy.
  const justNow = (Date.now() - 500) / 1000
  fs.writeFileSync(site.file('docs/guide.html'), '<html>guide, take two</html>')
  fs.utimesSync(site.file('docs/guide.html'), justNow, justNow)
  expect(await deploy(site)).toEqual({ read: ['docs/guide.html'], uploaded: ['docs/guide.html'] })
  // Written again, same size, and the file system's coarse clock gives it the same time.
  fs.writeFileSync(site.file('docs/guide.html'), '<html>guide, take 3!!</html>')
  fs.utimesSync(site.file('docs/guide.html'), justNow, justNow)
  expect(await deploy(site)).toEqual({ read: ['docs/guide.html'], uploaded: ['docs/guide.html'] })
  expect(await held(site.bucket, 'docs/guide.html')).toBe('<html>guide, take 3!!</html>')
})

test("a file changed behind the cache's back is read and uploaded when its size or its time moved", async () => {
  const site = await builtSite()
  await deploy(site)
  // Same size, time set to another moment long past.
  fs.writeFileSync(site.file('docs/intro.html'), '<html>intro, AS BUILT</html>')
  fs.utimesSync(site.file('docs/intro.html'), BUILT_AT - 60, BUILT_AT - 60)
  // Another size, time set back to exactly the one that was hashed.
  fs.writeFileSync(site.file('docs/intro.md'), '# Intro, longer\n')
  fs.utimesSync(site.file('docs/intro.md'), BUILT_AT, BUILT_AT)
  expect(await deploy(site)).toEqual({ read: ['docs/intro.html', 'docs/intro.md'], uploaded: ['docs/intro.html', 'docs/intro.md'] })
  expect([await held(site.bucket, 'docs/intro.html'), await held(site.bucket, 'docs/intro.md')]).toEqual(['<html>intro, AS BUILT</html>', '# Intro, longer\n'])
})

test('with no cache, or a corrupt one, the deploy reads every file', async () => {
  const site = await builtSite()
  const cache = hashCacheFileFor(site.outDir)
  await deploy(site)
  fs.writeFileSync(cache, fs.readFileSync(cache, 'utf8').replace(/"sha256":"[0-9a-f]{8}/, '"sha256":"not-hex!'))
  expect(await deploy(site)).toEqual({ read: KEYS, uploaded: [] })
  fs.writeFileSync(cache, '{"version":1,')
  expect(await deploy(site)).toEqual({ read: KEYS, uploaded: [] })
  expect(await deploy(site)).toEqual({ read: [], uploaded: [] })
  fs.rmSync(cache)
  expect(await deploy(site)).toEqual({ read: KEYS, uploaded: [] })
})
