/**
 * What one renewal of the reader's session came to, and which failures mean the sign-in service
 * was not reached. The retries are Amplify's own: its client tries a request that got no answer 3
 * times, waiting 2^n × 100 ms plus up to 100 ms after attempt n (never over 5 minutes), the policy
 * the replaced site had. The site adds none on top (three of its own sent nine requests), and
 * offers "Try again" once Amplify's attempts are used up
 * (__tests__/auth/amplifyRenewalRetries.test.ts fails if an upgrade changes Amplify's).
 */

/**
 * What one renewal came to: new tokens; no session (the service refused the refresh token, or
 * failed some other way, and the stored tokens were cleared); or no answer, because the sign-in
 * service could not be reached (the stored tokens are kept for the next attempt).
 */
export type RenewalOutcome = 'renewed' | 'signed-out' | 'unreachable'

/**
 * Whether an error means the service was not reached at all (no answer, as opposed to an answer
 * that refuses). Amplify turns a failed fetch into an error named `NetworkError`; a bare fetch
 * failure is a TypeError.
 */
export function isNetworkError(error: unknown): boolean {
  if (error instanceof TypeError) return true
  return typeof error === 'object' && error !== null && (error as { name?: unknown }).name === 'NetworkError'
}
