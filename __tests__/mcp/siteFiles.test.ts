/** @jest-environment node */
/**
 * The AI tools' server's cache of the site's objects (mcp/siteFiles.ts memoSiteFiles): a warm
 * instance keeps at most its bound, however much is read through it, and keeps no miss.
 */
import fs from 'node:fs'
import path from 'node:path'
import { collector } from '../fixtures/fullCollection'
import { MEMO_MAX_BYTES, memoSiteFiles, type SiteFiles } from '../../mcp/siteFiles'

/** A store of `count` objects of `size` bytes each (`/o/<n>`), nothing else, counting reads by key. */
function store(size: number): SiteFiles & { reads: Map<string, number> } {
  const reads = new Map<string, number>()
  return {
    reads,
    async read(key) {
      reads.set(key, (reads.get(key) ?? 0) + 1)
      return key.startsWith('/o/') ? Buffer.alloc(size, key.length % 251) : null
    },
  }
}

test('the bound suits the function: a sixteenth of the memory the stack gives it', () => {
  const origin = fs.readFileSync(path.resolve(__dirname, '../../infra/lib/mcp-origin.ts'), 'utf8')
  // The server's function is the first one the origin declares (the second is the small body-hash function).
  const memorySize = Number(/memorySize: (\d+)/.exec(origin)?.[1])
  expect(memorySize).toBe(1024)
  expect(MEMO_MAX_BYTES).toBe((memorySize / 16) * 1024 * 1024)
})

test('filled past its bound, it keeps at most its bound and lets the least recently read go first', async () => {
  const objects = store(10_000)
  const bound = 100_000
  const files = memoSiteFiles(objects, bound)
  // 50 objects of 10 kB: five times the bound.
  for (let n = 0; n < 50; n++) {
    await files.read(`/o/${n}`)
    // /o/0 is read again each time, so it is never the least recently read.
    await files.read('/o/0')
    expect(files.usage().bytes).toBeLessThanOrEqual(bound)
  }
  const { entries, bytes } = files.usage()
  expect(entries).toBeGreaterThanOrEqual(8)
  expect(entries).toBeLessThanOrEqual(9)
  expect(bytes).toBeGreaterThan(bound - 10_500)
  // The oldest are gone (read from the store again); the newest and the one read all along are kept.
  await files.read('/o/1')
  expect(objects.reads.get('/o/1')).toBe(2)
  await files.read('/o/49')
  await files.read('/o/0')
  expect([objects.reads.get('/o/49'), objects.reads.get('/o/0')]).toEqual([1, 1])
})

test('a miss is not kept: thousands of made-up 2 kB keys leave it empty', async () => {
  const objects = store(10)
  const files = memoSiteFiles(objects, 1_000_000)
  for (let n = 0; n < 5000; n++) expect(await files.read(`/missing/${n}-${'k'.repeat(2000)}`)).toBeNull()
  expect(files.usage()).toEqual({ entries: 0, bytes: 0, maxBytes: 1_000_000 })
  // Asked again, a missing key is asked of the store again.
  await files.read('/missing/0-' + 'k'.repeat(2000))
  expect(objects.reads.get('/missing/0-' + 'k'.repeat(2000))).toBe(2)
})

test('an object larger than a quarter of the bound is handed out but not kept', async () => {
  const files = memoSiteFiles(store(300_000), 1_000_000)
  expect((await files.read('/o/big'))?.length).toBe(300_000)
  expect(files.usage().entries).toBe(0)
})

test('reads of one key at the same time share one read of the store, and a failed read is not kept', async () => {
  const objects = store(100)
  const files = memoSiteFiles(objects, 1_000_000)
  const [a, b] = await Promise.all([files.read('/o/1'), files.read('/o/1')])
  expect(a).toBe(b)
  expect(objects.reads.get('/o/1')).toBe(1)
  let fail = true
  const flaky = memoSiteFiles({ read: async () => (fail ? Promise.reject(new Error('throttled')) : Buffer.from('x')) }, 1_000_000)
  await expect(flaky.read('/o/1')).rejects.toThrow('throttled')
  fail = false
  expect((await flaky.read('/o/1'))?.toString()).toBe('x')
})

test('the memory the process holds after collection grows by about the bound, not by what was read', async () => {
  const gc = collector()
  const bound = 8 * 1024 * 1024
  const files = memoSiteFiles(store(64 * 1024), bound)
  await gc()
  const before = process.memoryUsage().arrayBuffers
  // 128 MB read through an 8 MB cache, and 2 kB misses besides.
  for (let n = 0; n < 2048; n++) {
    await files.read(`/o/${n}`)
    await files.read(`/missing/${n}-${'m'.repeat(2000)}`)
  }
  await gc()
  const grown = process.memoryUsage().arrayBuffers - before
  expect(files.usage().bytes).toBeLessThanOrEqual(bound)
  expect(grown).toBeLessThan(bound + 2 * 1024 * 1024)
  expect(grown).toBeGreaterThan(bound / 2)
  // 128 MB made and collected: seconds on a busy 2-core host, more than jest's default 5.
}, 30_000)
