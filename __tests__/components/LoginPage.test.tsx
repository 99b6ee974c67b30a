import { act, render, screen } from '@testing-library/react'
import { Hub } from 'aws-amplify/utils'
import type { ReactNode } from 'react'
import LoginPage from '../../pages/login'
import { AuthProvider } from '../../lib/auth/AuthContext'
import { siteAuthSettings } from '../../lib/auth/siteAuthSettings'
import { mockRouter, resetMockRouter, updateMockRouter } from './helpers/mockNextRouter'
import { access } from '../../lib/access'
import { READER_VIEW_PATH } from '../../lib/access/readerView'
import { readSessionCookies } from '../../lib/auth/readSessionCookies'
import { FEDERATED_REDIRECT_KEY } from '../../lib/auth/sessionClient'
import { readerViewFor, readerViewSources } from '../../edge/readerViewFor'
import { LOADING, READERS, SHIPPED_AUDIENCES, renderAs, signedInUnder } from './helpers/readers'
import shipped from '../../access.config'
import type { AccessConfig } from '../../lib/access/types'

jest.mock('next/router', () => require('./helpers/mockNextRouter'))
// The site's layout around the page: the real Nextra theme, bundled to CommonJS for Jest.
jest.mock('nextra-theme-docs', () => require(require('./helpers/nextraThemeDocs').nextraThemeDocsBundle()), { virtual: true })
beforeAll(() => require('./helpers/browserApis').installBrowserApis())

// The Amplify sign-in form is a large third-party component; the page is what is under test.
// The stub records the props the page gives it.
const authenticatorProps: Array<Record<string, unknown>> = []
jest.mock('@aws-amplify/ui-react', () => ({
  Authenticator: (props: Record<string, unknown> & { children?: ReactNode }) => {
    authenticatorProps.push(props)
    return <div>AUTHENTICATOR</div>
  },
}))
jest.mock('aws-amplify/auth', () => ({
  signIn: jest.fn(() => Promise.resolve({ isSignedIn: true, nextStep: { signInStep: 'DONE' } })),
  getCurrentUser: jest.fn(() => Promise.reject(new Error('no network in tests'))),
  signOut: jest.fn(() => Promise.resolve()),
  signInWithRedirect: jest.fn(() => Promise.resolve()),
}))
jest.mock('aws-amplify/auth/enable-oauth-listener', () => ({}))
// Amplify's own configuration is not under test (and warns about the local endpoint).
jest.mock('@aws-amplify/core', () => ({ ...jest.requireActual('@aws-amplify/core'), Amplify: { configure: jest.fn(), getConfig: jest.fn(() => ({})) } }))
const amplifyAuth = jest.requireMock('aws-amplify/auth') as { signIn: jest.Mock; signInWithRedirect: jest.Mock }
const amplifyCore = jest.requireMock('@aws-amplify/core') as { Amplify: { configure: jest.Mock } }
/** The app client Amplify was last configured with. */
const lastConfiguredClient = () => amplifyCore.Amplify.configure.mock.calls.at(-1)?.[0]?.Auth?.Cognito?.userPoolClientId

beforeEach(() => {
  authenticatorProps.length = 0
  amplifyAuth.signIn.mockClear()
  resetMockRouter({ pathname: '/login' })
})

const lastAuthenticatorProps = () => authenticatorProps[authenticatorProps.length - 1]

describe('login page: the sign-in form (username only, no sign-up)', () => {
  test('an anonymous reader gets the sign-in form, with username sign-in and no sign-up', () => {
    renderAs(READERS.anonymous, <LoginPage />)
    expect(screen.getByText('AUTHENTICATOR')).toBeInTheDocument()
    expect(screen.getByRole('heading', { name: 'Sign in to the documentation' })).toBeInTheDocument()
    expect(lastAuthenticatorProps().loginMechanisms).toEqual(['username'])
    expect(lastAuthenticatorProps().hideSignUp).toBe(true)
    expect(mockRouter.replace).not.toHaveBeenCalled()
  })

  test('in local mode sign-in uses USER_PASSWORD_AUTH (cognito-local has no SRP); in production the default', async () => {
    renderAs(READERS.anonymous, <LoginPage />)
    const services = lastAuthenticatorProps().services as { handleSignIn?: (input: unknown) => Promise<unknown> } | undefined
    if (siteAuthSettings.mode === 'local') {
      await services!.handleSignIn!({ username: 'leads1', password: 'pw', options: { clientMetadata: { a: 'b' } } })
      expect(amplifyAuth.signIn).toHaveBeenCalledWith({
        username: 'leads1',
        password: 'pw',
        options: { clientMetadata: { a: 'b' }, authFlowType: 'USER_PASSWORD_AUTH' },
      })
    } else {
      expect(services).toBeUndefined()
    }
  })

  test('a signed-in reader does not get the form but a status message', () => {
    renderAs(READERS.leads1, <LoginPage />)
    expect(screen.queryByText('AUTHENTICATOR')).toBeNull()
    expect(screen.getByRole('status')).toHaveTextContent('Signed in. Taking you to your docs')
  })

  test('no search box, even for a signed-in reader with search indexes: the page carries none of the search code', () => {
    expect(READERS.leads1.view?.search.length).toBeGreaterThan(0)
    // As next.config.ts sets it for the build: without it the theme shows no search on any page.
    process.env.NEXTRA_SEARCH = 'true'
    try {
      renderAs(READERS.leads1, <LoginPage />)
      expect(screen.queryByRole('combobox', { name: 'Search documentation' })).toBeNull()
    } finally {
      delete process.env.NEXTRA_SEARCH
    }
  })
})

