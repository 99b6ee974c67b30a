import { signOutEverywhere } from '../../lib/auth/signOutEverywhere'

jest.mock('../../lib/auth/amplifySession', () => ({
  amplifySignOut: jest.fn(() => Promise.reject(new Error('A network error has occurred.'))),
}))

const prefix = 'CognitoIdentityServiceProvider.localdocsweb000000000000000'

test('sign-out removes the local tokens even when the server call fails', async () => {
  document.cookie = `${prefix}.LastAuthUser=leads1; path=/`
  document.cookie = `${prefix}.leads1.idToken=aaa.bbb.ccc; path=/`
  document.cookie = `${prefix}.leads1.refreshToken=rrr; path=/`
  document.cookie = 'unrelated=keep; path=/'
  await expect(signOutEverywhere()).resolves.toBeUndefined()
  expect(document.cookie).toBe('unrelated=keep')
})
