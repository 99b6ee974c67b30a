import { screen } from '@testing-library/react'
import { RouteGuard } from '../../components/RouteGuard'
import { mockRouter, resetMockRouter, updateMockRouter } from './helpers/mockNextRouter'
import { LOADING, READERS, renderAs, type ReaderName } from './helpers/readers'
import type { AuthState } from '../../lib/auth/AuthContext'
import { loadAfresh } from '../../lib/navigation/loadAfresh'

const leftFor = loadAfresh as jest.Mock

jest.mock('next/router', () => require('./helpers/mockNextRouter'))
// The guard leaves with a full page load (lib/navigation/loadAfresh.ts), which jsdom cannot make.
jest.mock('../../lib/navigation/loadAfresh', () => ({ loadAfresh: jest.fn() }))
// AuthContext imports Amplify; these tests give the reader directly and must never reach it.
jest.mock('aws-amplify/auth', () => ({ getCurrentUser: jest.fn(() => Promise.reject(new Error('no network in tests'))) }))

const guardedPage = () => (
  <RouteGuard>
    <p>Secret page content</p>
  </RouteGuard>
)

/** Renders the guarded page; `rerenderAs` renders it afresh, as the app does after a router or auth change. */
function renderGuard(auth: AuthState) {
  const result = renderAs(auth, guardedPage())
  return { ...result, rerenderAs: (next: AuthState) => result.rerenderAs(next, guardedPage()) }
}
const content = () => screen.queryByText('Secret page content')

beforeEach(() => {
  resetMockRouter()
  leftFor.mockClear()
})
// Never through the router, which would keep what the tab fetched for a reader who is gone.
afterEach(() => expect(mockRouter.replace).not.toHaveBeenCalled())

