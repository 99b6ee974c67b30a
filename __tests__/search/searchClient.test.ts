/** @jest-environment node */
import { excerptParts, forgetSearchSession, LOAD_TIMEOUT_MS, openSearchSession, safeResultUrl, sharedSearchSession, toHit, type PagefindLoader, type PagefindModule, type PagefindResultData, type ShardListReader } from '../../lib/search/searchClient'

/** Indexes as a reader's view names them: an audience id and the bundle's path. */
const specs = [
  { id: 'home', basePath: '/_pagefind/' },
  { id: 'leads', basePath: '/docs/leads/_pagefind/' },
  { id: 'internal', basePath: '/docs/internal/_pagefind/' },
]
const pick = (...ids: string[]) => ids.map((id) => specs.find((spec) => spec.id === id)!)

/** Each index's shard list (lib/search/searchShards.ts): the leads index has two shards, numbered as the build numbers them. */
const SHARD_LISTS: Record<string, unknown> = { '/_pagefind/shards.json': [0], '/docs/leads/_pagefind/shards.json': [0, 2], '/docs/internal/_pagefind/shards.json': [1] }

function shardReader(requests: string[], lists = SHARD_LISTS): ShardListReader {
  return async (url) => {
    requests.push(`read ${url}`)
    if (!(url in lists)) throw new Error(`${url} answered 404`)
    return lists[url]
  }
}

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
          preload: async (term: string) => {
            requests.push(`preload ${term}`)
            if (term === 'offline') throw new Error('network')
          },
          search: async () => ({
            results: [
              {
                id: 'a',
                data: async () => ({
                  url: 'http://x/docs/leads/docs/leads/intro',
                  raw_url: '/docs/leads/intro',
                  excerpt: 'page <mark>key</mark>',
                  meta: { title: 'Intro', section: 'Leads API' },
                  sub_results: [
                    { title: 'Intro', url: '/docs/leads/intro', excerpt: 'intro <mark>key</mark>', weighted_locations: [{ balanced_score: 1 }] },
                    { title: 'Auth', url: '/docs/leads/intro#auth', excerpt: 'the <mark>key</mark>', weighted_locations: [{ balanced_score: 1 }, { balanced_score: 0.5 }] },
                  ],
                }),
              },
              { id: 'b', data: async () => ({ url: 'javascript:alert(1)', excerpt: '', meta: { title: 'Bad' } }) },
            ],
          }),
        }
      },
    }
  }
  return { loader, requests, readShards: shardReader(requests) }
}

test("loads pagefind.js from the first index, the engine from its first shard, and merges every other shard of the indexes it is given, and only those", async () => {
  const { loader, requests, readShards } = fakeLoader()
  const session = await openSearchSession(pick('home', 'leads'), loader, LOAD_TIMEOUT_MS, readShards)
  expect(requests).toEqual([
    'import /_pagefind/pagefind.js',
    'read /_pagefind/shards.json',
    'read /docs/leads/_pagefind/shards.json',
    'create /_pagefind/0/ baseUrl=/',
    'merge /docs/leads/_pagefind/0/ baseUrl=/',
    'merge /docs/leads/_pagefind/2/ baseUrl=/',
  ])
  expect(session.basePaths).toEqual(['/_pagefind/0/', '/docs/leads/_pagefind/0/', '/docs/leads/_pagefind/2/'])
  const hits = await session.search('key')
  expect(hits).toEqual([{ id: 'a', url: '/docs/leads/intro#auth', title: 'Intro', section: 'Leads API', heading: 'Auth', excerpt: 'the <mark>key</mark>' }])
})

