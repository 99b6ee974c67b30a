/**
 * The search box with a fake Pagefind: which index files each reader's browser would request,
 * keyboard use, and the loading, empty and failure states.
 */
import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react'
import { SiteSearch } from '../../components/SiteSearch'
import { AuthStateProvider, type AuthState } from '../../lib/auth/AuthContext'
import type { PagefindLoader, PagefindModule, ShardListReader } from '../../lib/search/searchClient'
import { ANONYMOUS, SHIPPED_AUDIENCES, signedInAs } from '../components/helpers/readers'
import { access } from '../../lib/access'
import { audienceIdOf } from '../../lib/access/planAggregates'

/** The indexes of the home page and of the /docs root, which the plan puts in folders of their own. */
const HOME = SHIPPED_AUDIENCES.find((audience) => audience.governedBy === '/')!.search!
const DOCS_ROOT = SHIPPED_AUDIENCES.find((audience) => audience.id === audienceIdOf(access, '/docs'))!.search!

const mockPush = jest.fn((_url: string) => Promise.resolve(true))
jest.mock('next/router', () => ({ useRouter: () => ({ asPath: '/', push: mockPush }) }))

interface FakeRecord {
  url: string
  content: string
  meta: Record<string, string>
}

/** What each index holds, by base path: a word per section that no other section has. */
const SITE: Record<string, FakeRecord[]> = {
  [HOME]: [{ url: '/', content: 'Home. Engineering documentation', meta: { title: 'Home', section: 'Home' } }],
  '/docs/leads/_pagefind/': [
    { url: '/docs/leads/intro', content: 'Leads API introduction. Partners create a quote', meta: { title: 'Leads API introduction', section: 'Leads API' } },
    { url: '/docs/leads/endpoints/create-quote#request-body', content: 'Request body. The quote fields', meta: { title: 'Create a quote', section: 'Leads API', heading: 'Request body' } },
    { url: '/docs/leads/endpoints/get-quote-fees', content: 'Get quote fees. Fees for a quote', meta: { title: 'Get quote fees', section: 'Leads API' } },
  ],
  '/docs/internal/_pagefind/': [
    {
      url: '/docs/internal/data-lake/integration-sources/hoowla/case-enrichements#enrichment-watermark-reconciliation',
      content: 'Enrichment watermark reconciliation. Each case stores a watermark',
      meta: { title: 'Hoowla case enrichments pipeline', section: 'Internal', heading: 'Enrichment watermark reconciliation' },
    },
  ],
  '/docs/support-twilio/_pagefind/': [{ url: '/docs/support-twilio/intro', content: 'Twilio support. Search by phone', meta: { title: 'Twilio support', section: 'Twilio support' } }],
  [DOCS_ROOT]: [{ url: '/docs', content: 'Documentation. All documentation sections', meta: { title: 'Documentation', section: 'Home' } }],
}

/** How many shards each index is cut into (lib/search/searchShards.ts): the leads index has two, its records taking turns. */
const shardsOf = (basePath: string) => (basePath === '/docs/leads/_pagefind/' ? 2 : 1)

/** The records of a shard, by its base path (`<index>/<n>/`). */
function shardRecords(shardPath: string): FakeRecord[] {
  const [, index, shard] = /^(.*\/)(\d+)\/$/.exec(shardPath)!
  return SITE[index].filter((_, at) => at % shardsOf(index) === Number(shard))
}

