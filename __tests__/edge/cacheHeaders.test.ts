/** @jest-environment node */
import { CACHE_CONTROL, cacheControlForObject } from '../../edge/cacheHeaders'
import { routeManifestKey } from '../../lib/access/readerView'

test("an audience's route manifest, whose name stays while its navigation changes, is revalidated; hashed build files are kept", () => {
  // A retitled page changes what the leads manifest holds, not its name: a browser that kept it would show the old title.
  expect(cacheControlForObject(routeManifestKey('0123456789abcdef0123', 'leads'))).toBe(CACHE_CONTROL.revalidate)
  expect(cacheControlForObject(routeManifestKey('0123456789abcdef0123', 'a1b2c3d4e5f'))).toBe(CACHE_CONTROL.revalidate)
  expect(cacheControlForObject('/_next/static/chunks/pages/_app-0123456789abcdef.js')).toBe(CACHE_CONTROL.hashedAsset)
  expect(cacheControlForObject('/_next/static/0123456789abcdef0123/_buildManifest.js')).toBe(CACHE_CONTROL.hashedAsset)
  expect(cacheControlForObject('/_audiences/a1b2c3d4e5f/_pagefind/pagefind-entry.json')).toBe(CACHE_CONTROL.revalidate)
})

test('what a browser could show again after a sign-out (a page, its data, its Markdown, an llms file, a PDF) is not stored; images and search files are revalidated', () => {
  for (const key of ['/docs/leads/intro.html', '/index.html', '/_next/data/0123456789abcdef0123/docs/leads/intro.json', '/docs/leads/intro.md', '/docs/leads/llms-full.txt', '/docs/leads/spec.pdf', '/docs/leads/Spec.PDF', '/docs/leads/notes.TXT']) {
    expect([key, cacheControlForObject(key)]).toEqual([key, CACHE_CONTROL.document])
  }
  expect(cacheControlForObject('/docs/leads/images/flow.png')).toBe(CACHE_CONTROL.revalidate)
  expect(cacheControlForObject('/_audiences/a1b2c3d4e5f/_pagefind/fragment/en_abc.pf_fragment')).toBe(CACHE_CONTROL.revalidate)
})
