/** @jest-environment node */
import { excerptParts, openSearchSession, safeResultUrl, sharedSearchSession, type PagefindLoader } from '../../lib/search/searchClient'
import { searchIndexSpecs } from '../../lib/search/searchIndexes'

const specs = searchIndexSpecs()
const pick = (...ids: string[]) => specs.filter((spec) => ids.includes(spec.id))

function fakeLoader(options: { failImport?: number } = {}) {
  const requests: string[] = []
  let imports = 0
  const loader: PagefindLoader = async (url) => {
    requests.push(`import ${url}`)
    if (imports++ < (options.failImport ?? 0)) throw new Error('network')
    return {
      createInstance: ({ basePath, baseUrl }) => {
        requests.push(`create ${basePath} baseUrl=${baseUrl}`)
        return {
          init: async () => undefined,
          mergeIndex: async (path: string, opts?: Record<string, unknown>) => {
            requests.push(`merge ${path} baseUrl=${String(opts?.baseUrl)}`)
          },
          search: async () => ({
            results: [
              { id: 'a', data: async () => ({ url: 'http://x/docs/leads/docs/leads/intro#auth', raw_url: '/docs/leads/intro#auth', excerpt: 'the <mark>key</mark>', meta: { title: 'Intro', section: 'Leads API', heading: 'Auth' } }) },
              { id: 'b', data: async () => ({ url: 'javascript:alert(1)', excerpt: '', meta: { title: 'Bad' } }) },
            ],
          }),
        }
      },
    }
  }
  return { loader, requests }
}

test('loads pagefind.js from the first index and merges only the others it is given', async () => {
  const { loader, requests } = fakeLoader()
  const session = await openSearchSession(pick('home', 'leads'), loader)
  expect(requests).toEqual(['import /_pagefind/pagefind.js', 'create /_pagefind/ baseUrl=/', 'merge /docs/leads/_pagefind/ baseUrl=/'])
  expect(session.basePaths).toEqual(['/_pagefind/', '/docs/leads/_pagefind/'])
  const hits = await session.search('key')
  expect(hits).toEqual([{ id: 'a', url: '/docs/leads/intro#auth', title: 'Intro', section: 'Leads API', heading: 'Auth', excerpt: 'the <mark>key</mark>' }])
})

test('a shared session is loaded once; after a failure the next load retries with a fresh script URL', async () => {
  const { loader, requests } = fakeLoader({ failImport: 1 })
  await expect(sharedSearchSession(pick('home'), loader)).rejects.toThrow('network')
  const first = sharedSearchSession(pick('home'), loader)
  const second = sharedSearchSession(pick('home'), loader)
  expect(second).toBe(first)
  await first
  expect(requests.filter((line) => line.startsWith('import'))).toEqual(['import /_pagefind/pagefind.js', 'import /_pagefind/pagefind.js?attempt=1'])
})

test('only same-site paths are linked', () => {
  expect(safeResultUrl({ url: '/docs/leads/intro#a' })).toBe('/docs/leads/intro#a')
  expect(safeResultUrl({ url: 'https://evil.example/x' })).toBe('/x')
  expect(safeResultUrl({ url: '//evil.example/x' })).toBeNull()
  expect(safeResultUrl({ url: 'javascript:alert(1)' })).toBeNull()
})

test('excerpts become text parts; escaped markup stays text', () => {
  expect(excerptParts('a &lt;b&gt; <mark>watermark</mark> & c')).toEqual([
    { text: 'a <b> ', mark: false },
    { text: 'watermark', mark: true },
    { text: ' & c', mark: false },
  ])
})

test('a load that never finishes (Pagefind waits forever when WebAssembly is refused) fails after the timeout', async () => {
  const loader: PagefindLoader = async () => ({
    createInstance: () => ({ init: () => new Promise(() => undefined), mergeIndex: async () => undefined, search: async () => ({ results: [] }) }),
  })
  await expect(openSearchSession(pick('home'), loader, 0, 20)).rejects.toThrow('loading search took longer than 20 ms')
})
