/**
 * A fixed-window count per source, for the local server's limit on registrations (on AWS the WAF
 * counts them, with the same figure: lib/aiTools/registrationLimits.ts). Memory stays bounded by
 * the sources seen within one window: ended windows are dropped as new requests arrive.
 */
import type { Clock } from './store/oauthStore'

export interface RateLimit {
  limit: number
  windowSeconds: number
}

/** Whether the request may go on; when not, how many seconds until the source's window ends. */
export type RateDecision = { allowed: true } | { allowed: false; retryAfterSeconds: number }

export interface RateLimiter {
  take(source: string): RateDecision
  /** Sources with a window still open (for tests of the limiter's memory). */
  size(): number
}

export function createRateLimiter({ limit, windowSeconds }: RateLimit, now: Clock = Date.now): RateLimiter {
  const windowMs = windowSeconds * 1000
  const windows = new Map<string, { startMs: number; count: number }>()
  let sweptAtMs = now()

  return {
    take(source) {
      const at = now()
      // At most once a window, drop every window that has ended.
      if (at - sweptAtMs >= windowMs) {
        for (const [key, window] of windows) if (at - window.startMs >= windowMs) windows.delete(key)
        sweptAtMs = at
      }
      let window = windows.get(source)
      if (!window || at - window.startMs >= windowMs) {
        window = { startMs: at, count: 0 }
        windows.set(source, window)
      }
      if (window.count >= limit) return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil((window.startMs + windowMs - at) / 1000)) }
      window.count += 1
      return { allowed: true }
    },
    size: () => windows.size,
  }
}
