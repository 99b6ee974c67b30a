/** @jest-environment node */
import fc from 'fast-check'
import { access, decideAccess, normalisePath } from '../../lib/access'
import { objectKeyFor } from '../../lib/access/objectKey'
import { pageHtmlFile } from '../../lib/access/pageFiles'

const SEGMENTS = ['docs', 'leads', 'internal', 'support-twilio', 'intro', 'endpoints', 'data-lake', 'leadsx', 'index', 'login', '404', '_next']
const USERS = [null, 'admin', 'leads1', 'internal1', 'support1', 'outsider']

const segmentsArb = fc.array(fc.constantFrom(...SEGMENTS), { minLength: 0, maxLength: 5 })
/** Path pieces that have each once made a canonical route read as another route when normalised again. */
const TRICKY = ['%3f', '%23', '%25', '%2541', '.html', '..html', '...html', 'index', 'index.html', 'INDEX.HTML', 'a.html', '.', '..', '%2e', '//']
const trickyPathArb = fc
  .array(fc.oneof(fc.constantFrom(...TRICKY, ...SEGMENTS), fc.string({ maxLength: 6 })), { maxLength: 6 })
  .chain((pieces) => fc.constantFrom(pieces.join('/'), pieces.join(''), '/docs/leads/' + pieces.join('/')))
const userArb = fc.constantFrom(...USERS).map((name) => (name === null ? null : { username: name }))

/** One spelling trick applied to a path made of segments. */
type Trick = (segments: string[]) => string
const join = (segments: string[]) => '/' + segments.join('/')
const tricks: Record<string, Trick> = {
  plain: join,
  doubleSlash: (s) => '/' + s.join('//'),
  dotSegment: (s) => '/' + s.map((x) => `./${x}`).join('/'),
  upDown: (s) => '/' + s.map((x) => `zzz/../${x}`).join('/'),
  upperCase: (s) => join(s).toUpperCase(),
  trailingSlash: (s) => join(s) + '/',
  htmlSuffix: (s) => (s.length ? join(s) + '.html' : '/index.html'),
  indexSuffix: (s) => join([...s, 'index']),
  encodeAll: (s) => '/' + s.map((x) => [...x].map((c) => '%' + c.charCodeAt(0).toString(16).padStart(2, '0')).join('')).join('/'),
  encodedSlashes: (s) => '/' + s.join('%2f'),
  encodedDots: (s) => '/' + s.map((x) => `zzz/%2e%2e/${x}`).join('/'),
  doubleEncoded: (s) => '/' + s.map((x) => `zzz/%252e%252e/${x}`).join('/'),
  query: (s) => join(s) + '?next=/docs/leads/intro',
  fragment: (s) => join(s) + '#/docs/leads',
}

describe('no spelling of a path is allowed where its canonical route is not', () => {
  test('every trick, every reader', () => {
    fc.assert(
      fc.property(segmentsArb, fc.constantFrom(...Object.keys(tricks)), userArb, (segments, trick, user) => {
        const canonical = join(segments)
        const spelled = tricks[trick](segments)
        const expected = decideAccess(access, canonical, user)
        const actual = decideAccess(access, spelled, user)
        if (actual === 'allow') expect(expected).toBe('allow')
      }),
      { numRuns: 3000 }
    )
  })

  test('arbitrary strings: an allowed path normalises to a route that is itself allowed', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 40 }), fc.webPath(), userArb, (noise, webPath, user) => {
        for (const raw of [noise, webPath, `/docs/leads/${noise}`, `/docs/leads/${webPath}`]) {
          if (decideAccess(access, raw, user) !== 'allow') continue
          const route = normalisePath(raw)
          expect(route).not.toBeNull()
          expect(decideAccess(access, route as string, user)).toBe('allow')
          // The canonical form is a fixed point: normalising again changes nothing.
          expect(normalisePath(route as string)).toBe(route)
        }
      }),
      { numRuns: 3000 }
    )
  })

  test('the canonical route is a fixed point: normalising it again gives the same route', () => {
    fc.assert(
      fc.property(fc.oneof(trickyPathArb, fc.string({ maxLength: 40 }), fc.webPath()), (raw) => {
        const route = normalisePath(raw)
        if (route !== null) expect(normalisePath(route)).toBe(route)
      }),
      { numRuns: 5000 }
    )
  })
})

test('a key spelt canonically has the object key of the same key read whole (a query sends it the long way)', () => {
  const segment = fc.stringMatching(/^[a-z0-9_-][a-z0-9._-]{0,8}$/)
  fc.assert(
    fc.property(fc.array(segment, { maxLength: 5 }), (segments) => {
      const key = `/${segments.join('/')}`
      expect(objectKeyFor(key)).toBe(objectKeyFor(`${key}?long=way`))
    }),
    { numRuns: 3000 }
  )
})

test("a key spelt canonically is its own object key, or its page's file; one spelling away from it is read whole", () => {
  const cases: [string, string | null][] = [
    ['/', pageHtmlFile('/')],
    ['/docs/leads/intro', pageHtmlFile('/docs/leads/intro')],
    ['/docs/leads/intro.html', pageHtmlFile('/docs/leads/intro')],
    ['/docs/leads/index', pageHtmlFile('/docs/leads')],
    ['/docs/leads/intro.md', '/docs/leads/intro.md'],
    ['/docs/v1.2/a_b-c', pageHtmlFile('/docs/v1.2/a_b-c')],
    ['/docs/v1.2/a_b-c.txt', '/docs/v1.2/a_b-c.txt'],
    ['/_next/static/chunks/main-0a1b.js', '/_next/static/chunks/main-0a1b.js'],
    ['/_next/static/chunks/Main-0A1B.js', '/_next/static/chunks/Main-0A1B.js'],
    ['/docs/leads/intro.HTML', pageHtmlFile('/docs/leads/intro')],
    ['/docs//leads/intro.md', '/docs/leads/intro.md'],
    ['/docs/./leads/../leads/intro.md', '/docs/leads/intro.md'],
    ['/docs/leads/intro%2emd', '/docs/leads/intro.md'],
    ['/docs/leads/intro.md?x=1', '/docs/leads/intro.md'],
    ['/docs/a.html.html', null],
  ]
  expect(cases.map(([raw]) => [raw, objectKeyFor(raw)])).toEqual(cases)
})

test('a route already canonical comes back as it is; one spelling away from it is read whole', () => {
  const cases: [string, string | null][] = [
    ['/', '/'],
    ['/docs/leads/intro', '/docs/leads/intro'],
    ['/docs/v1.2/a_b-c', '/docs/v1.2/a_b-c'],
    ['/docs/index/intro', '/docs/index/intro'],
    ['/docs/a.html/b', '/docs/a.html/b'],
    ['/docs/leads/index', '/docs/leads'],
    ['/index', '/'],
    ['/docs/leads/intro.html', '/docs/leads/intro'],
    ['/docs/leads/index.html', '/docs/leads'],
    ['/docs/leads/index/index', null],
    ['/docs/a.html.html', null],
    ['/docs/.well-known', '/docs/.well-known'],
    ['/docs/leads/..', '/docs'],
    ['/docs/./leads', '/docs/leads'],
    ['/docs//leads/', '/docs/leads'],
    ['/Docs/Leads', '/docs/leads'],
    ['docs/leads', '/docs/leads'],
    ['/docs/le%61ds', '/docs/leads'],
    ['/docs/leads?x=1', '/docs/leads'],
  ]
  expect(cases.map(([raw]) => [raw, normalisePath(raw)])).toEqual(cases)
})
