/**
 * Every id of a page carries the clobber prefix (`user-content-intro`, lib/render/pageRules.ts), so
 * no element of a page can take the name of one of the site's. The table of contents, the
 * headings' anchors and search results link to the prefixed ids; a link written without the
 * prefix (`/docs/x#intro`: an older deep link, or a writer's `[see](#intro)`) reaches the heading
 * through this hook, as GitHub's script does for its `user-content-` ids: when the hash names no
 * element, the element with the prefixed id is scrolled to.
 *
 * On the first render, on the window's `hashchange`, and on Next's moves (a link to `#x` on the same
 * page changes the hash with pushState, which fires no `hashchange`; a move to another page scrolls
 * to the hash only if the id exists as written).
 */
import { useRouter } from 'next/router'
import { useEffect } from 'react'
import { CLOBBER_PREFIX } from './pageRules'

/** The element `hash` means when it names none as written: the one with its prefixed id; else null. */
export function unprefixedHashTarget(hash: string, doc: Document): HTMLElement | null {
  if (hash.length < 2 || !hash.startsWith('#')) return null
  let id = hash.slice(1)
  try {
    id = decodeURIComponent(id)
  } catch {
    // A malformed escape: the id as written.
  }
  if (id.startsWith(CLOBBER_PREFIX) || doc.getElementById(id)) return null
  return doc.getElementById(CLOBBER_PREFIX + id)
}

export function useUnprefixedHash(): void {
  const { events } = useRouter()
  useEffect(() => {
    const reach = () => unprefixedHashTarget(window.location.hash, document)?.scrollIntoView()
    // After the frame: a move's new page is committed, and Next has done its own scroll.
    const reachSoon = () => requestAnimationFrame(reach)
    reachSoon()
    window.addEventListener('hashchange', reachSoon)
    events.on('hashChangeComplete', reachSoon)
    events.on('routeChangeComplete', reachSoon)
    return () => {
      window.removeEventListener('hashchange', reachSoon)
      events.off('hashChangeComplete', reachSoon)
      events.off('routeChangeComplete', reachSoon)
    }
  }, [events])
}
