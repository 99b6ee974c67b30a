/**
 * The sign-in service cannot be reached while the reader's session needs renewing: what the
 * sign-in page and the other pages show, with the session provider and fake timers. Amplify's
 * renewal (which retries on its own, __tests__/auth/amplifyRenewalRetries.test.ts) is replaced by one the test scripts; the reader's view comes from a stand-in
 * authority that, like the edge, takes an expired token for nobody.
 */
import { act, render, screen } from '@testing-library/react'
import type { ReactNode } from 'react'
import LoginPage from '../../pages/login'
import { SignInServiceNotice } from '../../components/SignInServiceNotice'
import { AuthProvider, REFRESH_MARGIN_MS, useAuth } from '../../lib/auth/AuthContext'
import { siteAuthSettings } from '../../lib/auth/siteAuthSettings'
import { readSessionCookies } from '../../lib/auth/readSessionCookies'
import type { RenewalOutcome } from '../../lib/auth/renewalOutcome'
import { access } from '../../lib/access'
import { READER_VIEW_PATH, anonymousView } from '../../lib/access/readerView'
import { mockRouter, resetMockRouter } from './helpers/mockNextRouter'

jest.mock('next/router', () => require('./helpers/mockNextRouter'))
jest.mock('nextra-theme-docs', () => require(require('./helpers/nextraThemeDocs').nextraThemeDocsBundle()), { virtual: true })
beforeAll(() => require('./helpers/browserApis').installBrowserApis())

// The sign-in form: a stand-in that shows whether it was ever on screen.
let formRenders = 0
jest.mock('@aws-amplify/ui-react', () => ({
  Authenticator: () => {
    formRenders += 1
    return <div>PASSWORD FORM</div>
  },
}))
jest.mock('aws-amplify/auth', () => ({ signIn: jest.fn(), signInWithRedirect: jest.fn(), signOut: jest.fn() }))
jest.mock('aws-amplify/auth/enable-oauth-listener', () => ({}))
jest.mock('@aws-amplify/core', () => ({ ...jest.requireActual('@aws-amplify/core'), Amplify: { configure: jest.fn(), getConfig: jest.fn(() => ({})) } }))
jest.mock('../../lib/auth/amplifySession', () => ({ refreshSession: jest.fn(), amplifySignOut: jest.fn() }))
const { refreshSession } = jest.requireMock('../../lib/auth/amplifySession') as { refreshSession: jest.Mock<Promise<RenewalOutcome>> }

const clientId = siteAuthSettings.userPoolClientId
const prefix = `CognitoIdentityServiceProvider.${clientId}`
const base64url = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url')

/** What Amplify's cookie storage holds for a signed-in reader whose ID token expires at `expMs`. */
function storeSession(username: string, expMs: number) {
  document.cookie = `${prefix}.LastAuthUser=${username}; path=/`
  document.cookie = `${prefix}.${username}.idToken=${base64url({ alg: 'RS256' })}.${base64url({ 'cognito:username': username, exp: Math.floor(expMs / 1000) })}.sig; path=/`
  document.cookie = `${prefix}.${username}.refreshToken=refresh; path=/`
}

/** A renewal that reaches the service: Amplify stores fresh tokens. */
const renews = async (): Promise<RenewalOutcome> => {
  storeSession('leads1', Date.now() + 15 * 60_000)
  return 'renewed'
}

beforeEach(() => {
  jest.useFakeTimers()
  // On a whole second, as a token's expiry is, so the renewal falls due exactly when the test says.
  jest.setSystemTime(Math.ceil(Date.now() / 1000) * 1000)
  formRenders = 0
  refreshSession.mockReset()
  resetMockRouter({ pathname: '/login', query: { next: '/docs/leads/intro' } })
  global.fetch = jest.fn(async (url: string) => {
    expect(url).toBe(READER_VIEW_PATH)
    const session = readSessionCookies(document.cookie, clientId)
    const valid = session !== null && session.expiresAtMs > Date.now()
    return { ok: true, json: async () => ({ ...anonymousView([...access.publicPaths]), username: valid ? session.username : null }) }
  }) as unknown as typeof fetch
})
afterEach(() => {
  jest.useRealTimers()
  delete window.__docsReaderView
  for (const pair of document.cookie.split(';')) {
    const name = pair.split('=')[0].trim()
    if (name) document.cookie = `${name}=; path=/; expires=Thu, 01 Jan 1970 00:00:00 GMT`
  }
})

const within = (children: ReactNode) => render(<AuthProvider>{children}</AuthProvider>)
const advance = (ms: number) => act(() => jest.advanceTimersByTimeAsync(ms))
const notice = () => screen.queryByRole('alert')

