import { useEffect, useRef, type ReactNode } from 'react'
import { useRouter } from 'next/router'
import { decideForView } from '../lib/access/readerView'
import { useAuth } from '../lib/auth/AuthContext'
import { loadAfresh } from '../lib/navigation/loadAfresh'
import { pagePathOf } from '../lib/navigation/pagePath'
import { noAccessUrl, signInUrl } from '../lib/pathFormats'

/**
 * User interface only: the edge authorizer is what keeps content from unauthorised readers.
 * The guard decides on the page's path (lib/navigation/pagePath.ts), which for the 404 page is
 * `/404`, so an unmatched path shows "not found" instead of a sign-in loop.
 *
 * Until the reader is known the page renders as it was built. The edge served this HTML only to
 * a reader who may open it, so the content can be in the static HTML and paint at once, with no
 * "Loading..." screen to shift away. Once the reader is known, one who may not open the page
 * sees "Loading..." while being sent to sign in or to /unauthorized, by a full page load: a tab
 * whose reader signed out elsewhere, or lost the page, keeps none of what it fetched for them. So
 * does a tab whose reader turns out to be another one (signed out, and another signed in, in
 * another tab): the page reloads for the new reader; and a tab on a page anyone may open (sign-in,
 * no access, not found, the AI tools' pages) whose reader signed out elsewhere: the next reader
 * would sign in from it.
 */
export function RouteGuard({ children }: { children: ReactNode }) {
  const router = useRouter()
  const { view } = useAuth()
  const decision = view ? decideForView(view, pagePathOf(router)) : null
  const reader = useRef<string | null>(null)

  useEffect(() => {
    const before = reader.current
    if (view) reader.current = view.username
    // Another reader, or none (signed out elsewhere) on a page anyone may open, where the next
    // reader would sign in from this tab: it loads afresh. Where the page is not theirs, the
    // decision below sends them to sign in, by a full load too.
    if (before !== null && view && view.username !== before && (view.username !== null || decision === 'allow')) loadAfresh(router.asPath)
  }, [view, router, decision])

  useEffect(() => {
    if (!router.isReady) return
    if (decision === 'login') loadAfresh(signInUrl(router.asPath))
    else if (decision === 'deny') loadAfresh(noAccessUrl(router.asPath))
  }, [decision, router])

  if (decision === null || decision === 'allow') return <>{children}</>
  return (
    <div className="route-guard-status" role="status" aria-live="polite">
      Loading...
    </div>
  )
}
