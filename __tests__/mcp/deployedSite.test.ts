/** @jest-environment node */
/**
 * A warm instance of the AI tools' server and the deploys after it (mcp/deployedSite.ts): a deploy
 * of pages alone keeps the function, so what the instance kept must not outlive the bucket's files.
 */
import { deployedSite, type DeployedFiles } from '../../mcp/deployedSite'
import type { SiteFiles } from '../../mcp/siteFiles'

/** The bucket: its objects, the seal's ETag (null while a deploy writes), and how often each was read. */
function bucket() {
  const objects = new Map<string, string>([['/docs/leads/pricing.md', '# Pricing (leads)']])
  const state = { deploy: 'etag-1' as string | null, reads: 0, asked: 0 }
  const store: DeployedFiles = {
    async read(key) {
      state.reads++
      const text = objects.get(key)
      return text === undefined ? null : Buffer.from(text)
    },
    async deploy() {
      state.asked++
      return state.deploy
    },
  }
  return { objects, state, store }
}

test('a page a deploy moved away is no longer read at its old route once the deploy has ended and the check has come round; until then the instance keeps it', async () => {
  const { objects, state, store } = bucket()
  let clock = 0
  const site = deployedSite(store, { checkEveryMs: 5_000, now: () => clock })
  const read = async (key: string) => {
    await site.current()
    return (await site.files.read(key))?.toString('utf8') ?? null
  }
  expect(await read('/docs/leads/pricing.md')).toBe('# Pricing (leads)')
  expect(await read('/docs/leads/pricing.md')).toBe('# Pricing (leads)')
  expect(state.reads).toBe(1)
  // A writer moves the page to a narrower section: the deploy deletes the seal, writes, deletes the old key, writes the seal.
  state.deploy = null
  objects.delete('/docs/leads/pricing.md')
  objects.set('/docs/internal/pricing.md', '# Pricing (internal)')
  state.deploy = 'etag-2'
  clock = 4_000
  expect(await read('/docs/leads/pricing.md')).toBe('# Pricing (leads)')
  clock = 5_001
  expect(await read('/docs/leads/pricing.md')).toBeNull()
  expect(await read('/docs/internal/pricing.md')).toBe('# Pricing (internal)')
  // Asked once per interval, not once per read.
  expect(state.asked).toBe(2)
})

test('a deploy under way (no seal) is another deploy too: what was read before it is read again', async () => {
  const { objects, state, store } = bucket()
  let clock = 0
  const site = deployedSite(store, { checkEveryMs: 1_000, now: () => clock })
  await site.current()
  await site.files.read('/docs/leads/pricing.md')
  state.deploy = null
  objects.set('/docs/leads/pricing.md', '# Pricing, being replaced')
  clock = 2_000
  await site.current()
  expect((await site.files.read('/docs/leads/pricing.md'))?.toString('utf8')).toBe('# Pricing, being replaced')
})

test("search sessions are the deploy's they opened under: after a deploy the next search opens its own over the new deploy's files", async () => {
  const { objects, state, store } = bucket()
  let clock = 0
  const made: SiteFiles[] = []
  const site = deployedSite(store, {
    checkEveryMs: 1_000,
    now: () => clock,
    // A stand-in for Pagefind: its one hit is the page its files hold, read once per session.
    searchOf: (files) => {
      made.push(files)
      let index: Promise<string | null> | null = null
      return { search: async () => [{ url: ((await (index ??= files.read('/docs/leads/pricing.md').then((body) => body?.toString('utf8') ?? null))) ?? 'none') } as never] }
    },
  })
  const search = async () => {
    await site.current()
    return (await site.search.search(['/docs/leads/_pagefind/'], 'pricing', 5)).map((hit) => (hit as unknown as { url: string }).url)
  }
  expect(await search()).toEqual(['# Pricing (leads)'])
  objects.delete('/docs/leads/pricing.md')
  state.deploy = 'etag-2'
  expect(await search()).toEqual(['# Pricing (leads)'])
  clock = 1_001
  expect(await search()).toEqual(['none'])
  expect(made.length).toBe(2)
})

test('when the bucket cannot say which deploy it holds, the check fails (the server answers 503) and is asked again on the next request', async () => {
  const { state, store } = bucket()
  let fail = true
  const site = deployedSite({ ...store, deploy: async () => (fail ? Promise.reject(new Error('SlowDown')) : store.deploy()) }, { checkEveryMs: 60_000, now: () => 0 })
  await expect(site.current()).rejects.toThrow('SlowDown')
  fail = false
  await expect(site.current()).resolves.toBeUndefined()
  expect(state.asked).toBe(1)
})
