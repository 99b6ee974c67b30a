/**
 * @jest-environment node
 *
 * When the sign-in service does not answer, Amplify's own client retries the renewal: 3 attempts,
 * waiting 2^n × 100 ms plus up to 100 ms after attempt n (at most 5 minutes), the retry policy the
 * site this one replaces had (SPEC §9). The site adds none of its own (lib/auth/renewalOutcome.ts):
 * stacked on Amplify's, a renewal sent 9 requests. This fails when an upgrade of Amplify changes
 * its retries, so the site's can be thought about again.
 */
import { Amplify } from '@aws-amplify/core'
import { fetchAuthSession } from 'aws-amplify/auth'
import { cognitoUserPoolsTokenProvider } from 'aws-amplify/auth/cognito'
import { isNetworkError } from '../../lib/auth/renewalOutcome'

jest.setTimeout(30_000)

const CLIENT_ID = 'localdocsweb000000000000000'
const base64url = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url')

test("an unanswered renewal is tried 3 times by Amplify, with its backoff, then fails as a network error", async () => {
  const stored = new Map<string, string>()
  const prefix = `CognitoIdentityServiceProvider.${CLIENT_ID}`
  const expired = Math.floor(Date.now() / 1000) - 60
  stored.set(`${prefix}.LastAuthUser`, 'leads1')
  stored.set(`${prefix}.leads1.idToken`, `${base64url({ alg: 'RS256' })}.${base64url({ 'cognito:username': 'leads1', exp: expired, iat: expired - 900 })}.sig`)
  stored.set(`${prefix}.leads1.accessToken`, `${base64url({ alg: 'RS256' })}.${base64url({ username: 'leads1', exp: expired, iat: expired - 900 })}.sig`)
  stored.set(`${prefix}.leads1.refreshToken`, 'refresh')
  // As lib/auth/configureAmplify.ts configures it, with the stored session in memory.
  const config = { Auth: { Cognito: { userPoolId: 'eu-west-2_LocalDocs', userPoolClientId: CLIENT_ID } } }
  cognitoUserPoolsTokenProvider.setAuthConfig(config.Auth)
  cognitoUserPoolsTokenProvider.setKeyValueStorage({
    setItem: async (key, value) => void stored.set(key, value),
    getItem: async (key) => stored.get(key) ?? null,
    removeItem: async (key) => void stored.delete(key),
    clear: async () => stored.clear(),
  })
  Amplify.configure(config, { Auth: { tokenProvider: cognitoUserPoolsTokenProvider } })
  const sent: number[] = []
  const fetch = jest.spyOn(globalThis, 'fetch').mockImplementation(async () => {
    sent.push(Date.now())
    throw new TypeError('fetch failed')
  })
  try {
    const error = await fetchAuthSession({ forceRefresh: true }).then(
      () => null,
      (failure: unknown) => failure
    )
    expect(isNetworkError(error)).toBe(true)
    expect(sent).toHaveLength(3)
    const waits = sent.slice(1).map((at, i) => at - sent[i])
    expect(waits[0]).toBeGreaterThanOrEqual(200 - 5)
    expect(waits[0]).toBeLessThan(300 + 100)
    expect(waits[1]).toBeGreaterThanOrEqual(400 - 5)
    expect(waits[1]).toBeLessThan(500 + 100)
    // The stored session is kept for the next try.
    expect(stored.get(`${prefix}.leads1.refreshToken`)).toBe('refresh')
  } finally {
    fetch.mockRestore()
  }
})
