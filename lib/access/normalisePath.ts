/** `/`, or segments of lower-case letters, digits, `_`, `-` and `.`, none starting with a dot. */
const CANONICAL_SHAPE = /^(?:\/|(?:\/[a-z0-9_-][a-z0-9._-]*)+)$/

/** Whether `raw` is spelt as a canonical route is: no encoding, query, upper case, empty or dot segment. */
export const hasCanonicalShape = (raw: string) => CANONICAL_SHAPE.test(raw)

/**
 * Turns a request path into the one canonical route that the rules are written against,
 * so that no spelling of a path (`%2e%2e`, `//`, `/DOCS/`, `.html`, `/index`, a trailing slash)
 * can reach a file under a different rule than its canonical route.
 *
 * Returns null for a path that cannot be read safely (bad or double percent-encoding, NUL,
 * backslash, `..` climbing above the root, or a spelling that would read as another route once
 * normalised again, such as `a.html.html` or `index/index`); callers treat null as a denial.
 * So the route returned is its own canonical form.
 */
export function normalisePath(raw: string): string | null {
  // Most calls (the build's, per page) pass a route already canonical: lower case, no encoding,
  // no empty or dot segment, and a last segment that is neither `index` nor `….html`. Such a
  // path is its own route; any other takes the whole reading below.
  if (hasCanonicalShape(raw)) {
    const last = raw.slice(raw.lastIndexOf('/') + 1)
    if (last !== 'index' && !last.endsWith('.html')) return raw
  }
  const withoutSuffix = raw.split(/[?#]/, 1)[0]
  let decoded: string
  try {
    decoded = decodeURIComponent(withoutSuffix)
  } catch {
    return null
  }
  // A `%` left after decoding is a second encoding layer, which nothing downstream decodes:
  // deciding on a still-encoded dot or slash would let the rules and the file system disagree.
  // A decoded `?` or `#` would become a query or fragment the next time the route is read.
  // No file is named with any of them.
  if (/[%?#]/.test(decoded)) return null
  if (decoded.includes('\0') || decoded.includes('\\')) return null
  if (!decoded.startsWith('/')) decoded = '/' + decoded

  const segments: string[] = []
  for (const segment of decoded.split('/')) {
    if (segment === '' || segment === '.') continue
    if (segment === '..') {
      if (segments.length === 0) return null
      segments.pop()
      continue
    }
    segments.push(segment)
  }

  const last = segments.length - 1
  if (last >= 0 && /\.html$/i.test(segments[last])) {
    segments[last] = segments[last].slice(0, -'.html'.length)
    if (['', '.', '..'].includes(segments[last])) return null
  }
  if (segments.length > 0 && segments[segments.length - 1].toLowerCase() === 'index') {
    segments.pop()
  }
  const left = segments[segments.length - 1]
  if (left !== undefined && (/\.html$/i.test(left) || left.toLowerCase() === 'index')) return null
  // One form of each accented letter (NFC): a file name stored decomposed (as a Mac writes it) is decided by the rule its composed twin is.
  return ('/' + segments.join('/')).toLowerCase().normalize('NFC')
}

/** True when `path` is `prefix` or lies below it on a segment boundary (`/docs/leadsx` is not under `/docs/leads`). */
export function isUnderPrefix(path: string, prefix: string): boolean {
  if (prefix === '/') return true
  return path === prefix || path.startsWith(prefix + '/')
}
