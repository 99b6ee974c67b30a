/** @jest-environment node */
import { browserStorable, CACHE_CONTROL, cacheControlForObject, isSiteCode, sharedCacheable } from '../../edge/cacheHeaders'
import { routeManifestKey } from '../../lib/access/readerView'

test("content-hashed build code is kept; an audience's route manifest, whose name stays while its pages change and which names them, is not", () => {
  expect(cacheControlForObject('/_next/static/chunks/pages/_app-0123456789abcdef.js')).toBe(CACHE_CONTROL.hashedAsset)
  expect(cacheControlForObject('/_next/static/0123456789abcdef0123/_buildManifest.js')).toBe(CACHE_CONTROL.hashedAsset)
  for (const key of [routeManifestKey('0123456789abcdef0123', 'leads'), routeManifestKey('0123456789abcdef0123', 'a1b2c3d4e5f')]) {
    expect([key, cacheControlForObject(key)]).toEqual([key, CACHE_CONTROL.file])
  }
})

test('every file that holds docs (a page, its data, its Markdown, an llms file, a PDF, an image, a search file) is kept by no cache, the browser\'s included: nothing is left after a sign-out', () => {
  const keys = [
    '/docs/leads/intro.html',
    '/index.html',
    '/_next/data/0123456789abcdef0123/docs/leads/intro.json',
    '/docs/leads/intro.md',
    '/docs/leads/llms-full.txt',
    '/docs/leads/spec.pdf',
    '/docs/leads/Spec.PDF',
    '/docs/leads/images/flow.png',
    '/_audiences/a1b2c3d4e5f/_pagefind/pagefind-entry.json',
    '/_audiences/a1b2c3d4e5f/_pagefind/fragment/en_abc.pf_fragment',
    '/docs/leads/_pagefind/index/en_abc.pf_index',
  ]
  for (const key of keys) {
    const cacheControl = cacheControlForObject(key)
    expect([key, isSiteCode(key), sharedCacheable(cacheControl), browserStorable(cacheControl)]).toEqual([key, false, false, false])
  }
})

test("Pagefind's own script and engine in a search folder hold no docs (the same bytes in every folder): the browser keeps them and asks again each time", () => {
  for (const key of ['/docs/leads/_pagefind/pagefind.js', '/_audiences/a1b2c3d4e5f/_pagefind/pagefind.js', '/docs/leads/_pagefind/0/wasm.en.pagefind', '/docs/leads/_pagefind/wasm.unknown.pagefind']) {
    expect([key, isSiteCode(key), cacheControlForObject(key)]).toEqual([key, true, CACHE_CONTROL.searchEngine])
  }
  // A writer's file of the same name elsewhere is a file like any other.
  for (const key of ['/docs/leads/pagefind.js', '/docs/leads/_pagefind/0/pagefind-entry.json', '/docs/leads/_pagefind/0/fragment/wasm.en.pagefind']) {
    expect([key, isSiteCode(key), cacheControlForObject(key)]).toEqual([key, false, CACHE_CONTROL.file])
  }
  expect([sharedCacheable(CACHE_CONTROL.searchEngine), browserStorable(CACHE_CONTROL.searchEngine)]).toEqual([false, true])
})

test('a Cache-Control is read by its directives, in any case', () => {
  expect([sharedCacheable('public, max-age=60'), browserStorable('public, max-age=60')]).toEqual([true, true])
  expect([sharedCacheable('Private, No-Cache'), browserStorable('Private, No-Cache')]).toEqual([false, true])
  expect([sharedCacheable('no-store'), browserStorable('NO-STORE')]).toEqual([false, false])
  expect([sharedCacheable(null), browserStorable(null)]).toEqual([true, true])
})
