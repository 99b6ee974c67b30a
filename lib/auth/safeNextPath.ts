import { normalisePath } from '../access/normalisePath'
import { SIGN_IN_PAGE } from '../pathFormats'

/**
 * Accepts `next` only when it is a path on this site, so `/login?next=https://evil.example`
 * (or `//evil.example`, `/\evil.example`) cannot send a freshly signed-in reader elsewhere.
 */
export function safeNextPath(next: unknown, fallback = '/'): string {
  if (typeof next !== 'string' || next === '') return fallback
  if (!next.startsWith('/') || next.startsWith('//') || next.includes('\\')) return fallback
  // A control character could be dropped by the URL parser and turn the path into a host.
  if (/[\u0000-\u001f\u007f]/.test(next)) return fallback
  try {
    const url = new URL(next, 'https://docs.invalid')
    // The parser resolves `/.//host` to `//host`, which a browser's location would take for a host.
    if (url.origin !== 'https://docs.invalid' || url.pathname.startsWith('//')) return fallback
    // Back to the sign-in page in any spelling would only loop.
    if (normalisePath(url.pathname) === SIGN_IN_PAGE) return fallback
    return url.pathname + url.search + url.hash
  } catch {
    return fallback
  }
}
