import { act, fireEvent, screen, within } from '@testing-library/react'
import UnauthorizedPage from '../../pages/unauthorized'
import { resetMockRouter } from './helpers/mockNextRouter'
import { LOADING, READERS, renderAs, signedInUnder } from './helpers/readers'
import shipped from '../../access.config'
import type { AccessConfig } from '../../lib/access/types'

jest.mock('next/router', () => require('./helpers/mockNextRouter'))
// The site's layout around the page: the real Nextra theme, bundled to CommonJS for Jest.
jest.mock('nextra-theme-docs', () => require(require('./helpers/nextraThemeDocs').nextraThemeDocsBundle()), { virtual: true })
beforeAll(() => require('./helpers/browserApis').installBrowserApis())
jest.mock('aws-amplify/auth', () => ({
  signOut: jest.fn(() => Promise.resolve()),
  fetchAuthSession: jest.fn(() => Promise.reject(new Error('offline'))),
  getCurrentUser: jest.fn(() => Promise.reject(new Error('offline'))),
}))
jest.mock('aws-amplify', () => ({ Amplify: { configure: jest.fn(), getConfig: jest.fn(() => ({})) } }))
const amplifyAuth = jest.requireMock('aws-amplify/auth') as { signOut: jest.Mock }

const realLocation = window.location
let assign: jest.Mock
beforeEach(() => {
  assign = jest.fn()
  Object.defineProperty(window, 'location', { configurable: true, value: { ...realLocation, assign } })
  amplifyAuth.signOut.mockClear()
})
afterEach(() => Object.defineProperty(window, 'location', { configurable: true, value: realLocation }))

describe('unauthorized page: shown to a denied reader, with no content', () => {
  test('tells a signed-in reader who they are and which page they may not read', () => {
    resetMockRouter({ pathname: '/unauthorized', query: { from: '/docs/leads/intro' } })
    renderAs(READERS.internal1, <UnauthorizedPage />)
    expect(screen.getByRole('heading', { name: 'You do not have access to this section' })).toBeInTheDocument()
    // The page's own text (the navbar's user menu names the reader too).
    const page = within(screen.getByRole('main'))
    expect(page.getByText('internal1')).toBeInTheDocument()
    expect(page.getByText('/docs/leads/intro')).toBeInTheDocument()
    expect(screen.getByRole('link', { name: 'Go to the home page' })).toHaveAttribute('href', '/')
  })

  test('a reader whom a rule keeps from the home page is offered their first section instead', () => {
    const homeForLeads = { ...shipped, rules: [{ path: '/', match: 'exact', require: 'leadsUsers' }] } satisfies AccessConfig
    resetMockRouter({ pathname: '/unauthorized', query: { from: '/' } })
    renderAs(signedInUnder(homeForLeads, 'internal1'), <UnauthorizedPage />)
    expect(within(screen.getByRole('main')).queryByRole('link', { name: 'Go to the home page' })).toBeNull()
    expect(screen.getByRole('link', { name: 'Go to Internal' })).toHaveAttribute('href', '/docs/internal/intro')
  })

  test('a signed-in reader may search from it, as from a docs page (the sign-in page has no search)', () => {
    resetMockRouter({ pathname: '/unauthorized', query: { from: '/docs/internal/intro' } })
    // As next.config.ts sets it for the build: without it the theme shows no search on any page.
    process.env.NEXTRA_SEARCH = 'true'
    try {
      renderAs(READERS.leads1, <UnauthorizedPage />)
      expect(screen.getAllByRole('combobox', { name: 'Search documentation' }).length).toBeGreaterThan(0)
    } finally {
      delete process.env.NEXTRA_SEARCH
    }
  })

  test('does not echo a `from` that is not a path on this site', () => {
    resetMockRouter({ pathname: '/unauthorized', query: { from: 'https://evil.example/<b>' } })
    renderAs(READERS.internal1, <UnauthorizedPage />)
    expect(screen.queryByText(/evil\.example/)).toBeNull()
    expect(screen.getByText(/may not read that section/)).toBeInTheDocument()
  })

  test("echoes only a route as the site spells one: a link's own words (a message, a fragment) are not shown as the site's", () => {
    for (const from of ['/Your_session_expired._Re-enter_your_password_at_evil.example', '/your-password-expired.reset-it-at-helpdesk.evil.example', '/docs/leads/intro#call-support-on-0800-000', '/docs/leads/intro?note=sign%20in%20again', '/docs/leads/intro%20now']) {
      resetMockRouter({ pathname: '/unauthorized', query: { from } })
      const { unmount } = renderAs(READERS.internal1, <UnauthorizedPage />)
      expect([from, screen.getByText(/may not read/).textContent]).toEqual([from, 'You are signed in as internal1, and this account may not read that section. Ask the docs team if you need it.'])
      unmount()
    }
  })

  test('an anonymous reader is offered to sign in', () => {
    resetMockRouter({ pathname: '/unauthorized' })
    renderAs(READERS.anonymous, <UnauthorizedPage />)
    expect(screen.getByText('You are not signed in.')).toBeInTheDocument()
    expect(screen.getByRole('link', { name: 'Sign in' })).toHaveAttribute('href', '/login')
    expect(screen.queryByRole('button', { name: 'Sign out' })).toBeNull()
  })

  test('while loading it says so, and offers neither to sign in nor to sign out until it knows which', () => {
    resetMockRouter({ pathname: '/unauthorized' })
    renderAs(LOADING, <UnauthorizedPage />)
    const main = within(screen.getByRole('main'))
    expect(main.getByRole('status')).toHaveTextContent('Loading...')
    expect(main.queryByRole('link', { name: 'Sign in' })).toBeNull()
    expect(main.queryByRole('button', { name: 'Sign out' })).toBeNull()
    expect(main.getByRole('link', { name: 'Go to the home page' })).toBeInTheDocument()
  })

  test('Sign out signs out and loads the login page, so another account can be used', async () => {
    resetMockRouter({ pathname: '/unauthorized', query: { from: '/docs/leads/intro' } })
    renderAs(READERS.internal1, <UnauthorizedPage />)
    await act(async () => {
      fireEvent.click(within(screen.getByRole('main')).getByRole('button', { name: 'Sign out' }))
    })
    expect(amplifyAuth.signOut).toHaveBeenCalledTimes(1)
    expect(assign).toHaveBeenCalledWith('/login')
  })
})
