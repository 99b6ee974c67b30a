/** @jest-environment node */
/**
 * What the AI tools' sign-in asks the user pool at consent and at every refresh (readerCheck.ts),
 * against the embedded local Cognito, with the admin's actions as an admin calls them (the AWS SDK):
 * the reader's tool keeps going only while the reader's site sign-in is live and the reader may
 * sign in.
 */
import {
  AdminDisableUserCommand,
  AdminEnableUserCommand,
  AdminGetUserCommand,
  AdminRemoveUserFromGroupCommand,
  AdminAddUserToGroupCommand,
  AdminResetUserPasswordCommand,
  AdminSetUserPasswordCommand,
  AdminUserGlobalSignOutCommand,
  CognitoIdentityProviderClient,
  InitiateAuthCommand,
} from '@aws-sdk/client-cognito-identity-provider'
import { LOCAL_COGNITO } from '../../../lib/auth/authSettings'
import { cognitoReaderCheck, UnknownSessionClientError, type CheckReader, type PoolSession } from '../../../mcp/oauth/readerCheck'
import { startLocalCognito, type LocalCognito } from '../../../scripts/cognito/localCognito'
import { SEEDED_PASSWORD } from '../../../scripts/cognito/seed'

jest.setTimeout(30_000)

const { region, userPoolId, userPoolClientId } = LOCAL_COGNITO
let cognito: LocalCognito
let admin: CognitoIdentityProviderClient
let check: CheckReader

beforeAll(async () => {
  cognito = await startLocalCognito({ port: 0, quiet: true })
  admin = new CognitoIdentityProviderClient({ region, endpoint: cognito.url, credentials: { accessKeyId: 'local', secretAccessKey: 'local' } })
  check = cognitoReaderCheck({ mode: 'local', region, userPoolId, userPoolClientId, endpoint: cognito.url }, null)
})
afterAll(async () => {
  admin?.destroy()
  await cognito?.stop()
})

/** The reader's site sign-in (USER_PASSWORD_AUTH, as the local login does): its refresh token, with its client, is the session a grant keeps. */
async function sessionOf(username: string): Promise<PoolSession> {
  const { AuthenticationResult } = await admin.send(new InitiateAuthCommand({ AuthFlow: 'USER_PASSWORD_AUTH', ClientId: userPoolClientId, AuthParameters: { USERNAME: username, PASSWORD: SEEDED_PASSWORD } }))
  return { clientId: userPoolClientId, refreshToken: AuthenticationResult!.RefreshToken! }
}

test('a live session of an enabled reader answers the reader and their groups now', async () => {
  const session = await sessionOf('supportlead')
  expect(await check('supportlead', session)).toEqual({ reader: { username: 'supportlead', groups: ['support-team'] } })
  await admin.send(new AdminRemoveUserFromGroupCommand({ UserPoolId: userPoolId, Username: 'supportlead', GroupName: 'support-team' }))
  try {
    expect(await check('supportlead', session)).toEqual({ reader: { username: 'supportlead', groups: [] } })
  } finally {
    await admin.send(new AdminAddUserToGroupCommand({ UserPoolId: userPoolId, Username: 'supportlead', GroupName: 'support-team' }))
  }
})

test("an admin's global sign-out ends the reader's every session: the check answers why, and the reader signs in anew", async () => {
  const [first, second] = [await sessionOf('leads1'), await sessionOf('leads1')]
  await admin.send(new AdminUserGlobalSignOutCommand({ UserPoolId: userPoolId, Username: 'leads1' }))
  for (const session of [first, second]) expect(await check('leads1', session)).toEqual({ ended: expect.stringContaining('global sign-out') })
  // A new sign-in is a new session, which works.
  expect(await check('leads1', await sessionOf('leads1'))).toEqual({ reader: { username: 'leads1', groups: [] } })
  // Another user's sessions are untouched.
  const others = await sessionOf('leads2')
  await admin.send(new AdminUserGlobalSignOutCommand({ UserPoolId: userPoolId, Username: 'leads1' }))
  expect(await check('leads2', others)).toEqual({ reader: { username: 'leads2', groups: [] } })
  await expect(admin.send(new AdminUserGlobalSignOutCommand({ UserPoolId: userPoolId, Username: 'nobody' }))).rejects.toMatchObject({ name: 'UserNotFoundException' })
})

test("an admin's password reset ends it while the new password is pending (RESET_REQUIRED), though the pool still renews the session", async () => {
  const session = await sessionOf('leads3')
  await admin.send(new AdminResetUserPasswordCommand({ UserPoolId: userPoolId, Username: 'leads3' }))
  try {
    expect((await admin.send(new AdminGetUserCommand({ UserPoolId: userPoolId, Username: 'leads3' }))).UserStatus).toBe('RESET_REQUIRED')
    await expect(sessionOf('leads3')).rejects.toMatchObject({ name: 'PasswordResetRequiredException' })
    expect(await check('leads3', session)).toEqual({ ended: 'the reader must set a new password (RESET_REQUIRED)' })
  } finally {
    await admin.send(new AdminSetUserPasswordCommand({ UserPoolId: userPoolId, Username: 'leads3', Password: SEEDED_PASSWORD, Permanent: true }))
  }
  expect(await check('leads3', session)).toEqual({ reader: { username: 'leads3', groups: [] } })
})

test('a disabled reader is ended; a session that is not the reader\'s, or not a session at all, is ended', async () => {
  const session = await sessionOf('leads4')
  await admin.send(new AdminDisableUserCommand({ UserPoolId: userPoolId, Username: 'leads4' }))
  try {
    expect(await check('leads4', session)).toEqual({ ended: 'the reader is disabled' })
  } finally {
    await admin.send(new AdminEnableUserCommand({ UserPoolId: userPoolId, Username: 'leads4' }))
  }
  expect(await check('leads5', session)).toEqual({ ended: "the kept sign-in is not the reader's" })
  expect(await check('leads4', { clientId: userPoolClientId, refreshToken: 'not-a-refresh-token' })).toEqual({ ended: expect.stringContaining('global sign-out') })
  expect(await check('nobody', session)).toEqual({ ended: 'the reader is deleted' })
})

test('a pool that cannot be reached is an error (the tool retries), never an ended reader', async () => {
  const unreachable = cognitoReaderCheck({ mode: 'local', region, userPoolId, userPoolClientId, endpoint: 'http://127.0.0.1:9' }, null)
  await expect(unreachable('leads1', await sessionOf('leads1'))).rejects.toThrow()
})

test('a kept session is renewed only with one of the site\'s app clients (the one it names), never another', async () => {
  const session = await sessionOf('leads1')
  await expect(check('leads1', { ...session, clientId: 'someotherclient000000000000' })).rejects.toThrow(UnknownSessionClientError)
  // With a provider the federated client is one of the site's: a session that names it is renewed with it.
  const federated = cognitoReaderCheck(
    { mode: 'local', region, userPoolId, userPoolClientId, endpoint: cognito.url, federation: { provider: 'CompanySSO', domain: 'sso.example.com', clientId: 'localdocsfederated000000000' } },
    null
  )
  await expect(federated('leads1', { ...session, clientId: 'someotherclient000000000000' })).rejects.toThrow(UnknownSessionClientError)
  expect(await federated('leads1', session)).toEqual({ reader: { username: 'leads1', groups: [] } })
})
