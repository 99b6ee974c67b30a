/** @jest-environment node */
import { readSessionCookies } from '../../lib/auth/readSessionCookies'

const CLIENT = 'localdocsweb000000000000000'
const prefix = `CognitoIdentityServiceProvider.${CLIENT}`
const b64 = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url')
const token = (payload: object) => `${b64({ alg: 'RS256' })}.${b64(payload)}.sig`

test('reads the username and expiry from the ID token named by LastAuthUser', () => {
  const cookie = `other=1; ${prefix}.LastAuthUser=leads1; ${prefix}.leads1.idToken=${token({ 'cognito:username': 'leads1', exp: 2000000000 })}; ${prefix}.leads1.refreshToken=r`
  expect(readSessionCookies(cookie, CLIENT)).toEqual({ username: 'leads1', expiresAtMs: 2000000000000, canRefresh: true })
})

test('the username comes from the token, not from the cookie name', () => {
  const cookie = `${prefix}.LastAuthUser=admin; ${prefix}.admin.idToken=${token({ 'cognito:username': 'leads1', exp: 2000000000 })}`
  expect(readSessionCookies(cookie, CLIENT)?.username).toBe('leads1')
})

test('non-ASCII usernames survive (URL-encoded cookie names, UTF-8 payload)', () => {
  const name = 'zoë'
  const cookie = `${prefix}.LastAuthUser=${encodeURIComponent(name)}; ${encodeURIComponent(`${prefix}.${name}.idToken`)}=${token({ 'cognito:username': name, exp: 2000000000 })}`
  expect(readSessionCookies(cookie, CLIENT)).toEqual({ username: name, expiresAtMs: 2000000000000, canRefresh: false })
})

test.each([
  ['no cookies', ''],
  ['no LastAuthUser', `${prefix}.leads1.idToken=${token({ 'cognito:username': 'leads1', exp: 1 })}`],
  ['another client', `CognitoIdentityServiceProvider.other.LastAuthUser=leads1; CognitoIdentityServiceProvider.other.leads1.idToken=${token({ 'cognito:username': 'leads1', exp: 2000000000 })}`],
  ['a token that is not a JWT', `${prefix}.LastAuthUser=leads1; ${prefix}.leads1.idToken=garbage`],
  ['a token without exp', `${prefix}.LastAuthUser=leads1; ${prefix}.leads1.idToken=${token({ 'cognito:username': 'leads1' })}`],
])('%s: nobody is signed in', (_case, cookie) => {
  expect(readSessionCookies(cookie, CLIENT)).toBeNull()
})

test("the expiry is read on this computer's clock: Amplify's clock drift (server minus local) is taken off", () => {
  const cookie = `${prefix}.LastAuthUser=leads1; ${prefix}.leads1.idToken=${token({ 'cognito:username': 'leads1', exp: 2000000000 })}; ${prefix}.leads1.clockDrift=-960000`
  // A computer 16 minutes ahead sees the token expire 16 minutes later on its own clock.
  expect(readSessionCookies(cookie, CLIENT)?.expiresAtMs).toBe(2000000000000 + 960000)
})

describe('with a federated provider: two app clients, one session', () => {
  const FEDERATED = 'federatedclient00000000000'
  const fed = `CognitoIdentityServiceProvider.${FEDERATED}`
  const clients = [CLIENT, FEDERATED]
  const federatedUser = 'CompanySSO_alice'

  test("a federated reader's session is found in the federated client's cookies", () => {
    const cookie = `${fed}.LastAuthUser=${federatedUser}; ${fed}.${federatedUser}.idToken=${token({ 'cognito:username': federatedUser, exp: 2000000000 })}; ${fed}.${federatedUser}.refreshToken=r`
    expect(readSessionCookies(cookie, clients)).toEqual({ username: federatedUser, expiresAtMs: 2000000000000, canRefresh: true })
    // Not among the clients read: nobody.
    expect(readSessionCookies(cookie, CLIENT)).toBeNull()
  })

  test("a username reader's session is still the web client's", () => {
    const cookie = `${prefix}.LastAuthUser=leads1; ${prefix}.leads1.idToken=${token({ 'cognito:username': 'leads1', exp: 2000000000 })}`
    expect(readSessionCookies(cookie, clients)?.username).toBe('leads1')
  })
})