/** A stand-in for pagefind.js that records every URL a browser would fetch. */
function fakePagefind(options: { failures?: number; hold?: boolean } = {}) {
  const requested: string[] = []
  /** What the search box asked of Pagefind, in order. */
  const calls: string[] = []
  let failures = options.failures ?? 0
  let release: () => void = () => undefined
  const held = new Promise<void>((resolve) => (release = resolve))
  const loader = jest.fn<ReturnType<PagefindLoader>, Parameters<PagefindLoader>>(async (url) => {
    requested.push(url)
    if (options.hold) await held
    if (failures > 0) {
      failures--
      throw new Error('Failed to fetch dynamically imported module')
    }
    const module: PagefindModule = {
      createInstance: ({ basePath }) => {
        const loaded = [basePath]
        requested.push(`${basePath}pagefind-entry.json`)
        return {
          init: async () => undefined,
          destroy: async () => {
            requested.push(`destroy ${loaded.join(' ')}`)
          },
          mergeIndex: async (path: string) => {
            requested.push(`${path}pagefind-entry.json`)
            loaded.push(path)
          },
          preload: async (term: string) => {
            calls.push(`preload ${term}`)
          },
          search: async (term: string) => {
            calls.push(`search ${term}`)
            const words = term.toLowerCase().split(/\s+/)
            const matches = loaded.flatMap((path) => shardRecords(path).map((record) => ({ path, record })))
              .filter(({ record }) => words.every((word) => record.content.toLowerCase().includes(word)))
            return {
              results: matches.map(({ path, record }, at) => ({
                id: `${path}${at}`,
                data: async () => {
                  requested.push(`${path}fragment/${at}.pf_fragment`)
                  const excerpt = record.content.replace(new RegExp(`(${words.join('|')})`, 'gi'), '<mark>$1</mark>')
                  // As Pagefind answers for a page document: the page, and the part under the matching heading.
                  const [page] = record.url.split('#')
                  const { heading, ...meta } = record.meta
                  return { url: page, raw_url: page, excerpt, meta, sub_results: [{ title: heading ?? meta.title, url: record.url, excerpt, weighted_locations: [{ balanced_score: 1 }] }] }
                },
              })),
            }
          },
        }
      },
    }
    return module
  })
  const readShards: ShardListReader = async (url) => {
    requested.push(url)
    const index = url.replace(/shards\.json$/, '')
    return Array.from({ length: shardsOf(index) }, (_, shard) => shard)
  }
  return { loader: loader as PagefindLoader & jest.Mock, readShards, requested, calls, release }
}

const as = (username: string | null): AuthState => (username === null ? ANONYMOUS : signedInAs(username))

function renderSearch(username: string | null, fake = fakePagefind(), debounceMs = 0) {
  const view = render(
    <AuthStateProvider value={as(username)}>
      <label htmlFor="other">Other field</label>
      <input id="other" />
      <SiteSearch loader={fake.loader} readShards={fake.readShards} debounceMs={debounceMs} />
    </AuthStateProvider>
  )
  return { ...view, fake }
}

const input = () => screen.getByRole('combobox', { name: 'Search documentation' }) as HTMLInputElement
const type = (value: string) => fireEvent.change(input(), { target: { value } })
const focusSearch = () => act(() => input().focus())

beforeEach(() => mockPush.mockClear())