describe('login page: a signed-in reader is sent on', () => {
  test.each<[string, string | string[] | undefined, string]>([
    ['a page on this site', '/docs/leads/intro', '/docs/leads/intro'],
    ['a page with query and hash', '/docs/leads/intro?tab=curl#auth', '/docs/leads/intro?tab=curl#auth'],
    ['an absolute URL elsewhere', 'https://evil.example', '/'],
    ['a protocol-relative URL', '//evil.example', '/'],
    ['a backslash host trick', '/\\evil.example', '/'],
    ['a javascript: URL', 'javascript:alert(1)', '/'],
    ['the login page itself', '/login?next=%2Fdocs', '/'],
    ['a repeated next parameter', ['/docs/leads/intro', '/docs/internal/intro'], '/'],
    ['no next parameter', undefined, '/'],
  ])('next = %s', (_label, next, expected) => {
    resetMockRouter({ pathname: '/login', query: next === undefined ? {} : { next } })
    renderAs(READERS.leads1, <LoginPage />)
    expect(mockRouter.replace).toHaveBeenCalledTimes(1)
    expect(mockRouter.replace).toHaveBeenCalledWith(expected)
  })

  test('signing in on the page sends the reader on to the page they asked for', () => {
    resetMockRouter({ pathname: '/login', query: { next: '/docs/leads/intro' } })
    const { rerenderAs } = renderAs(READERS.anonymous, <LoginPage />)
    expect(mockRouter.replace).not.toHaveBeenCalled()
    rerenderAs(READERS.leads1, <LoginPage />)
    expect(mockRouter.replace).toHaveBeenCalledWith('/docs/leads/intro')
  })

  test('a reader whom a rule keeps from the home page goes to their first section, unless they asked for a page', () => {
    const homeForLeads = { ...shipped, rules: [{ path: '/', match: 'exact', require: 'leadsUsers' }] } satisfies AccessConfig
    resetMockRouter({ pathname: '/login', query: {} })
    renderAs(signedInUnder(homeForLeads, 'internal1'), <LoginPage />)
    expect(mockRouter.replace).toHaveBeenCalledWith('/docs/internal/intro')
    resetMockRouter({ pathname: '/login', query: { next: '/docs/internal/data-lake' } })
    renderAs(signedInUnder(homeForLeads, 'internal1'), <LoginPage />)
    expect(mockRouter.replace).toHaveBeenCalledWith('/docs/internal/data-lake')
    // One who may open it, and one who may open nothing, go home (the latter is then told they have no access).
    for (const username of ['leads1', 'outsider']) {
      resetMockRouter({ pathname: '/login', query: {} })
      renderAs(signedInUnder(homeForLeads, username), <LoginPage />)
      expect(mockRouter.replace).toHaveBeenCalledWith('/')
    }
    // Where every other path is open to signed-in readers, the rule they fail is still the authority's to say.
    resetMockRouter({ pathname: '/login', query: {} })
    renderAs(signedInUnder({ ...homeForLeads, fallback: 'signedIn' }, 'internal1'), <LoginPage />)
    expect(mockRouter.replace).toHaveBeenCalledWith('/docs/internal/intro')
  })

  test('no redirect while the reader is still loading', () => {
    resetMockRouter({ pathname: '/login', query: { next: '/docs/leads/intro' } })
    renderAs(LOADING, <LoginPage />)
    expect(mockRouter.replace).not.toHaveBeenCalled()
  })

  test('no redirect before the router is ready (the query is not known yet); then it goes to next', () => {
    resetMockRouter({ pathname: '/login', isReady: false, query: {} })
    const { rerenderAs } = renderAs(READERS.leads1, <LoginPage />)
    expect(mockRouter.replace).not.toHaveBeenCalled()
    updateMockRouter({ isReady: true, query: { next: '/docs/leads/intro' } })
    rerenderAs(READERS.leads1, <LoginPage />)
    expect(mockRouter.replace).toHaveBeenCalledTimes(1)
    expect(mockRouter.replace).toHaveBeenCalledWith('/docs/leads/intro')
  })
})

