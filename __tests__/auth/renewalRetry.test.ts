import {
  BACKOFF_CAP_MS,
  RENEWAL_ATTEMPTS,
  backoffDelayMs,
  isNetworkError,
  renewWithRetries,
  type RenewalOutcome,
} from '../../lib/auth/renewalRetry'

describe('the wait between renewal attempts', () => {
  test.each([1, 2, 3, 10])('after attempt %i: 2^n × 100 ms, plus less than 100 ms of jitter', (attempt) => {
    expect(backoffDelayMs(attempt, () => 0)).toBe(2 ** attempt * 100)
    expect(backoffDelayMs(attempt, () => 0.5)).toBe(2 ** attempt * 100 + 50)
    expect(backoffDelayMs(attempt, () => 0.999999)).toBeLessThan(2 ** attempt * 100 + 100)
  })

  test('the jitter is random by default, within its bounds', () => {
    const delays = Array.from({ length: 200 }, () => backoffDelayMs(1))
    for (const delay of delays) {
      expect(delay).toBeGreaterThanOrEqual(200)
      expect(delay).toBeLessThan(300)
    }
    expect(new Set(delays).size).toBeGreaterThan(1)
  })

  test('it never exceeds five minutes', () => {
    expect(BACKOFF_CAP_MS).toBe(300_000)
    expect(backoffDelayMs(11, () => 0)).toBe(204_800)
    expect(backoffDelayMs(12, () => 0)).toBe(300_000)
    expect(backoffDelayMs(40, () => 0.9)).toBe(300_000)
  })
})

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

describe('renewing on the retry policy (fake timers)', () => {
  beforeEach(() => jest.useFakeTimers())
  afterEach(() => jest.useRealTimers())

  /** A renewal that answers the given outcomes in turn, recording when each attempt started. */
  function scripted(...outcomes: RenewalOutcome[]) {
    const startedAt: number[] = []
    const renew = jest.fn(async () => {
      startedAt.push(Date.now())
      return outcomes[Math.min(startedAt.length - 1, outcomes.length - 1)]
    })
    return { renew, startedAt }
  }

  test(`the service never answers: ${RENEWAL_ATTEMPTS} attempts, each after its backoff, then "unreachable"`, async () => {
    expect(RENEWAL_ATTEMPTS).toBe(3)
    const { renew, startedAt } = scripted('unreachable')
    const retrying = jest.fn()
    const start = Date.now()
    const result = renewWithRetries(renew, { onRetrying: retrying })

    await jest.advanceTimersByTimeAsync(0)
    expect(renew).toHaveBeenCalledTimes(1)
    // The second attempt waits 200 ms plus its jitter (under 100 ms) after the first.
    await jest.advanceTimersByTimeAsync(199)
    expect(renew).toHaveBeenCalledTimes(1)
    await jest.advanceTimersByTimeAsync(101)
    expect(renew).toHaveBeenCalledTimes(2)
    // The third waits 400 ms plus its jitter after the second.
    const second = startedAt[1]
    await jest.advanceTimersByTimeAsync(second + 399 - Date.now())
    expect(renew).toHaveBeenCalledTimes(2)
    await jest.advanceTimersByTimeAsync(101)
    expect(renew).toHaveBeenCalledTimes(3)
    // And no fourth.
    await jest.advanceTimersByTimeAsync(BACKOFF_CAP_MS * 2)
    expect(renew).toHaveBeenCalledTimes(3)
    await expect(result).resolves.toBe('unreachable')

    const waits = startedAt.map((at, index) => at - (index === 0 ? start : startedAt[index - 1]))
    expect(waits[0]).toBe(0)
    expect(waits[1]).toBeGreaterThanOrEqual(200)
    expect(waits[1]).toBeLessThan(300)
    expect(waits[2]).toBeGreaterThanOrEqual(400)
    expect(waits[2]).toBeLessThan(500)
    expect(retrying.mock.calls).toEqual([[1], [2]])
  })

  test('the service answers at the second attempt: renewed, with no third', async () => {
    const { renew } = scripted('unreachable', 'renewed')
    const result = renewWithRetries(renew)
    await jest.advanceTimersByTimeAsync(BACKOFF_CAP_MS)
    await expect(result).resolves.toBe('renewed')
    expect(renew).toHaveBeenCalledTimes(2)
  })

  test('a refusal ends the attempts at once', async () => {
    const { renew } = scripted('signed-out')
    const retrying = jest.fn()
    const result = renewWithRetries(renew, { onRetrying: retrying })
    await jest.advanceTimersByTimeAsync(BACKOFF_CAP_MS)
    await expect(result).resolves.toBe('signed-out')
    expect(renew).toHaveBeenCalledTimes(1)
    expect(retrying).not.toHaveBeenCalled()
  })

  test('renewed at once: one attempt', async () => {
    const { renew } = scripted('renewed')
    await expect(renewWithRetries(renew)).resolves.toBe('renewed')
    expect(renew).toHaveBeenCalledTimes(1)
  })

  test('once no longer wanted (the page moved on), no further attempt is made', async () => {
    const { renew } = scripted('unreachable')
    let wanted = true
    const result = renewWithRetries(renew, { stillWanted: () => wanted })
    await jest.advanceTimersByTimeAsync(0)
    wanted = false
    await jest.advanceTimersByTimeAsync(BACKOFF_CAP_MS)
    await expect(result).resolves.toBe('unreachable')
    expect(renew).toHaveBeenCalledTimes(1)
  })
})