describe('what each reader\'s browser requests', () => {
  test('nothing is loaded with the page; the first focus loads Pagefind once', async () => {
    const { fake } = renderSearch('admin')
    expect(fake.loader).not.toHaveBeenCalled()
    focusSearch()
    type('quote')
    await screen.findByRole('listbox')
    expect(fake.loader).toHaveBeenCalledTimes(1)
  })

  test.each([
    ['admin', [HOME, '/docs/leads/_pagefind/', '/docs/internal/_pagefind/', '/docs/support-twilio/_pagefind/', DOCS_ROOT]],
    ['leads1', [HOME, '/docs/leads/_pagefind/']],
    ['internal1', [HOME, '/docs/internal/_pagefind/']],
    ['support1', [HOME, '/docs/support-twilio/_pagefind/']],
    ['outsider', [HOME]],
  ])('%s loads exactly the indexes %j', async (username, indexes) => {
    const { fake } = renderSearch(username)
    focusSearch()
    type('watermark quote phone home')
    await waitFor(() => expect(fake.requested).toContain(`${indexes[indexes.length - 1]}0/pagefind-entry.json`))
    type('watermark')
    type('quote')
    await act(async () => new Promise((resolve) => setTimeout(resolve, 10)))
    expect(fake.requested[0]).toBe(`${HOME}pagefind.js`)
    const used = new Set(fake.requested.map((url) => url.replace(/(_pagefind\/).*$/, '$1')))
    expect([...used].sort()).toEqual([...indexes].sort())
  })

  test("a query whose pages lie in both shards of the leads index shows the pages of both", async () => {
    const { fake } = renderSearch('leads1')
    focusSearch()
    type('quote')
    const links = (await screen.findAllByRole('option')).map((option) => option.getAttribute('href'))
    expect(shardRecords('/docs/leads/_pagefind/0/').length).toBeGreaterThan(0)
    expect(shardRecords('/docs/leads/_pagefind/1/').length).toBeGreaterThan(0)
    expect(links.sort()).toEqual(SITE['/docs/leads/_pagefind/'].map((record) => record.url).sort())
    expect(fake.requested.filter((url) => url.endsWith('pagefind-entry.json')).sort()).toEqual([`${HOME}0/pagefind-entry.json`, '/docs/leads/_pagefind/0/pagefind-entry.json', '/docs/leads/_pagefind/1/pagefind-entry.json'])
  })

  test('leads1 searching an internal-only word gets no results and requests nothing of other sections', async () => {
    const { fake } = renderSearch('leads1')
    focusSearch()
    type('watermark')
    await screen.findByText('No results for “watermark”')
    expect(fake.requested.filter((url) => /\/docs\/(internal|support-twilio)\//.test(url))).toEqual([])
  })

  test('when the reader changes, the previous reader\'s instance is destroyed and only the new reader\'s indexes load', async () => {
    const fake = fakePagefind()
    const tree = (username: string) => (
      <AuthStateProvider value={as(username)}>
        <SiteSearch loader={fake.loader} readShards={fake.readShards} debounceMs={0} />
      </AuthStateProvider>
    )
    const { rerender } = render(tree('internal1'))
    focusSearch()
    type('watermark')
    await screen.findByRole('listbox')
    act(() => input().blur())
    fake.requested.length = 0
    rerender(tree('leads1'))
    await waitFor(() => expect(fake.requested).toEqual([`destroy ${HOME}0/ /docs/internal/_pagefind/0/`]))
    focusSearch()
    type('watermark')
    await screen.findByText('No results for “watermark”')
    // Its own copy of pagefind.js, so it never shares Pagefind's WebAssembly with the previous reader's.
    expect(fake.requested.slice(1)).toEqual([
      `${HOME}pagefind.js?copy=1`,
      `${HOME}shards.json`,
      '/docs/leads/_pagefind/shards.json',
      `${HOME}0/pagefind-entry.json`,
      '/docs/leads/_pagefind/0/pagefind-entry.json',
      '/docs/leads/_pagefind/1/pagefind-entry.json',
    ])
  })

  test('a reader who is not signed in gets no search box and no requests', () => {
    const { fake, container } = renderSearch(null)
    expect(container.querySelector('.site-search')).toBeNull()
    fireEvent.keyDown(document.body, { key: '/' })
    expect(fake.loader).not.toHaveBeenCalled()
  })
})

describe('results', () => {
  test('show page title, heading, section and the excerpt with matches marked, linking to the anchor', async () => {
    renderSearch('internal1')
    focusSearch()
    type('watermark')
    const option = await screen.findByRole('option')
    expect(option).toHaveTextContent('Hoowla case enrichments pipeline › Enrichment watermark reconciliation')
    expect(option).toHaveTextContent('Internal')
    expect([...option.querySelectorAll('mark')].map((mark) => mark.textContent)).toEqual(['watermark', 'watermark'])
    expect(option).toHaveAttribute(
      'href',
      '/docs/internal/data-lake/integration-sources/hoowla/case-enrichements#enrichment-watermark-reconciliation'
    )
  })

  test('a click navigates on the client without prefetching', async () => {
    renderSearch('internal1')
    focusSearch()
    type('watermark')
    fireEvent.click(await screen.findByRole('option'))
    expect(mockPush).toHaveBeenCalledWith('/docs/internal/data-lake/integration-sources/hoowla/case-enrichements#enrichment-watermark-reconciliation')
    expect(screen.queryByRole('listbox')).toBeNull()
  })
})

describe('keyboard', () => {
  test('"/", Ctrl+K and Cmd+K focus the search box, but not while typing in another field', async () => {
    renderSearch('leads1')
    const other = screen.getByLabelText('Other field')
    fireEvent.keyDown(document.body, { key: '/' })
    expect(document.activeElement).toBe(input())

    act(() => other.focus())
    fireEvent.keyDown(other, { key: '/' })
    expect(document.activeElement).toBe(other)
    fireEvent.keyDown(other, { key: 'k', ctrlKey: true })
    expect(document.activeElement).toBe(other)

    act(() => other.blur())
    fireEvent.keyDown(document.body, { key: 'k', ctrlKey: true })
    expect(document.activeElement).toBe(input())
    act(() => input().blur())
    fireEvent.keyDown(document.body, { key: 'k', metaKey: true })
    expect(document.activeElement).toBe(input())
    // Focusing started the load; let it settle inside act.
    await act(async () => new Promise((resolve) => setTimeout(resolve, 0)))
  })

  test('arrows move the active result, Enter opens it, Escape closes the list', async () => {
    renderSearch('leads1')
    focusSearch()
    type('quote')
    const options = await screen.findAllByRole('option')
    expect(options).toHaveLength(3)
    const activeId = () => input().getAttribute('aria-activedescendant')
    expect(input()).toHaveAttribute('aria-expanded', 'true')
    expect(input()).toHaveAttribute('aria-controls', screen.getByRole('listbox').id)
    expect(activeId()).toBe(options[0].id)

    fireEvent.keyDown(input(), { key: 'ArrowDown' })
    expect(activeId()).toBe(options[1].id)
    expect(options[1]).toHaveAttribute('aria-selected', 'true')
    expect(options[0]).toHaveAttribute('aria-selected', 'false')
    fireEvent.keyDown(input(), { key: 'ArrowDown' })
    fireEvent.keyDown(input(), { key: 'ArrowDown' })
    expect(activeId()).toBe(options[0].id)
    fireEvent.keyDown(input(), { key: 'ArrowUp' })
    expect(activeId()).toBe(options[2].id)

    fireEvent.keyDown(input(), { key: 'Escape' })
    expect(screen.queryByRole('listbox')).toBeNull()
    expect(input()).toHaveAttribute('aria-expanded', 'false')
    expect(input()).not.toHaveAttribute('aria-activedescendant')

    fireEvent.keyDown(input(), { key: 'ArrowDown' })
    await screen.findByRole('listbox')
    fireEvent.keyDown(input(), { key: 'ArrowDown' })
    fireEvent.keyDown(input(), { key: 'Enter' })
    expect(mockPush).toHaveBeenCalledTimes(1)
    expect(mockPush).toHaveBeenCalledWith(options[1].getAttribute('href'))
  })
})

describe('states', () => {
  test('an empty query shows nothing', async () => {
    renderSearch('admin')
    focusSearch()
    await waitFor(() => expect(screen.queryByText('Loading search…')).toBeNull())
    expect(screen.queryByRole('listbox')).toBeNull()
    expect(screen.queryByRole('status')).toBeNull()
    type('   ')
    expect(screen.queryByRole('status')).toBeNull()
  })

  test('while Pagefind loads: "Loading search…"', async () => {
    const fake = fakePagefind({ hold: true })
    renderSearch('leads1', fake)
    focusSearch()
    type('quote')
    expect(screen.getByRole('status')).toHaveTextContent('Loading search…')
    await act(async () => fake.release())
    await screen.findByRole('listbox')
    expect(screen.queryByText('Loading search…')).toBeNull()
  })

  test('while the reader pauses, what the term needs is already loading; the query runs after the pause', async () => {
    const { fake } = renderSearch('leads1', fakePagefind(), 200)
    focusSearch()
    await waitFor(() => expect(fake.requested).toContain('/docs/leads/_pagefind/1/pagefind-entry.json'))
    // Let the loaded session reach the box.
    await act(async () => new Promise((resolve) => setTimeout(resolve, 10)))
    type('quo')
    expect(fake.calls).toEqual(['preload quo'])
    type('quote')
    await screen.findByRole('listbox', undefined, { timeout: 3000 })
    expect(fake.calls).toEqual(['preload quo', 'preload quote', 'search quote'])
  })

  test('no match: "No results for “x”"', async () => {
    renderSearch('leads1')
    focusSearch()
    type('zebra')
    expect(await screen.findByText('No results for “zebra”')).toHaveAttribute('role', 'status')
  })

  test('a failed load says so and offers a retry, which loads again', async () => {
    const fake = fakePagefind({ failures: 1 })
    renderSearch('leads1', fake)
    focusSearch()
    type('quote')
    const alert = await screen.findByRole('alert')
    expect(alert).toHaveTextContent('Search could not be loaded')
    // Typing on does not hammer the server; only the retry button loads again.
    type('quotes')
    type('quote')
    expect(fake.loader).toHaveBeenCalledTimes(1)
    fireEvent.click(within(alert).getByRole('button', { name: 'Retry' }))
    await screen.findByRole('listbox')
    expect(fake.loader).toHaveBeenCalledTimes(2)
    // A URL the browser has not marked as failed.
    expect(fake.loader.mock.calls[1][0]).toBe(`${HOME}pagefind.js?copy=1`)
  })
})
