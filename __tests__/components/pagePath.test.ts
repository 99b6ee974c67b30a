import { pagePathOf } from '../../lib/navigation/pagePath'

// The guard, the error boundary and the page actions decide on this path: on the one docs route
// Next's pathname is the same pattern for every page, which would let a reader's decision (or a
// crash) on one page follow them to the next.
test('on the docs route, the path is the page the reader opened, without query or hash', () => {
  expect(pagePathOf({ pathname: '/[[...slug]]', asPath: '/docs/leads/intro?x=1#setup' })).toBe('/docs/leads/intro')
  expect(pagePathOf({ pathname: '/[[...slug]]', asPath: '/docs/internal/' })).toBe('/docs/internal')
  expect(pagePathOf({ pathname: '/[[...slug]]', asPath: '/' })).toBe('/')
})

test('a page of its own keeps its route, so the not-found page decides on /404, not on the missing path', () => {
  expect(pagePathOf({ pathname: '/404', asPath: '/docs/nowhere' })).toBe('/404')
  expect(pagePathOf({ pathname: '/login', asPath: '/login?next=%2Fdocs' })).toBe('/login')
})
