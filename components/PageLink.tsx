import Router from 'next/router'
import type { AnchorHTMLAttributes, MouseEvent } from 'react'
import { decideForView } from '../lib/access/readerView'
import { useAuth } from '../lib/auth/AuthContext'

export type PageLinkProps = Omit<AnchorHTMLAttributes<HTMLAnchorElement>, 'href'> & {
  /** A path of the site (`/`, `/docs/leads/intro`), with a query or a fragment if need be. */
  href: string
  /** Whether hovering or touching it prefetches the page, for a reader who may open it; on by default. */
  prefetch?: boolean
}

/** A click the browser would open in place: the main button, no modifier, no other target. */
const opensInPlace = (event: MouseEvent<HTMLAnchorElement>) =>
  !event.defaultPrevented && event.button === 0 && !event.metaKey && !event.ctrlKey && !event.shiftKey && !event.altKey && !event.currentTarget.target

/**
 * A link to one of the site's pages, as every component of the site writes one: always the same
 * plain anchor, so nothing inside it is drawn again when the reader becomes known. Once the
 * authority has said the reader may open the page, a click moves in place (Next's router) and
 * hovering or touching it prefetches the page's data and code. Until then, and for a page the
 * reader may not open (the home page, to a visitor on the sign-in page), nothing is fetched
 * before a click, and the click is the browser's own navigation, which the edge answers with the
 * sign-in or no-access page. Next's own link would not do: its `prefetch={false}` still
 * prefetches on hover and touch in the pages router, and the edge refuses those files.
 */
export function PageLink({ href, prefetch = true, onClick, onMouseEnter, onTouchStart, ...anchor }: PageLinkProps) {
  const { view } = useAuth()
  const allowed = view !== null && decideForView(view, href.split(/[?#]/, 1)[0] || '/') === 'allow'
  const warm = () => {
    if (allowed && prefetch) void Router.prefetch(href).catch(() => {}) // a failed prefetch only costs the click its head start
  }
  return (
    <a
      href={href}
      {...anchor}
      onMouseEnter={(event) => {
        onMouseEnter?.(event)
        warm()
      }}
      onTouchStart={(event) => {
        onTouchStart?.(event)
        warm()
      }}
      onClick={(event) => {
        onClick?.(event)
        if (!allowed || !opensInPlace(event)) return
        event.preventDefault()
        void Router.push(href)
      }}
    />
  )
}
