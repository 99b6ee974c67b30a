import { act, fireEvent, screen } from '@testing-library/react'
import { UserMenu } from '../../components/UserMenu'
import { LOADING, READERS, renderAs } from './helpers/readers'

jest.mock('aws-amplify/auth', () => ({
  signOut: jest.fn(() => Promise.resolve()),
  fetchAuthSession: jest.fn(() => Promise.resolve({})),
  getCurrentUser: jest.fn(() => Promise.reject(new Error('no network in tests'))),
}))
// Amplify's configuration (done when sign-out loads Amplify on demand) is not under test.
jest.mock('aws-amplify', () => ({ Amplify: { configure: jest.fn(), getConfig: jest.fn(() => ({})) } }))
const amplifyAuth = jest.requireMock('aws-amplify/auth') as { signOut: jest.Mock }

// jsdom cannot navigate; a stand-in location records where the page was sent.
const realLocation = window.location
let assign: jest.Mock
beforeEach(() => {
  assign = jest.fn()
  Object.defineProperty(window, 'location', { configurable: true, value: { ...realLocation, assign } })
  amplifyAuth.signOut.mockReset().mockResolvedValue(undefined)
})
afterEach(() => {
  jest.restoreAllMocks()
  Object.defineProperty(window, 'location', { configurable: true, value: realLocation })
})

function deferred() {
  let resolve!: () => void
  const promise = new Promise<void>((r) => (resolve = r))
  return { promise, resolve }
}

describe('UserMenu', () => {
  test('shows the signed-in username and a Sign out button', () => {
    renderAs(READERS.leads1, <UserMenu signOut={jest.fn()} />)
    expect(screen.getByText('leads1')).toHaveAttribute('title', 'Signed in as')
    expect(screen.getByRole('button', { name: 'Sign out' })).toBeEnabled()
    // The reader's connected AI tools, where they can disconnect them.
    expect(screen.getByRole('link', { name: 'AI tools' })).toHaveAttribute('href', '/connected-tools')
  })

  test.each([
    ['an anonymous reader', READERS.anonymous],
    ['a reader still loading', LOADING],
  ])('shows nothing for %s', (_label, auth) => {
    const { container } = renderAs(auth, <UserMenu signOut={jest.fn()} />)
    expect(container).toBeEmptyDOMElement()
  })

  test('Sign out signs out first, then loads the login page', async () => {
    const pending = deferred()
    const signOut = jest.fn(() => pending.promise)
    renderAs(READERS.internal1, <UserMenu signOut={signOut} />)
    fireEvent.click(screen.getByRole('button', { name: 'Sign out' }))
    expect(signOut).toHaveBeenCalledTimes(1)
    // Still signing out: no navigation yet, and the button cannot be pressed twice.
    expect(assign).not.toHaveBeenCalled()
    expect(screen.getByRole('button', { name: 'Sign out' })).toBeDisabled()
    await act(async () => {
      pending.resolve()
      await pending.promise
    })
    expect(assign).toHaveBeenCalledTimes(1)
    expect(assign).toHaveBeenCalledWith('/login')
  })

  test('by default signs out of Amplify and clears the token cookies even when the revoke call fails', async () => {
    amplifyAuth.signOut.mockRejectedValue(new Error('A network error has occurred.'))
    const cookie = 'CognitoIdentityServiceProvider.localdocsweb000000000000000.leads1.idToken'
    document.cookie = `${cookie}=abc; path=/`
    document.cookie = 'theme-choice=dark; path=/'
    renderAs(READERS.leads1, <UserMenu />)
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Sign out' }))
    })
    expect(amplifyAuth.signOut.mock.calls).toEqual([[{ global: true }]])
    expect(document.cookie).not.toContain(cookie)
    expect(document.cookie).toContain('theme-choice=dark')
    expect(assign).toHaveBeenCalledWith('/login')
  })
})
