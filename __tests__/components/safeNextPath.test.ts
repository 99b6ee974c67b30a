import { safeNextPath } from '../../lib/auth/safeNextPath'

describe('safeNextPath: only a path on this site may follow sign-in', () => {
  test.each([
    ['/docs/leads/intro', '/docs/leads/intro'],
    ['/', '/'],
    ['/docs/leads/intro?tab=curl#auth', '/docs/leads/intro?tab=curl#auth'],
    ['/docs/leads/../internal/intro', '/docs/internal/intro'],
    ['/docs/a b', '/docs/a%20b'],
  ])('keeps %j as %j', (next, expected) => {
    expect(safeNextPath(next)).toBe(expected)
  })

  test.each([
    ['an absolute URL', 'https://evil.example/docs'],
    ['a protocol-relative URL', '//evil.example'],
    ['a dot segment the parser resolves to a protocol-relative path', '/.//evil.example/phish'],
    ['an encoded dot segment', '/%2e//evil.example'],
    ['a parent segment', '/a/..//evil.example'],
    ['a backslash that browsers read as a slash', '/\\evil.example'],
    ['a backslash later in the path', '/docs\\..\\..\\evil'],
    ['a javascript: URL', 'javascript:alert(document.cookie)'],
    ['a data: URL', 'data:text/html,<script>alert(1)</script>'],
    ['a relative path', 'docs/leads/intro'],
    ['a tab the URL parser would drop', '/\t/evil.example'],
    ['a newline the URL parser would drop', '/\n/evil.example'],
    ['a carriage return', '/\r/evil.example'],
    ['a NUL', '/docs\u0000'],
    ['a DEL', '/docs\u007f'],
    ['the login page', '/login'],
    ['the login page with its own next', '/login?next=%2Flogin'],
    ['the login page reached through dot segments', '/docs/../login'],
    ['the login page reached through an encoded dot segment', '/%2e/login'],
    ['an empty string', ''],
  ])('rejects %s', (_label, next) => {
    expect(safeNextPath(next)).toBe('/')
  })

  test.each([[undefined], [null], [42], [['/docs/leads/intro']], [{ toString: () => '/docs' }]])('rejects a non-string %j', (next) => {
    expect(safeNextPath(next)).toBe('/')
  })

  test('uses the given fallback', () => {
    expect(safeNextPath('https://evil.example', '')).toBe('')
    expect(safeNextPath(undefined, '/docs')).toBe('/docs')
    expect(safeNextPath('/docs/leads/intro', '')).toBe('/docs/leads/intro')
  })
})
