import { useEffect } from 'react'
import { useMenu } from 'nextra-theme-docs'

const FOCUSABLE = 'a[href], button:not([disabled]), input:not([disabled]), select, textarea, [tabindex]:not([tabindex="-1"])'

/** What Tab may reach while the mobile menu is open: its button, then the menu's own links and boxes. */
function menuStops(): HTMLElement[] {
  const button = document.querySelector<HTMLElement>('.nextra-hamburger')
  const menu = document.querySelector('aside.nextra-sidebar-container')
  const inside = menu ? [...menu.querySelectorAll<HTMLElement>(FOCUSABLE)].filter((element) => element.getClientRects().length > 0) : []
  return button ? [button, ...inside] : inside
}

/**
 * The theme's mobile menu, for a keyboard: while it is open, Tab and Shift+Tab stay in it (the page
 * behind is covered, so focus there would be out of sight, WCAG 2.4.11), and Escape closes it and
 * puts focus back on its button. Draws nothing.
 */
export function MobileMenuKeys() {
  const { menu, setMenu } = useMenu()
  useEffect(() => {
    if (!menu) return
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') {
        event.preventDefault()
        setMenu(false)
        document.querySelector<HTMLElement>('.nextra-hamburger')?.focus()
        return
      }
      if (event.key !== 'Tab') return
      const stops = menuStops()
      if (stops.length === 0) return
      const at = stops.indexOf(document.activeElement as HTMLElement)
      const next = event.shiftKey ? (at <= 0 ? stops.length - 1 : at - 1) : at === -1 || at === stops.length - 1 ? 0 : at + 1
      event.preventDefault()
      stops[next].focus()
    }
    document.addEventListener('keydown', onKey)
    return () => document.removeEventListener('keydown', onKey)
  }, [menu, setMenu])
  return null
}