describe('a page result points at its best-matching part', () => {
  const page = (subResults: PagefindResultData['sub_results']): PagefindResultData => ({ url: '/docs/leads/x', excerpt: 'page excerpt', meta: { title: 'X', section: 'Leads API' }, sub_results: subResults })
  const part = (title: string, url: string, scores: number[]) => ({ title, url, excerpt: `${title} excerpt`, weighted_locations: scores.map((balanced_score) => ({ balanced_score })) })
  const hit = (data: PagefindResultData) => toHit({ id: 'p', data: async () => data }, data)

  test('the part with the highest total score wins; its heading, anchor and excerpt are shown', () => {
    expect(hit(page([part('X', '/docs/leads/x', [1]), part('Fields', '/docs/leads/x#fields', [0.6, 0.6]), part('Errors', '/docs/leads/x#errors', [1.1])]))).toMatchObject({ url: '/docs/leads/x#fields', heading: 'Fields', excerpt: 'Fields excerpt' })
  })

  test('the part before the first heading links to the page itself, without a heading', () => {
    expect(hit(page([part('X', '/docs/leads/x', [3]), part('Fields', '/docs/leads/x#fields', [1])]))).toMatchObject({ url: '/docs/leads/x', heading: null, excerpt: 'X excerpt' })
  })

  test('on a tie the earlier part wins', () => {
    expect(hit(page([part('A', '/docs/leads/x#a', [1]), part('B', '/docs/leads/x#b', [1])]))).toMatchObject({ url: '/docs/leads/x#a', heading: 'A' })
  })

  test('a part whose URL is not a same-site path falls back to the page; no parts gives the page excerpt', () => {
    expect(hit(page([part('Evil', 'javascript:alert(1)', [5])]))).toMatchObject({ url: '/docs/leads/x', heading: null, excerpt: 'page excerpt' })
    expect(hit(page(undefined))).toMatchObject({ url: '/docs/leads/x', heading: null, excerpt: 'page excerpt' })
  })
})

test.each([
  ['not a list', { shards: [0] }],
  ['an empty list', []],
  ['a path instead of a number', ['../../internal/_pagefind/0']],
  ['a number as text', ['0']],
  ['a negative number', [-1]],
])('a shard list that is %s fails the load, naming the list, and nothing is created', async (_, list) => {
  const { loader, requests } = fakeLoader()
  const readShards = shardReader(requests, { ...SHARD_LISTS, '/docs/leads/_pagefind/shards.json': list })
  await expect(openSearchSession(pick('home', 'leads'), loader, LOAD_TIMEOUT_MS, readShards)).rejects.toThrow('search shard list /docs/leads/_pagefind/shards.json: ')
  expect(requests.filter((line) => !line.startsWith('import') && !line.startsWith('read'))).toEqual([])
})

test('a shard list that cannot be read fails the load', async () => {
  const { loader, requests } = fakeLoader()
  const readShards = shardReader(requests, { '/_pagefind/shards.json': [0] })
  await expect(openSearchSession(pick('home', 'leads'), loader, LOAD_TIMEOUT_MS, readShards)).rejects.toThrow('/docs/leads/_pagefind/shards.json answered 404')
})

test('a shared session is loaded once; after a failure the next load retries with a fresh script URL', async () => {
  const { loader, requests, readShards } = fakeLoader({ failImport: 1 })
  await expect(sharedSearchSession(pick('home'), loader, readShards)).rejects.toThrow('network')
  const first = sharedSearchSession(pick('home'), loader, readShards)
  const second = sharedSearchSession(pick('home'), loader, readShards)
  expect(second).toBe(first)
  await first
  expect(requests.filter((line) => line.startsWith('import'))).toEqual(['import /_pagefind/pagefind.js', 'import /_pagefind/pagefind.js?copy=1'])
})

test('an index listed twice is read and merged once', async () => {
  const { loader, requests, readShards } = fakeLoader()
  const session = await openSearchSession([...pick('home', 'leads'), ...pick('leads', 'home')], loader, LOAD_TIMEOUT_MS, readShards)
  expect(requests.filter((line) => line.startsWith('read'))).toEqual(['read /_pagefind/shards.json', 'read /docs/leads/_pagefind/shards.json'])
  expect(requests.filter((line) => line.startsWith('merge'))).toEqual(['merge /docs/leads/_pagefind/0/ baseUrl=/', 'merge /docs/leads/_pagefind/2/ baseUrl=/'])
  expect(session.basePaths).toEqual(['/_pagefind/0/', '/docs/leads/_pagefind/0/', '/docs/leads/_pagefind/2/'])
})

