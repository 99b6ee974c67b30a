import { useEffect } from 'react'

/** Within this distance of the top the navbar always shows. */
export const NAVBAR_REVEAL_TOP_PX = 64
export const NAVBAR_HIDDEN_CLASS = 'navbar-hidden'

/** Hides the navbar while the reader scrolls down and brings it back on scroll up or near the top. */
export function NavbarAutoHide() {
  useEffect(() => {
    let lastY = window.scrollY
    const onScroll = () => {
      const y = window.scrollY
      const hide = y > NAVBAR_REVEAL_TOP_PX && y > lastY
      document.body.classList.toggle(NAVBAR_HIDDEN_CLASS, hide)
      lastY = y
    }
    window.addEventListener('scroll', onScroll, { passive: true })
    return () => {
      window.removeEventListener('scroll', onScroll)
      document.body.classList.remove(NAVBAR_HIDDEN_CLASS)
    }
  }, [])
  return null
}