describe('RouteGuard: the access flow', () => {
  test('while the reader is loading the page renders as built (the edge served it), with no redirect', () => {
    resetMockRouter({ pathname: '/docs/leads/intro' })
    renderGuard(LOADING)
    expect(content()).toBeInTheDocument()
    expect(screen.queryByText('Loading...')).toBeNull()
    expect(leftFor).not.toHaveBeenCalled()
  })

  test('once the reader turns out not to be allowed, the page goes and "Loading..." shows while redirecting', () => {
    resetMockRouter({ pathname: '/docs/leads/intro' })
    const { rerenderAs } = renderGuard(LOADING)
    rerenderAs(READERS.internal1)
    expect(content()).toBeNull()
    expect(screen.getByRole('status')).toHaveTextContent('Loading...')
    expect(leftFor).toHaveBeenCalledWith('/unauthorized?from=%2Fdocs%2Fleads%2Fintro')
  })

  test('an anonymous reader is sent to the login page with the page to come back to', () => {
    resetMockRouter({ pathname: '/docs/leads/intro' })
    renderGuard(READERS.anonymous)
    expect(leftFor).toHaveBeenCalledTimes(1)
    expect(leftFor).toHaveBeenCalledWith('/login?next=%2Fdocs%2Fleads%2Fintro')
    expect(content()).toBeNull()
  })

  test('the login URL keeps the query and hash of the page, encoded', () => {
    resetMockRouter({ pathname: '/docs/leads/intro', asPath: '/docs/leads/intro?tab=curl#auth' })
    renderGuard(READERS.anonymous)
    expect(leftFor).toHaveBeenCalledWith('/login?next=%2Fdocs%2Fleads%2Fintro%3Ftab%3Dcurl%23auth')
  })

  test('a signed-in reader without the section is sent to /unauthorized, saying where from', () => {
    resetMockRouter({ pathname: '/docs/leads/intro' })
    renderGuard(READERS.internal1)
    expect(leftFor).toHaveBeenCalledTimes(1)
    expect(leftFor).toHaveBeenCalledWith('/unauthorized?from=%2Fdocs%2Fleads%2Fintro')
    expect(content()).toBeNull()
  })

  test('a reader of the section sees the page and is not redirected', () => {
    resetMockRouter({ pathname: '/docs/leads/intro' })
    renderGuard(READERS.leads1)
    expect(content()).toBeInTheDocument()
    expect(screen.queryByText('Loading...')).toBeNull()
    expect(leftFor).not.toHaveBeenCalled()
  })

  test('nothing redirects before the router is ready; once it is, the redirect happens', () => {
    resetMockRouter({ pathname: '/docs/leads/intro', isReady: false })
    const { rerenderAs } = renderGuard(READERS.anonymous)
    expect(leftFor).not.toHaveBeenCalled()
    expect(content()).toBeNull()
    updateMockRouter({ isReady: true })
    rerenderAs(READERS.anonymous)
    expect(leftFor).toHaveBeenCalledTimes(1)
    expect(leftFor).toHaveBeenCalledWith('/login?next=%2Fdocs%2Fleads%2Fintro')
  })

  test('the guard follows a sign-out: the page goes and the reader is sent to sign in', () => {
    resetMockRouter({ pathname: '/docs/internal/intro' })
    const { rerenderAs } = renderGuard(READERS.internal1)
    expect(content()).toBeInTheDocument()
    rerenderAs(READERS.anonymous)
    expect(content()).toBeNull()
    expect(leftFor).toHaveBeenCalledWith('/login?next=%2Fdocs%2Finternal%2Fintro')
  })

  test('a tab whose reader turns out to be another reader (one signed out, another signed in elsewhere) loads the page afresh; the first reader known, or the same one again, does not', () => {
    resetMockRouter({ pathname: '/', asPath: '/?tab=1' })
    const { rerenderAs } = renderGuard(LOADING)
    rerenderAs(READERS.leads1)
    rerenderAs(READERS.leads1)
    expect(leftFor).not.toHaveBeenCalled()
    rerenderAs(READERS.admin)
    expect(leftFor).toHaveBeenCalledTimes(1)
    expect(leftFor).toHaveBeenCalledWith('/?tab=1')
  })

  test.each(['/unauthorized', '/404', '/connected-tools'])("on %s, which anyone may open, a reader who signs out elsewhere leaves the tab loaded afresh: the next reader signs in from it, and finds none of the last one's page maps or data", (pathname) => {
    resetMockRouter({ pathname, asPath: `${pathname}?from=tab` })
    const { rerenderAs } = renderGuard(LOADING)
    rerenderAs(READERS.leads1)
    expect(leftFor).not.toHaveBeenCalled()
    rerenderAs(READERS.anonymous)
    expect(leftFor).toHaveBeenCalledTimes(1)
    expect(leftFor).toHaveBeenCalledWith(`${pathname}?from=tab`)
  })

  describe.each(['/login', '/unauthorized', '/404'])('public route %s', (pathname) => {
    test.each<ReaderName | 'loading'>(['loading', 'anonymous', 'outsider', 'leads1'])('shows the page to a %s reader without redirecting', (reader) => {
      resetMockRouter({ pathname, asPath: pathname === '/404' ? '/no/such/page' : pathname })
      renderGuard(reader === 'loading' ? LOADING : READERS[reader])
      expect(content()).toBeInTheDocument()
      expect(screen.queryByText('Loading...')).toBeNull()
      expect(leftFor).not.toHaveBeenCalled()
    })
  })

  test('a signed-in reader outside every list may open the home page', () => {
    resetMockRouter({ pathname: '/' })
    renderGuard(READERS.outsider)
    expect(content()).toBeInTheDocument()
    expect(leftFor).not.toHaveBeenCalled()
  })

  test('an anonymous reader of the home page is sent to sign in', () => {
    resetMockRouter({ pathname: '/' })
    renderGuard(READERS.anonymous)
    expect(leftFor).toHaveBeenCalledWith('/login?next=%2F')
    expect(content()).toBeNull()
  })

  test.each<[ReaderName, string, 'allow' | 'deny']>([
    ['admin', '/docs/internal/intro', 'allow'],
    ['admin', '/docs', 'allow'],
    ['internal1', '/docs/internal/data-lake/overview', 'allow'],
    ['support1', '/docs/support-twilio/sql-queries/overall', 'allow'],
    ['support1', '/docs/internal/intro', 'deny'],
    ['leads1', '/docs', 'deny'],
    ['outsider', '/docs/leads/intro', 'deny'],
  ])('%s on %s: %s', (reader, pathname, expected) => {
    resetMockRouter({ pathname })
    renderGuard(READERS[reader])
    if (expected === 'allow') {
      expect(content()).toBeInTheDocument()
      expect(leftFor).not.toHaveBeenCalled()
    } else {
      expect(content()).toBeNull()
      expect(leftFor).toHaveBeenCalledWith(`/unauthorized?from=${encodeURIComponent(pathname)}`)
    }
  })
})
