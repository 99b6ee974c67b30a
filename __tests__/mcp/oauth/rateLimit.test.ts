/** @jest-environment node */
import { REGISTRATION_RATE } from '../../../lib/aiTools/registrationLimits'
import { createRateLimiter } from '../../../mcp/oauth/rateLimit'

const START = Date.UTC(2026, 0, 1)

test('each address has its own count; past the limit, Retry-After is the time left in its window; a new window starts afresh', () => {
  let nowMs = START
  const limiter = createRateLimiter(REGISTRATION_RATE, () => nowMs)
  for (let i = 0; i < REGISTRATION_RATE.limit; i++) expect(limiter.take('10.0.0.1')).toEqual({ allowed: true })
  expect(limiter.take('10.0.0.1')).toEqual({ allowed: false, retryAfterSeconds: REGISTRATION_RATE.windowSeconds })
  expect(limiter.take('10.0.0.2')).toEqual({ allowed: true })
  nowMs += (REGISTRATION_RATE.windowSeconds - 10) * 1000 + 500
  expect(limiter.take('10.0.0.1')).toEqual({ allowed: false, retryAfterSeconds: 10 })
  nowMs += 9_500
  expect(limiter.take('10.0.0.1')).toEqual({ allowed: true })
})

test('the windows of addresses that stopped are dropped, so memory holds one window\'s addresses', () => {
  let nowMs = START
  const limiter = createRateLimiter(REGISTRATION_RATE, () => nowMs)
  for (let i = 0; i < 10_000; i++) limiter.take(`10.0.${i >> 8}.${i & 255}`)
  expect(limiter.size()).toBe(10_000)
  nowMs += REGISTRATION_RATE.windowSeconds * 1000
  limiter.take('192.0.2.1')
  expect(limiter.size()).toBe(1)
})
