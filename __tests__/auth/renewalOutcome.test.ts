import { isNetworkError } from '../../lib/auth/renewalOutcome'

describe('which failures mean the sign-in service was not reached', () => {
  test("Amplify's network error and a failed fetch do", () => {
    expect(isNetworkError(Object.assign(new Error('A network error has occurred.'), { name: 'NetworkError' }))).toBe(true)
    expect(isNetworkError(new TypeError('Failed to fetch'))).toBe(true)
  })

  test('an answer that refuses does not', () => {
    expect(isNetworkError(Object.assign(new Error('Refresh Token has expired'), { name: 'NotAuthorizedException' }))).toBe(false)
    expect(isNetworkError(Object.assign(new Error('Internal'), { name: 'InternalErrorException' }))).toBe(false)
    expect(isNetworkError(new Error('NetworkError'))).toBe(false)
    expect(isNetworkError(null)).toBe(false)
    expect(isNetworkError('NetworkError')).toBe(false)
  })
})
