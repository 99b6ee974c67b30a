/**
 * @jest-environment node
 *
 * Which route governs a file is asked of every request, with a path anyone may write: its cost must
 * not grow with the square of the path's depth (a path of 4,000 folders took a third of a second).
 */
import { governingRoute, type AssetRoutes } from '../../lib/access/governingRoute'

/** The map, counting the keys governingRoute looks up in it. */
function counted(routes: Record<string, string>): { map: AssetRoutes; lookups: () => number } {
  let lookups = 0
  const map = new Proxy(routes, {
    get(target, key, receiver) {
      if (typeof key === 'string') lookups++
      return Reflect.get(target, key, receiver)
    },
  })
  return { map, lookups: () => lookups }
}

const routes = { '/_next/static/chunks/': '/', '/docs/leads/_pagefind/': '/docs/leads/intro' }

test('a path of thousands of folders costs a lookup per folder that could be a key, not one per folder it has', () => {
  const { map, lookups } = counted(routes)
  const deep = '/' + 'a/'.repeat(4000) + 'x.png'
  expect(governingRoute(deep, map)).toBe(deep)
  expect(lookups()).toBeLessThan(20)
})

test('a file thousands of folders below a folder key is still governed by that folder', () => {
  const { map, lookups } = counted(routes)
  expect(governingRoute('/docs/leads/_pagefind/' + 'f/'.repeat(3000) + 'x.pf_fragment', map)).toBe('/docs/leads/intro')
  expect(governingRoute('/_next/static/chunks/' + 'c/'.repeat(3000) + 'x.js', map)).toBe('/')
  expect(lookups()).toBeLessThan(40)
})
