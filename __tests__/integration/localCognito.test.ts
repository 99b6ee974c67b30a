/**
 * @jest-environment node
 */
import { spawnSync } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { Amplify } from 'aws-amplify'
import { fetchAuthSession, getCurrentUser, resetPassword, signIn, signOut } from 'aws-amplify/auth'
import { CognitoJwtVerifier } from 'aws-jwt-verify'
import { LOCAL_COGNITO, TOKEN_MINUTES, issuerFor } from '../../lib/auth/authSettings'
import { removeOrphanedPools, startLocalCognito } from '../../scripts/cognito/localCognito'
import type { LocalCognito } from '../../scripts/cognito/localCognito'
import * as access from '../../lib/access'
import { createIdTokenVerifier } from '../../edge/tokenVerifier'

/** The reader the edge would see for a token: verified with the pool's keys, groups included. */
async function idVerifierUser(token: string) {
  const jwks = await fetch(cognito.jwksUrl).then((response) => response.json())
  const verify = createIdTokenVerifier({ userPoolId, clientId: userPoolClientId, jwks, fetchUnknownKeys: false, groupsClaim: access.access.groupsClaim })
  return verify(token)
}
import { demoUsers, SEEDED_PASSWORD, SEEDED_USERS } from '../../scripts/cognito/seed'
import shippedConfig from '../../access.config'

const { userPoolId, userPoolClientId } = LOCAL_COGNITO
const ISSUER = issuerFor(LOCAL_COGNITO)
const AMZ_JSON = 'application/x-amz-json-1.1'

jest.setTimeout(30_000)

let cognito: LocalCognito
const idVerifier = CognitoJwtVerifier.create({ userPoolId, clientId: userPoolClientId, tokenUse: 'id' })

function decodePayload(token: string): Record<string, unknown> {
  return JSON.parse(Buffer.from(token.split('.')[1], 'base64url').toString('utf8'))
}

async function currentIdToken(forceRefresh = false): Promise<string> {
  const session = await fetchAuthSession({ forceRefresh })
  const token = session.tokens?.idToken?.toString()
  if (!token) throw new Error('no id token in the session')
  return token
}

async function callCognito(target: string, body: unknown, headers: Record<string, string> = {}) {
  const res = await fetch(cognito.url, {
    method: 'POST',
    headers: { 'content-type': AMZ_JSON, 'x-amz-target': `AWSCognitoIdentityProviderService.${target}`, ...headers },
    body: JSON.stringify(body),
  })
  return { status: res.status, headers: res.headers, body: await res.json() }
}

beforeAll(async () => {
  // Amplify warns about any custom user pool endpoint; pointing at the local one is the point here.
  const warn = console.warn.bind(console)
  jest.spyOn(console, 'warn').mockImplementation((...args: unknown[]) => {
    if (!args.some((a) => typeof a === 'string' && a.includes('custom Amazon Amazon Cognito User Pool endpoint'))) warn(...args)
  })
  cognito = await startLocalCognito({ port: 0, quiet: true })
  Amplify.configure({
    Auth: {
      Cognito: {
        userPoolId,
        userPoolClientId,
        userPoolEndpoint: cognito.url,
        loginWith: { username: true, email: false, phone: false },
      },
    },
  })
  const res = await fetch(cognito.jwksUrl)
  expect(res.status).toBe(200)
  idVerifier.cacheJwks(await res.json())
})

afterEach(async () => {
  // Amplify is a singleton: never let one test's session leak into the next.
  await signOut()
})

afterAll(async () => {
  await cognito?.stop()
  jest.restoreAllMocks()
})

test('listens on the port it reports and serves the pool JWKS', () => {
  expect(cognito.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/)
  expect(cognito.url).not.toMatch(/:0$/)
  expect(cognito.jwksUrl).toBe(`${cognito.url}/${userPoolId}/.well-known/jwks.json`)
})