describe('login page with the real session provider (no Amplify network calls)', () => {
  const clientId = siteAuthSettings.userPoolClientId
  const prefix = `CognitoIdentityServiceProvider.${clientId}`
  const base64url = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url')
  const idToken = (username: string) =>
    `${base64url({ alg: 'RS256' })}.${base64url({ 'cognito:username': username, exp: Math.floor(Date.now() / 1000) + 3600 })}.sig`
  /** What Amplify's cookie storage holds once a reader has signed in. */
  function storeSession(username: string) {
    document.cookie = `${prefix}.LastAuthUser=${username}; path=/`
    document.cookie = `${prefix}.${username}.idToken=${idToken(username)}; path=/`
  }
  /**
   * The authority's answer to the reader-view request, as the edge gives it: the reader named by
   * the stored token (the edge would verify it), and what that reader may open.
   */
  const sources = readerViewSources(access, {}, SHIPPED_AUDIENCES)
  beforeEach(() => {
    global.fetch = jest.fn(async (url: string) => {
      expect(url).toBe(READER_VIEW_PATH)
      const session = readSessionCookies(document.cookie, clientId)
      return { ok: true, json: async () => readerViewFor(sources, session ? { username: session.username } : null) }
    }) as unknown as typeof fetch
  })
  afterEach(() => {
    delete window.__docsReaderView
    for (const pair of document.cookie.split(';')) {
      const name = pair.split('=')[0].trim()
      if (name) document.cookie = `${name}=; path=/; expires=Thu, 01 Jan 1970 00:00:00 GMT`
    }
  })

  test('signing in with the form stores the session; the page then goes to next', async () => {
    resetMockRouter({ pathname: '/login', query: { next: '/docs/leads/intro' } })
    render(
      <AuthProvider>
        <LoginPage />
      </AuthProvider>
    )
    expect(await screen.findByText('AUTHENTICATOR')).toBeInTheDocument()
    expect(mockRouter.replace).not.toHaveBeenCalled()

    // What Amplify does on a successful sign-in: store the tokens, then announce it on the Hub.
    storeSession('leads1')
    const warn = jest.spyOn(console, 'warn').mockImplementation(() => {}) // "auth is a protected channel"
    await act(async () => {
      Hub.dispatch('auth', { event: 'signedIn', data: { username: 'leads1' } } as never)
    })
    warn.mockRestore()
    expect(mockRouter.replace).toHaveBeenCalledWith('/docs/leads/intro')
    expect(screen.queryByText('AUTHENTICATOR')).toBeNull()
  })

  test('a reader who is already signed in and opens /login is sent on at once', async () => {
    storeSession('internal1')
    resetMockRouter({ pathname: '/login', query: { next: 'https://evil.example/phish' } })
    render(
      <AuthProvider>
        <LoginPage />
      </AuthProvider>
    )
    expect(await screen.findByRole('status')).toHaveTextContent('Signed in.')
    expect(mockRouter.replace).toHaveBeenCalledWith('/')
  })
})

describe('login page with a federated identity provider', () => {
  afterEach(() => {
    delete siteAuthSettings.federation
  })

  test('without one configured, only the username form is offered', () => {
    renderAs(READERS.anonymous, <LoginPage />)
    expect(screen.queryByRole('button', { name: /^Sign in with/ })).toBeNull()
  })

  test('with one configured, "Sign in with <provider>" sits beside the username form and starts Amplify\'s redirect sign-in', async () => {
    siteAuthSettings.federation = { provider: 'CompanySSO', domain: 'company-docs.auth.eu-west-2.amazoncognito.com', clientId: 'localdocsfederated000000000' }
    renderAs(READERS.anonymous, <LoginPage />)
    expect(screen.getByText('AUTHENTICATOR')).toBeInTheDocument()
    await act(async () => {
      screen.getByRole('button', { name: 'Sign in with CompanySSO' }).click()
    })
    expect(amplifyAuth.signInWithRedirect).toHaveBeenCalledWith({ provider: { custom: 'CompanySSO' } })
    // Through the federated client (the only one that may write the directory's groups), marked so
    // that the page the provider returns to exchanges the code with the same client.
    expect(window.sessionStorage.getItem(FEDERATED_REDIRECT_KEY)).not.toBeNull()
    expect(lastConfiguredClient()).toBe('localdocsfederated000000000')
    window.sessionStorage.clear()
  })

  test('with one configured, the username form signs in through the web client', async () => {
    siteAuthSettings.federation = { provider: 'CompanySSO', domain: 'company-docs.auth.eu-west-2.amazoncognito.com', clientId: 'localdocsfederated000000000' }
    renderAs(READERS.anonymous, <LoginPage />)
    await act(async () => {
      screen.getByRole('button', { name: 'Sign in with CompanySSO' }).click()
    })
    const services = lastAuthenticatorProps().services as { handleSignIn: (input: unknown) => Promise<unknown> }
    await services.handleSignIn({ username: 'leads1', password: 'pw' })
    expect(lastConfiguredClient()).toBe(siteAuthSettings.userPoolClientId)
    expect(amplifyAuth.signIn).toHaveBeenCalledWith(expect.objectContaining({ username: 'leads1', password: 'pw' }))
    window.sessionStorage.clear()
  })
})
