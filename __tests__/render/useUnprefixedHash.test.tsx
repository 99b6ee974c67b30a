/**
 * Every id of a page has the clobber prefix (`user-content-intro`), so a link to a heading written
 * without it (an older deep link `/docs/x#intro`, a writer's `[see](#intro)`) reaches the heading
 * through the docs route's hook: on the first render, on `hashchange`, and on Next's moves.
 */
import { act, render } from '@testing-library/react'
import { routerEvents } from '../components/helpers/mockNextRouter'
import { unprefixedHashTarget, useUnprefixedHash } from '../../lib/render/useUnprefixedHash'

jest.mock('next/router', () => require('../components/helpers/mockNextRouter'))

function Page() {
  useUnprefixedHash()
  return (
    <div>
      <h2 id="user-content-intro">Intro</h2>
      <h2 id="user-content-café">Café</h2>
      <div id="nextra-skip-nav" />
    </div>
  )
}

const scrolled: string[] = []
beforeAll(() => {
  Element.prototype.scrollIntoView = function (this: Element) {
    scrolled.push(this.id)
  }
  jest.spyOn(window, 'requestAnimationFrame').mockImplementation((callback) => {
    callback(0)
    return 0
  })
})
beforeEach(() => {
  scrolled.length = 0
  window.history.replaceState(null, '', '/docs/x')
})

test('a hash without the prefix means the element with it; one that names an element as written, or has the prefix, is left to the browser', () => {
  render(<Page />)
  expect(unprefixedHashTarget('#intro', document)?.id).toBe('user-content-intro')
  expect(unprefixedHashTarget('#caf%C3%A9', document)?.id).toBe('user-content-café')
  expect(unprefixedHashTarget('#user-content-intro', document)).toBeNull()
  expect(unprefixedHashTarget('#nextra-skip-nav', document)).toBeNull()
  expect(unprefixedHashTarget('#missing', document)).toBeNull()
  expect(unprefixedHashTarget('#', document)).toBeNull()
  expect(unprefixedHashTarget('', document)).toBeNull()
  expect(unprefixedHashTarget('#%E0%A4%A', document)).toBeNull()
})

test('a deep link without the prefix scrolls to the heading when the page opens, and on each change of the hash', () => {
  window.history.replaceState(null, '', '/docs/x#intro')
  const { unmount } = render(<Page />)
  expect(scrolled).toEqual(['user-content-intro'])

  window.history.replaceState(null, '', '/docs/x#intro')
  act(() => void window.dispatchEvent(new HashChangeEvent('hashchange')))
  // A link on the page moves with pushState (no hashchange); a move from another page, after its render.
  act(() => routerEvents.emit('hashChangeComplete', '/docs/x#intro'))
  act(() => routerEvents.emit('routeChangeComplete', '/docs/x#intro'))
  expect(scrolled).toEqual(['user-content-intro', 'user-content-intro', 'user-content-intro', 'user-content-intro'])

  unmount()
  expect(routerEvents.listenerCount('hashChangeComplete')).toBe(0)
  expect(routerEvents.listenerCount('routeChangeComplete')).toBe(0)
})