test.each([...SEEDED_USERS])('%s signs in, verifies, refreshes and signs out through Amplify', async (username) => {
  const result = await signIn({ username, password: SEEDED_PASSWORD, options: { authFlowType: 'USER_PASSWORD_AUTH' } })
  expect(result.isSignedIn).toBe(true)
  expect(result.nextStep.signInStep).toBe('DONE')
  expect((await getCurrentUser()).username).toBe(username)

  const idToken = await currentIdToken()
  const claims = decodePayload(idToken)
  expect(claims['cognito:username']).toBe(username)
  expect(claims.iss).toBe(ISSUER)
  expect(claims.aud).toBe(userPoolClientId)
  // Short-lived, so a disabled user or a revoked session loses access within TOKEN_MINUTES.
  expect(Number(claims.exp) - Number(claims.iat)).toBe(TOKEN_MINUTES * 60)
  const verified = await idVerifier.verify(idToken)
  expect(verified['cognito:username']).toBe(username)

  const refreshed = await currentIdToken(true)
  expect(refreshed).not.toBe(idToken)
  const refreshedClaims = await idVerifier.verify(refreshed)
  expect(refreshedClaims['cognito:username']).toBe(username)
  expect(refreshedClaims.sub).toBe(verified.sub)
  // The refreshed tokens are what the session now holds.
  expect(await currentIdToken()).toBe(refreshed)

  await signOut()
  await expect(getCurrentUser()).rejects.toMatchObject({ name: 'UserUnAuthenticatedException' })
  expect((await fetchAuthSession()).tokens).toBeUndefined()
})

test("its pool lives in a folder named by its process; a start removes the folders of processes that no longer run, and only those", () => {
  expect(fs.readdirSync(os.tmpdir()).filter((name) => name.startsWith(`docs-local-cognito-${process.pid}-`))).toHaveLength(1)
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'orphaned-pools-'))
  try {
    // A process that has ended: its pid runs no more.
    const ended = spawnSync(process.execPath, ['-e', '']).pid
    for (const name of [`docs-local-cognito-${ended}-aB3xYz`, `docs-local-cognito-${process.pid}-Qw12Er`, 'docs-local-cognito-notapid', 'other-folder']) {
      fs.mkdirSync(path.join(tmp, name, 'db'), { recursive: true })
    }
    removeOrphanedPools(tmp)
    expect(fs.readdirSync(tmp).sort()).toEqual([`docs-local-cognito-${process.pid}-Qw12Er`, 'docs-local-cognito-notapid', 'other-folder'])
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true })
  }
})

test('a wrong password is rejected with NotAuthorizedException', async () => {
  await expect(
    signIn({ username: 'admin', password: 'not-the-password', options: { authFlowType: 'USER_PASSWORD_AUTH' } })
  ).rejects.toMatchObject({ name: 'NotAuthorizedException' })
  await expect(getCurrentUser()).rejects.toBeDefined()
})

test('an unknown user is rejected like AWS does (no user-existence leak)', async () => {
  await expect(
    signIn({ username: 'nobody-here', password: SEEDED_PASSWORD, options: { authFlowType: 'USER_PASSWORD_AUTH' } })
  ).rejects.toMatchObject({ name: 'NotAuthorizedException' })
  await expect(getCurrentUser()).rejects.toBeDefined()
})

test('"Forgot your password?" answers a known and an unknown username alike (no user-existence leak)', async () => {
  const known = await resetPassword({ username: 'leads1' })
  const unknown = await resetPassword({ username: 'nobody-here' })
  expect(unknown).toEqual(known)
  expect(known.nextStep.resetPasswordStep).toBe('CONFIRM_RESET_PASSWORD_WITH_CODE')
})

test('answers CORS preflight and adds CORS headers to proxied responses', async () => {
  const origin = 'http://127.0.0.1:3000'
  const preflight = await fetch(cognito.url, {
    method: 'OPTIONS',
    headers: {
      origin,
      'access-control-request-method': 'POST',
      'access-control-request-headers': 'content-type,x-amz-target,x-amz-user-agent',
    },
  })
  expect(preflight.status).toBe(204)
  expect(preflight.headers.get('access-control-allow-origin')).toBe(origin)
  expect(preflight.headers.get('access-control-allow-methods')).toBe('POST,GET,OPTIONS')
  const allowed = (preflight.headers.get('access-control-allow-headers') ?? '').split(/,\s*/)
  for (const header of ['content-type', 'x-amz-target', 'x-amz-user-agent', 'cache-control', 'amz-sdk-invocation-id', 'amz-sdk-request']) {
    expect(allowed).toContain(header)
  }

  const proxied = await callCognito(
    'InitiateAuth',
    { AuthFlow: 'USER_PASSWORD_AUTH', ClientId: userPoolClientId, AuthParameters: { USERNAME: 'admin', PASSWORD: SEEDED_PASSWORD } },
    { origin }
  )
  expect(proxied.status).toBe(200)
  expect(proxied.headers.get('access-control-allow-origin')).toBe(origin)
  expect(proxied.headers.get('access-control-allow-methods')).toBe('POST,GET,OPTIONS')
})