describe('the sign-in page, for a reader whose session expired', () => {
  test('the service cannot be reached: no password form, a notice that it is retrying, then "Try again"; once it is back, on to their page with no password', async () => {
    storeSession('leads1', Date.now() - 60_000)
    refreshSession.mockResolvedValue('unreachable')
    within(<LoginPage />)
    expect(screen.getByRole('status')).toHaveTextContent('Restoring your session')

    // One renewal (Amplify's own attempts are inside it), then the notice and "Try again".
    await advance(0)
    expect(refreshSession).toHaveBeenCalledTimes(1)
    expect(notice()).toHaveTextContent('The sign-in service cannot be reached.')
    expect(notice()).not.toHaveTextContent('Retrying')
    expect(screen.getByRole('button', { name: 'Try again' })).toBeInTheDocument()
    // No retries of the site's own on top of Amplify's.
    await advance(10 * 60_000)
    expect(refreshSession).toHaveBeenCalledTimes(1)

    // Still down: "Try again" renews once more, and says it is retrying while Amplify's attempts run.
    refreshSession.mockImplementation(() => new Promise((resolve) => setTimeout(() => resolve('unreachable'), 1000)))
    await act(async () => screen.getByRole('button', { name: 'Try again' }).click())
    expect(notice()).toHaveTextContent('Retrying')
    expect(screen.queryByRole('button', { name: 'Try again' })).toBeNull()
    await advance(1000)
    expect(refreshSession).toHaveBeenCalledTimes(2)
    expect(screen.getByRole('button', { name: 'Try again' })).toBeInTheDocument()

    // Back: the session is renewed and the reader goes on to their page.
    refreshSession.mockImplementation(renews)
    await act(async () => screen.getByRole('button', { name: 'Try again' }).click())
    await advance(0)
    expect(mockRouter.replace).toHaveBeenCalledWith('/docs/leads/intro')
    expect(notice()).toBeNull()
    expect(formRenders).toBe(0)
  })

  test('the service answers at once: the session is restored, with no form shown first', async () => {
    storeSession('leads1', Date.now() - 60_000)
    refreshSession.mockImplementation(renews)
    within(<LoginPage />)
    await advance(0)
    expect(screen.getByRole('status')).toHaveTextContent('Signed in. Taking you to your docs')
    expect(mockRouter.replace).toHaveBeenCalledWith('/docs/leads/intro')
    expect(formRenders).toBe(0)
  })

  test('the service refuses the session: the password form, and no notice', async () => {
    storeSession('leads1', Date.now() - 60_000)
    refreshSession.mockResolvedValue('signed-out')
    within(<LoginPage />)
    await advance(1000)
    expect(refreshSession).toHaveBeenCalledTimes(1)
    expect(screen.getByText('PASSWORD FORM')).toBeInTheDocument()
    expect(notice()).toBeNull()
    expect(mockRouter.replace).not.toHaveBeenCalled()
  })

  test('a visitor with no stored session gets the form at once, and nothing is renewed', async () => {
    within(<LoginPage />)
    await advance(0)
    expect(screen.getByText('PASSWORD FORM')).toBeInTheDocument()
    expect(refreshSession).not.toHaveBeenCalled()
    expect(notice()).toBeNull()
  })
})

test('a reader on a page whose tokens fall due while the service is down is told over the page, and reads on once "Try again" renews them', async () => {
  resetMockRouter({ pathname: '/docs/leads/intro' })
  storeSession('leads1', Date.now() + REFRESH_MARGIN_MS + 60_000)
  refreshSession.mockResolvedValue('unreachable')
  within(
    <>
      <SignInServiceNotice variant="banner" />
      <p>The page</p>
    </>
  )
  await advance(59_999)
  expect(refreshSession).not.toHaveBeenCalled()
  expect(notice()).toBeNull()
  // The renewal falls due a minute later.
  await advance(1)
  expect(refreshSession).toHaveBeenCalledTimes(1)
  expect(notice()).toHaveTextContent('The sign-in service cannot be reached.')
  await advance(10 * 60_000)
  expect(refreshSession).toHaveBeenCalledTimes(1)
  expect(screen.getByRole('button', { name: 'Try again' })).toBeInTheDocument()
  expect(screen.getByText('The page')).toBeInTheDocument()

  refreshSession.mockImplementation(renews)
  await act(async () => screen.getByRole('button', { name: 'Try again' }).click())
  await advance(0)
  expect(notice()).toBeNull()
  expect(mockRouter.replace).not.toHaveBeenCalled()
})

test('a reader on a page whose renewal is refused (signed out elsewhere, the session revoked) is taken for signed out at once, not at the next page', async () => {
  resetMockRouter({ pathname: '/docs/leads/intro' })
  storeSession('leads1', Date.now() + REFRESH_MARGIN_MS + 60_000)
  // Amplify, refused, clears the stored tokens (SPEC: stored tokens are cleared, no session).
  refreshSession.mockImplementation(async () => {
    for (const pair of document.cookie.split(';')) document.cookie = `${pair.split('=')[0].trim()}=; path=/; expires=Thu, 01 Jan 1970 00:00:00 GMT`
    return 'signed-out'
  })
  const Reader = () => <p>{useAuth().username ?? 'nobody'}</p>
  within(<Reader />)
  await advance(0)
  expect(screen.getByText('leads1')).toBeInTheDocument()
  await advance(60_000)
  expect(refreshSession).toHaveBeenCalledTimes(1)
  expect(screen.getByText('nobody')).toBeInTheDocument()
})
