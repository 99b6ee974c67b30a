/**
 * @jest-environment node
 */
/**
 * "Sign out signs the reader out everywhere" (docs/security.md): the site's sign-out
 * (lib/auth/amplifySession.ts amplifySignOut) against the local Cognito, with the reader signed in
 * on another device too. Neither that device's refresh token nor this browser's may renew after it.
 */
import { Amplify } from 'aws-amplify'
import { signIn } from 'aws-amplify/auth'
import { cognitoUserPoolsTokenProvider } from 'aws-amplify/auth/cognito'
import { LOCAL_COGNITO, TOKEN_MINUTES } from '../../lib/auth/authSettings'
import { amplifySignOut } from '../../lib/auth/amplifySession'
import { startLocalCognito, type LocalCognito } from '../../scripts/cognito/localCognito'
import { SEEDED_PASSWORD } from '../../scripts/cognito/seed'

const { userPoolId, userPoolClientId } = LOCAL_COGNITO
let cognito: LocalCognito

async function initiateAuth(parameters: Record<string, string>, flow: string) {
  const response = await fetch(cognito.url, {
    method: 'POST',
    headers: { 'content-type': 'application/x-amz-json-1.1', 'x-amz-target': 'AWSCognitoIdentityProviderService.InitiateAuth' },
    body: JSON.stringify({ AuthFlow: flow, ClientId: userPoolClientId, AuthParameters: parameters }),
  })
  return { status: response.status, body: (await response.json()) as { AuthenticationResult?: { RefreshToken: string } } }
}
/** The reader's sign-in on another device: its refresh token. */
const otherDevice = async (username: string) => (await initiateAuth({ USERNAME: username, PASSWORD: SEEDED_PASSWORD }, 'USER_PASSWORD_AUTH')).body.AuthenticationResult!.RefreshToken
const renews = async (refreshToken: string) => (await initiateAuth({ REFRESH_TOKEN: refreshToken }, 'REFRESH_TOKEN_AUTH')).status === 200

beforeAll(async () => {
  cognito = await startLocalCognito({ port: 0, quiet: true })
  Amplify.configure({ Auth: { Cognito: { userPoolId, userPoolClientId, userPoolEndpoint: cognito.url, loginWith: { username: true, email: false, phone: false } } } })
})
afterAll(async () => {
  await cognito?.stop()
})

test("the site's sign-out ends the reader's session on their other device, and this browser's refresh token", async () => {
  const other = await otherDevice('support1')
  await signIn({ username: 'support1', password: SEEDED_PASSWORD, options: { authFlowType: 'USER_PASSWORD_AUTH' } })
  const mine = (await cognitoUserPoolsTokenProvider.authTokenStore.loadTokens())!.refreshToken!
  expect([await renews(other), await renews(mine)]).toEqual([true, true])
  await amplifySignOut()
  expect([await renews(other), await renews(mine)]).toEqual([false, false])
})

test('signing out after the access token has expired (a page left open past 15 minutes) still signs out everywhere', async () => {
  const other = await otherDevice('leads2')
  await signIn({ username: 'leads2', password: SEEDED_PASSWORD, options: { authFlowType: 'USER_PASSWORD_AUTH' } })
  // Only the clock moves, for Amplify and the local Cognito alike; the servers' timers run as they do.
  jest.useFakeTimers({ doNotFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'setImmediate', 'clearImmediate', 'nextTick', 'queueMicrotask', 'hrtime', 'performance'] })
  try {
    jest.setSystemTime(Date.now() + (TOKEN_MINUTES + 1) * 60_000)
    await amplifySignOut()
    expect(await renews(other)).toBe(false)
  } finally {
    jest.useRealTimers()
  }
})
