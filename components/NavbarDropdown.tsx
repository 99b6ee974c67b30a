import { PageLink } from './PageLink'
import { useEffect, useRef, useState } from 'react'

export interface DropdownItem {
  label: string
  href: string
  active?: boolean
}

/**
 * A small disclosure menu for the navbar (language, docs version). The button's name is its
 * visible text after a hidden "Docs version:" or "Language:", never a name of its own: a reader
 * who says or sees "English" finds the button by that word (WCAG 2.5.3, label in name).
 */
export function NavbarDropdown({ label, purpose, items }: { label: string; purpose: string; items: DropdownItem[] }) {
  const [open, setOpen] = useState(false)
  const root = useRef<HTMLDivElement>(null)
  useEffect(() => {
    if (!open) return
    const close = (event: MouseEvent | KeyboardEvent) => {
      if (event instanceof KeyboardEvent ? event.key === 'Escape' : !root.current?.contains(event.target as Node)) setOpen(false)
    }
    document.addEventListener('mousedown', close)
    document.addEventListener('keydown', close)
    return () => {
      document.removeEventListener('mousedown', close)
      document.removeEventListener('keydown', close)
    }
  }, [open])
  return (
    <div className="navbar-dropdown" ref={root}>
      <button type="button" aria-haspopup="menu" aria-expanded={open} onClick={() => setOpen(!open)}>
        <span className="sr-only">{purpose}: </span>
        {label} <span aria-hidden="true">▾</span>
      </button>
      {open && (
        <ul role="menu">
          {items.map((item) => (
            <li key={item.href} role="none">
              <PageLink role="menuitem" href={item.href} prefetch={false} aria-current={item.active ? 'true' : undefined} onClick={() => setOpen(false)}>
                {item.label}
              </PageLink>
            </li>
          ))}
        </ul>
      )}
    </div>
  )
}
