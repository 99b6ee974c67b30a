/**
 * How the browser keeps trying to renew the reader's session when the sign-in service cannot be
 * reached. Pure: the caller supplies the renewal, the wait and the random numbers.
 *
 * The policy: at most RENEWAL_ATTEMPTS attempts. After attempt n fails with a network error, wait
 * 2^n × BACKOFF_BASE_MS plus up to BACKOFF_JITTER_MS of random jitter (never longer than
 * BACKOFF_CAP_MS), then try again. When every attempt has failed, the reader is offered
 * "Try again", which runs the attempts once more. Any other failure ends the attempts at once.
 *
 * Each attempt is one renewal call; Amplify's client repeats a request that lost its connection a
 * few times on its own before the attempt counts as failed.
 */

export const RENEWAL_ATTEMPTS = 3
export const BACKOFF_BASE_MS = 100
export const BACKOFF_JITTER_MS = 100
export const BACKOFF_CAP_MS = 300_000

/**
 * What one renewal came to: new tokens; no session (the service refused the refresh token, or
 * failed some other way, and the stored tokens were cleared); or no answer, because the sign-in
 * service could not be reached (the stored tokens are kept for the next attempt).
 */
export type RenewalOutcome = 'renewed' | 'signed-out' | 'unreachable'

/** The wait after failed attempt `attempt` (1 for the first), in milliseconds. `random` returns [0, 1). */
export function backoffDelayMs(attempt: number, random: () => number = Math.random): number {
  return Math.min(BACKOFF_CAP_MS, 2 ** attempt * BACKOFF_BASE_MS + random() * BACKOFF_JITTER_MS)
}

/**
 * Whether an error means the service was not reached at all (no answer, as opposed to an answer
 * that refuses). Amplify turns a failed fetch into an error named `NetworkError`; a bare fetch
 * failure is a TypeError.
 */
export function isNetworkError(error: unknown): boolean {
  if (error instanceof TypeError) return true
  return typeof error === 'object' && error !== null && (error as { name?: unknown }).name === 'NetworkError'
}

export interface RetryHooks {
  /** Called when attempt `failed` could not reach the service and another attempt will follow. */
  onRetrying?: (failed: number) => void
  /** Checked before each retry: false stops (the page has moved on); the last outcome is returned. */
  stillWanted?: () => boolean
  /** Waits `ms` milliseconds. */
  wait?: (ms: number) => Promise<void>
  random?: () => number
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms))

/** Runs `renew` on the policy above and returns the last outcome. */
export async function renewWithRetries(renew: () => Promise<RenewalOutcome>, hooks: RetryHooks = {}): Promise<RenewalOutcome> {
  const { onRetrying, stillWanted = () => true, wait = sleep, random = Math.random } = hooks
  for (let attempt = 1; ; attempt++) {
    const outcome = await renew()
    if (outcome !== 'unreachable' || attempt >= RENEWAL_ATTEMPTS || !stillWanted()) return outcome
    onRetrying?.(attempt)
    await wait(backoffDelayMs(attempt, random))
    if (!stillWanted()) return outcome
  }
}
