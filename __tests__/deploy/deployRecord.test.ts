/** @jest-environment node */
import { CACHE_CONTROL } from '../../edge/cacheHeaders'
import { MANIFEST_KEY, type DeployManifest } from '../../scripts/deploy/deployManifest'
import { changeKey, MAX_CHANGES, readRecord, writeRecord } from '../../scripts/deploy/deployRecord'
import type { SiteBucket } from '../../scripts/deploy/s3Bucket'

/** A bucket in memory: the deploy's records by key, and what was written and deleted. */
function memoryBucket() {
  const objects = new Map<string, string>()
  const written: string[] = []
  const bucket: SiteBucket = {
    name: 'site',
    readRecord: async (key) => objects.get(key) ?? null,
    listKeys: async () => new Set(objects.keys()),
    listObjects: async () => new Map([...objects].map(([key, text]) => [key, { size: Buffer.byteLength(text), etag: '' }])),
    headersOf: async () => null,
    upload: async () => {},
    deleteKeys: async (keys) => keys.forEach((key) => objects.delete(key)),
    writeRecord: async (key, text) => {
      objects.set(key, text)
      written.push(key)
    },
    createRecord: async (key, text, replacing) => {
      if (replacing === undefined ? objects.has(key) : objects.get(key) !== replacing) return false
      objects.set(key, text)
      return true
    },
    readTaggedRecord: async (key) => (objects.has(key) ? { text: objects.get(key)!, etag: objects.get(key)! } : null),
  }
  return { bucket, objects, written, read: async () => readRecord(bucket, await bucket.listKeys()) }
}

const record = (sha: string) => ({ sha256: sha.repeat(64), contentType: 'text/html; charset=utf-8', cacheControl: CACHE_CONTROL.file })
/** A site of `pages` pages, page `edited` with other bytes. */
const site = (pages: number, edited = -1, retired: Record<string, string> = {}): DeployManifest => ({
  version: 1,
  through: 0,
  files: Object.fromEntries(Array.from({ length: pages }, (_, i) => [`docs/page-${i}.html`, record(i === edited ? 'b' : 'a')])),
  retired,
})
const withoutThrough = ({ files, retired }: DeployManifest) => ({ files, retired })

test('the first deploy writes the manifest; an edit after it writes a change record of the changed file alone, and the record reads back as the new manifest', async () => {
  const memory = memoryBucket()
  await writeRecord(memory.bucket, await memory.read(), site(1000))
  expect(memory.written).toEqual([MANIFEST_KEY])

  const edited = site(999, 5, { 'docs/page-999.html': '2026-05-01T12:00:00.000Z' })
  await writeRecord(memory.bucket, await memory.read(), edited)
  expect(memory.written).toEqual([MANIFEST_KEY, changeKey(2)])
  const change = JSON.parse(memory.objects.get(changeKey(2))!)
  expect(change.files).toEqual({ 'docs/page-5.html': record('b'), 'docs/page-999.html': null })
  expect(memory.objects.get(changeKey(2))!.length).toBeLessThan(memory.objects.get(MANIFEST_KEY)!.length / 100)
  expect(withoutThrough((await memory.read()).manifest!)).toEqual(withoutThrough(edited))
})

test(`after ${MAX_CHANGES} change records the next deploy folds them into a new manifest and deletes them`, async () => {
  const memory = memoryBucket()
  await writeRecord(memory.bucket, await memory.read(), site(10))
  for (let edit = 0; edit < MAX_CHANGES; edit++) await writeRecord(memory.bucket, await memory.read(), site(10, edit % 10))
  expect([...memory.objects.keys()].filter((key) => key !== MANIFEST_KEY)).toHaveLength(MAX_CHANGES)
  const last = site(10, 3, { 'docs/old.html': '2026-05-01T12:00:00.000Z' })
  await writeRecord(memory.bucket, await memory.read(), last)
  expect([...memory.objects.keys()]).toEqual([MANIFEST_KEY])
  const folded = await memory.read()
  expect(withoutThrough(folded.manifest!)).toEqual(withoutThrough(last))
  expect(folded.sequence).toBe(MAX_CHANGES + 2)

  // A change record the manifest holds, left by a run that stopped before deleting it, is ignored; the next change follows the manifest's.
  memory.objects.set(changeKey(MAX_CHANGES + 1), JSON.stringify({ version: 1, files: { 'docs/page-0.html': null }, retired: {} }))
  expect(withoutThrough((await memory.read()).manifest!)).toEqual(withoutThrough(last))
  await writeRecord(memory.bucket, await memory.read(), site(10))
  expect(memory.written.at(-1)).toBe(changeKey(MAX_CHANGES + 3))
})

test('a deploy that would leave change records naming more than a share of the site folds them into the manifest instead', async () => {
  const pages = 8000
  const memory = memoryBucket()
  await writeRecord(memory.bucket, await memory.read(), site(pages))
  // Half the site rewritten (new build code): the manifest, not a change record every later deploy would read.
  const rewritten: DeployManifest = { ...site(pages), files: Object.fromEntries(Object.entries(site(pages).files).map(([key, value], i) => [key, i % 2 ? record('c') : value])) }
  await writeRecord(memory.bucket, await memory.read(), rewritten)
  expect(memory.written).toEqual([MANIFEST_KEY, MANIFEST_KEY])
  // Changes that add up: change records until they would pass the share, then the manifest.
  const perDeploy = 700
  // A quarter of the site: 2,000 files, two deploys' worth.
  const edits = Math.floor(pages / 4 / perDeploy)
  let current = rewritten
  for (let edit = 1; edit <= edits + 1; edit++) {
    current = { ...current, files: { ...current.files, ...Object.fromEntries(Array.from({ length: perDeploy }, (_, i) => [`docs/page-${i}.html`, record(String(edit % 10))])) } }
    await writeRecord(memory.bucket, await memory.read(), current)
  }
  expect(memory.written.slice(2)).toEqual([...Array.from({ length: edits }, (_, i) => changeKey(i + 3)), MANIFEST_KEY])
  expect([...memory.objects.keys()]).toEqual([MANIFEST_KEY])
  expect(withoutThrough((await memory.read()).manifest!)).toEqual(withoutThrough(current))
})

test('a change record with no record of the change before it is an error naming it', async () => {
  const memory = memoryBucket()
  await writeRecord(memory.bucket, await memory.read(), site(3))
  memory.objects.set(changeKey(3), JSON.stringify({ version: 1, files: {}, retired: {} }))
  await expect(memory.read()).rejects.toThrow(`s3://site/${changeKey(3)} follows no record of change 2`)
})
