/** @jest-environment node */
/**
 * Refresh tokens are one-time: of several requests that send one refresh token at the same moment,
 * one is answered with tokens and every other gets invalid_grant, however many race (a request
 * that read the token before a racing reuse revoked its grant fails too). Against the real
 * authorization server (a harness process).
 */
import { authorize, registeredClient, startHarness, token, LOOPBACK, type Harness } from './harness'

// Generous: the harness is a Node process that loads oidc-provider, slow on a busy machine.
jest.setTimeout(180_000)

let harness: Harness
beforeAll(async () => {
  // The user pool's check of the reader takes a moment, as on AWS: every racer reads the token unused.
  harness = await startHarness({ checkReaderMs: 100 })
})
afterAll(async () => {
  await harness?.stop()
})

test.each([2, 3, 5])('of %i requests with one refresh token at once, exactly one gets tokens; the others, and the winner afterwards, get invalid_grant', async (racers) => {
  const clientId = await registeredClient(harness)
  const { callback, verifier } = await authorize(harness, clientId, { scope: 'docs:read offline_access', prompt: 'consent' })
  const exchanged = await token(harness, { grant_type: 'authorization_code', code: callback.get('code')!, code_verifier: verifier, redirect_uri: LOOPBACK, client_id: clientId })
  expect(exchanged.status).toBe(200)
  const refresh = (refreshToken: string) => token(harness, { grant_type: 'refresh_token', refresh_token: refreshToken, client_id: clientId })
  const answers = await Promise.all(Array.from({ length: racers }, () => refresh(exchanged.body.refresh_token)))
  expect(answers.map((answer) => answer.status).sort()).toEqual([200, ...Array<number>(racers - 1).fill(400)])
  for (const answer of answers.filter((each) => each.status === 400)) expect(answer.body.error).toBe('invalid_grant')
  const won = answers.find((answer) => answer.status === 200)!
  // The grant ended with the reuse: the winner's new refresh token is refused too.
  expect((await refresh(won.body.refresh_token)).body.error).toBe('invalid_grant')
})