test('GetTokensFromRefreshToken and GlobalSignOut behave like AWS', async () => {
  const auth = await callCognito('InitiateAuth', {
    AuthFlow: 'USER_PASSWORD_AUTH',
    ClientId: userPoolClientId,
    AuthParameters: { USERNAME: 'leads1', PASSWORD: SEEDED_PASSWORD },
  })
  const { AccessToken, RefreshToken } = auth.body.AuthenticationResult

  const refreshed = await callCognito('GetTokensFromRefreshToken', { ClientId: userPoolClientId, RefreshToken })
  expect(refreshed.status).toBe(200)
  expect(refreshed.body.AuthenticationResult).toEqual({
    AccessToken: expect.any(String),
    IdToken: expect.any(String),
    ExpiresIn: TOKEN_MINUTES * 60,
    TokenType: 'Bearer',
  })

  expect(await callCognito('GlobalSignOut', { AccessToken })).toMatchObject({ status: 200, body: {} })
  const afterSignOut = await callCognito('GetTokensFromRefreshToken', { ClientId: userPoolClientId, RefreshToken })
  expect(afterSignOut.status).toBe(400)
  expect(afterSignOut.body.__type).toBe('NotAuthorizedException')

  const forged = await callCognito('GlobalSignOut', { AccessToken: `${AccessToken.slice(0, -4)}AAAA` })
  expect(forged.status).toBe(400)
  expect(forged.body.__type).toBe('NotAuthorizedException')
})

test('Amplify global sign-out revokes the session', async () => {
  await signIn({ username: 'support1', password: SEEDED_PASSWORD, options: { authFlowType: 'USER_PASSWORD_AUTH' } })
  await signOut({ global: true })
  await expect(getCurrentUser()).rejects.toMatchObject({ name: 'UserUnAuthenticatedException' })
})

test('a seeded group member carries the group in the ID token; removed from the group, the next refresh drops it', async () => {
  const signedIn = await callCognito('InitiateAuth', {
    AuthFlow: 'USER_PASSWORD_AUTH',
    ClientId: userPoolClientId,
    AuthParameters: { USERNAME: 'supportlead', PASSWORD: SEEDED_PASSWORD },
  })
  const { IdToken, RefreshToken } = signedIn.body.AuthenticationResult
  expect(decodePayload(IdToken)['cognito:groups']).toEqual(['support-team'])
  expect(await access.decide('/docs/support-twilio/intro', await idVerifierUser(IdToken))).toBe('allow')

  const removed = await callCognito('AdminRemoveUserFromGroup', { UserPoolId: userPoolId, Username: 'supportlead', GroupName: 'support-team' })
  expect(removed.status).toBe(200)
  const refreshed = await callCognito('InitiateAuth', { AuthFlow: 'REFRESH_TOKEN_AUTH', ClientId: userPoolClientId, AuthParameters: { REFRESH_TOKEN: RefreshToken } })
  const renewed = refreshed.body.AuthenticationResult.IdToken
  expect(decodePayload(renewed)['cognito:groups']).toBeUndefined()
  expect(await access.decide('/docs/support-twilio/intro', await idVerifierUser(renewed))).toBe('deny')
  await callCognito('AdminAddUserToGroup', { UserPoolId: userPoolId, Username: 'supportlead', GroupName: 'support-team' })
})

test("a reader an admin lists (a new section's) is a demo user too, so they can sign in to the preview; a group entry is no user", async () => {
  const config = {
    ...shippedConfig,
    lists: { ...shippedConfig.lists, billingUsers: ' billing1 , group:finance' },
    sections: [...shippedConfig.sections, { id: 'billing', title: 'Billing', description: 'Invoices.', entry: '/docs/billing/intro', readers: 'billingUsers' }],
  }
  const users = demoUsers(access.compileAccess(config, {}).members)
  expect(users).toEqual([...SEEDED_USERS, 'billing1'])
  const billing = await startLocalCognito({ port: 0, quiet: true, users })
  try {
    const signInAs = (username: string) =>
      fetch(billing.url, {
        method: 'POST',
        headers: { 'content-type': AMZ_JSON, 'x-amz-target': 'AWSCognitoIdentityProviderService.InitiateAuth' },
        body: JSON.stringify({ AuthFlow: 'USER_PASSWORD_AUTH', ClientId: userPoolClientId, AuthParameters: { USERNAME: username, PASSWORD: SEEDED_PASSWORD } }),
      }).then(async (response) => ({ status: response.status, body: (await response.json()) as { AuthenticationResult?: { IdToken?: string } } }))
    const signedIn = await signInAs('billing1')
    expect(signedIn.status).toBe(200)
    expect(decodePayload(signedIn.body.AuthenticationResult!.IdToken!)['cognito:username']).toBe('billing1')
    expect((await signInAs('group:finance')).status).toBe(400)
  } finally {
    await billing.stop()
  }
})
