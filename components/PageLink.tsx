import Link from 'next/link'
import type { AnchorHTMLAttributes } from 'react'
import { decideForView } from '../lib/access/readerView'
import { useAuth } from '../lib/auth/AuthContext'

export type PageLinkProps = Omit<AnchorHTMLAttributes<HTMLAnchorElement>, 'href'> & {
  /** A path of the site (`/`, `/docs/leads/intro`), with a query or a fragment if need be. */
  href: string
  /** Next's viewport prefetch, for a page the reader may open; off with `false`. */
  prefetch?: boolean
}

/**
 * A link to one of the site's pages, as every component of the site writes one. It is Next's link
 * (the page moves in place, its data and code are prefetched when the link comes into view or is
 * hovered) only once the authority has said the reader may open the page. Until then, and for a
 * page the reader may not open (the home page, to a visitor on the sign-in page), it is a plain
 * anchor: nothing is fetched before a click, and the click is a navigation, which the edge answers
 * with the sign-in or no-access page. Next's own `prefetch={false}` would not be enough: the pages
 * router still prefetches on hover and touch, and the edge refuses those files.
 */
export function PageLink({ href, prefetch, ...anchor }: PageLinkProps) {
  const { view } = useAuth()
  const path = href.split(/[?#]/, 1)[0] || '/'
  if (view && decideForView(view, path) === 'allow') return <Link href={href} prefetch={prefetch} {...anchor} />
  return <a href={href} {...anchor} />
}
