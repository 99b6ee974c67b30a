/** Renewing the session through Amplify: what each kind of failure does to the stored tokens. */
import { refreshSession } from '../../lib/auth/amplifySession'

jest.mock('aws-amplify/auth', () => ({ fetchAuthSession: jest.fn(), signOut: jest.fn() }))
// Amplify's own configuration is not under test (and warns about the local endpoint).
jest.mock('@aws-amplify/core', () => ({ ...jest.requireActual('@aws-amplify/core'), Amplify: { configure: jest.fn(), getConfig: jest.fn(() => ({})) } }))
const { fetchAuthSession } = jest.requireMock('aws-amplify/auth') as { fetchAuthSession: jest.Mock }

const prefix = 'CognitoIdentityServiceProvider.localdocsweb000000000000000'
const named = (name: string, message: string) => Object.assign(new Error(message), { name })

beforeEach(() => {
  document.cookie = `${prefix}.LastAuthUser=leads1; path=/`
  document.cookie = `${prefix}.leads1.idToken=aaa.bbb.ccc; path=/`
  document.cookie = `${prefix}.leads1.refreshToken=rrr; path=/`
  document.cookie = 'unrelated=keep; path=/'
})
afterEach(() => {
  for (const pair of document.cookie.split(';')) {
    const name = pair.split('=')[0].trim()
    if (name) document.cookie = `${name}=; path=/; expires=Thu, 01 Jan 1970 00:00:00 GMT`
  }
})

const storedTokens = () => document.cookie.split('; ').filter((pair) => pair.startsWith(prefix)).map((pair) => pair.slice(prefix.length + 1).split('=')[0])

test('new tokens: renewed', async () => {
  fetchAuthSession.mockResolvedValueOnce({ tokens: { idToken: { toString: () => 'new' } } })
  await expect(refreshSession()).resolves.toBe('renewed')
  expect(fetchAuthSession).toHaveBeenLastCalledWith({ forceRefresh: true })
})

test('the sign-in service cannot be reached: unreachable, and the stored tokens are kept', async () => {
  fetchAuthSession.mockRejectedValueOnce(named('NetworkError', 'A network error has occurred.'))
  await expect(refreshSession()).resolves.toBe('unreachable')
  expect(storedTokens()).toEqual(['LastAuthUser', 'leads1.idToken', 'leads1.refreshToken'])
})

test('the refresh token is refused (Amplify clears the tokens and answers no session): signed out', async () => {
  fetchAuthSession.mockResolvedValueOnce({ tokens: undefined })
  await expect(refreshSession()).resolves.toBe('signed-out')
})

test('any other failure: signed out, and the stored tokens are cleared', async () => {
  fetchAuthSession.mockRejectedValueOnce(named('InternalErrorException', 'Something broke'))
  await expect(refreshSession()).resolves.toBe('signed-out')
  expect(storedTokens()).toEqual([])
  expect(document.cookie).toBe('unrelated=keep')
})
