/**
 * Which sign-out the site asks of Amplify: the global one for a session of the web client (the
 * username form; proven against the local Cognito in __tests__/integration/signOutEverywhere.test.ts),
 * this browser's alone for one of the federated client, whose tokens cannot call GlobalSignOut.
 */
jest.mock('aws-amplify/auth', () => ({ signOut: jest.fn(async () => undefined), fetchAuthSession: jest.fn(async () => ({})) }))
jest.mock('../../lib/auth/configureAmplify', () => ({ configureAmplify: jest.fn(), amplifyClientId: jest.fn() }))
jest.mock('../../lib/auth/siteAuthSettings', () => ({ siteAuthSettings: { userPoolClientId: 'webclient', federation: { clientId: 'federatedclient' } } }))

import { fetchAuthSession, signOut } from 'aws-amplify/auth'
import { amplifyClientId } from '../../lib/auth/configureAmplify'
import { amplifySignOut } from '../../lib/auth/amplifySession'

const calls: string[] = []
beforeEach(() => {
  calls.length = 0
  jest.mocked(signOut).mockImplementation(async (input) => void calls.push(`signOut ${JSON.stringify(input)}`))
  jest.mocked(fetchAuthSession).mockImplementation(async () => (calls.push('fetchAuthSession'), {}))
})

test('a session of the web client: renewed where it must be, then signed out everywhere', async () => {
  jest.mocked(amplifyClientId).mockReturnValue('webclient')
  await amplifySignOut()
  expect(calls).toEqual(['fetchAuthSession', 'signOut {"global":true}'])
})

test("a session of the federated client: this browser's sign-out (its token is revoked)", async () => {
  jest.mocked(amplifyClientId).mockReturnValue('federatedclient')
  await amplifySignOut()
  expect(calls).toEqual(['signOut {"global":false}'])
})
