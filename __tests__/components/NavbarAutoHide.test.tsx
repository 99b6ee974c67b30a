import { act, render } from '@testing-library/react'
import { NAVBAR_HIDDEN_CLASS, NAVBAR_REVEAL_TOP_PX, NavbarAutoHide } from '../../components/NavbarAutoHide'

function scrollTo(y: number) {
  Object.defineProperty(window, 'scrollY', { configurable: true, writable: true, value: y })
  act(() => {
    window.dispatchEvent(new Event('scroll'))
  })
}
const navbarHidden = () => document.body.classList.contains('navbar-hidden')

beforeEach(() => {
  Object.defineProperty(window, 'scrollY', { configurable: true, writable: true, value: 0 })
  document.body.classList.remove('navbar-hidden')
})

describe('NavbarAutoHide: hides on scroll down, shows on scroll up or near the top', () => {
  test('uses the class the stylesheet hides and a 64 px reveal zone', () => {
    expect(NAVBAR_HIDDEN_CLASS).toBe('navbar-hidden')
    expect(NAVBAR_REVEAL_TOP_PX).toBe(64)
  })

  test('scrolling down past 64 px hides the navbar; scrolling up shows it again', () => {
    render(<NavbarAutoHide />)
    expect(navbarHidden()).toBe(false)
    scrollTo(100)
    expect(navbarHidden()).toBe(true)
    scrollTo(400)
    expect(navbarHidden()).toBe(true)
    scrollTo(380)
    expect(navbarHidden()).toBe(false)
    scrollTo(390)
    expect(navbarHidden()).toBe(true)
  })

  test('within 64 px of the top the navbar never hides, even while scrolling down', () => {
    render(<NavbarAutoHide />)
    for (const y of [10, 30, 50, 63, 64]) {
      scrollTo(y)
      expect(navbarHidden()).toBe(false)
    }
    scrollTo(65)
    expect(navbarHidden()).toBe(true)
  })

  test('scrolling back up into the top zone shows a hidden navbar', () => {
    render(<NavbarAutoHide />)
    scrollTo(300)
    expect(navbarHidden()).toBe(true)
    scrollTo(20)
    expect(navbarHidden()).toBe(false)
  })

  test('a page opened already scrolled down hides the navbar only once the reader scrolls further down', () => {
    Object.defineProperty(window, 'scrollY', { configurable: true, writable: true, value: 500 })
    render(<NavbarAutoHide />)
    expect(navbarHidden()).toBe(false)
    scrollTo(480)
    expect(navbarHidden()).toBe(false)
    scrollTo(520)
    expect(navbarHidden()).toBe(true)
  })

  test('unmounting shows the navbar and stops listening', () => {
    const { unmount } = render(<NavbarAutoHide />)
    scrollTo(300)
    expect(navbarHidden()).toBe(true)
    unmount()
    expect(navbarHidden()).toBe(false)
    scrollTo(600)
    expect(navbarHidden()).toBe(false)
  })
})