test('preload asks Pagefind for the term and never fails', async () => {
  const { loader, requests, readShards } = fakeLoader()
  const session = await openSearchSession(pick('home'), loader, LOAD_TIMEOUT_MS, readShards)
  session.preload('quo')
  session.preload('offline')
  await new Promise((resolve) => setTimeout(resolve, 0))
  expect(requests.filter((line) => line.startsWith('preload'))).toEqual(['preload quo', 'preload offline'])
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
  // Pagefind escapes only < and >: a page that writes an entity shows it in its excerpt as on the page (a review's page on HTML entities).
  expect(excerptParts('write &amp; or &quot; for <mark>entities</mark>')).toEqual([
    { text: 'write &amp; or &quot; for ', mark: false },
    { text: 'entities', mark: true },
  ])
})

test('a load that never finishes (Pagefind waits forever when WebAssembly is refused) fails after the timeout, and its instance is destroyed', async () => {
  const destroyed: string[] = []
  const loader: PagefindLoader = async () => ({
    createInstance: ({ basePath }) => ({
      init: () => new Promise(() => undefined),
      mergeIndex: async () => undefined,
      search: async () => ({ results: [] }),
      destroy: async () => {
        destroyed.push(basePath)
      },
    }),
  })
  await expect(openSearchSession(pick('home'), loader, 20, shardReader([]))).rejects.toThrow('loading search took longer than 20 ms')
  expect(destroyed).toEqual(['/_pagefind/0/'])
})

/**
 * A stand-in for pagefind.js that keeps its engine as Pagefind 1.6's glue keeps its WebAssembly:
 * in one module-level slot that is checked before an await and set after it, with each instance
 * holding a pointer into whichever engine was current when it started. Like a browser, the loader
 * keeps one module per URL. Each engine start waits for its "download" until the test lets it end.
 */
function engineLikePagefind() {
  const modules = new Map<string, PagefindModule>()
  const downloads: Array<() => void> = []
  const loader: PagefindLoader = async (url) => {
    const known = modules.get(url)
    if (known) return known
    let engine: object | undefined
    const startEngine = async () => {
      if (engine !== undefined) return
      const compiled = {}
      await new Promise<void>((resolve) => downloads.push(resolve))
      engine = compiled
    }
    const module: PagefindModule = {
      createInstance: () => {
        let pointerInto: object | undefined
        const started = startEngine().then(() => {
          pointerInto = engine
        })
        return {
          init: async () => undefined,
          mergeIndex: () => started,
          search: async () => {
            await started
            if (pointerInto !== engine) throw new Error('memory access out of bounds')
            return { results: [] }
          },
          destroy: async () => undefined,
        }
      },
    }
    modules.set(url, module)
    return module
  }
  const settle = () => new Promise((resolve) => setTimeout(resolve, 0))
  return { loader, downloads, settle }
}

test('a session opened while another is still loading keeps its own engine (the reader view changed mid-load)', async () => {
  const { loader, downloads, settle } = engineLikePagefind()
  const readShards = shardReader([])
  const previous = sharedSearchSession(pick('home', 'leads'), loader, readShards)
  await settle()
  forgetSearchSession(pick('home', 'leads'), loader)
  const next = sharedSearchSession(pick('home', 'internal'), loader, readShards)
  await settle()
  expect(downloads).toHaveLength(2)
  // The new session's engine is ready first; the abandoned one finishes later.
  downloads[1]()
  const session = await next
  downloads[0]()
  await previous
  await settle()
  await expect(session.search('watermark')).resolves.toEqual([])
})
