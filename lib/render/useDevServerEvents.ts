/**
 * `npm run dev`: the open docs page fetches its props again when the dev server says the pages'
 * props were written again (after a content edit, or new access rules), as Next's own handler of
 * a "server-only change" does, so an edit shows in the open page with no module compiled (when the
 * event names the routes whose props changed, only those pages fetch theirs). The
 * route's getStaticProps runs on every request in dev and reads the props the content check wrote
 * (./docsPages.ts).
 *
 * It also hears what the content check found: a page that did not pass keeps its last props (a
 * new one is not found), so the page says why (components/DevProblems.tsx), with its own messages.
 *
 * Nothing of it is in a build: the condition is false when the bundle is made, so the minifier
 * drops the hook and the path.
 */
import Router, { useRouter } from 'next/router'
import { useEffect, useState } from 'react'
import { normalisePath } from '../access/normalisePath'
import { DEV_PROPS_EVENTS_PATH, routeToken, PROBLEMS_EVENT, PROBLEMS_QUERY, problemsFor, refreshFor } from './devPropsEvents'

/** What the last content check found, as an open page shows it: how many problems, and its own messages (none when none is in it). */
export interface DevProblems {
  count: number
  messages: readonly string[]
}

/** The open page's route as the content check names it (canonical, without its query or #fragment). */
function routeOf(asPath: string): string {
  const path = asPath.split('#')[0]
  return normalisePath(path.split('?')[0]) ?? path
}

function useDevServerEventsNow(): DevProblems | null {
  const route = routeOf(useRouter().asPath)
  // Each event a new object: a check that fails again with the same count and pages asks for its messages again.
  const [problems, setProblems] = useState<{ data: string } | null>(null)
  const [view, setView] = useState<DevProblems | null>(null)
  useEffect(() => {
    const events = new EventSource(DEV_PROPS_EVENTS_PATH)
    // When the props shown were read: after this document's request began, or at the last refresh.
    let shown = performance.timeOrigin
    events.onmessage = ({ data }: MessageEvent<string>) => {
      // Without its #fragment: Next takes a move to the same path and fragment for a scroll, and fetches nothing.
      const path = Router.asPath.split('#')[0]
      // An event for other pages only is not this one's (its route read as the content check names
      // it, canonical): each open page fetches its own props alone.
      const written = refreshFor(data, routeOf(path), shown)
      if (written === null) return
      shown = written
      // A failed refresh reloads the page, so that Next shows its error for it; a refresh that the
      // reader's own move cancelled is not one.
      Router.replace(path, undefined, { scroll: false }).catch((error: { cancelled?: boolean }) => error?.cancelled || location.reload())
    }
    events.addEventListener(PROBLEMS_EVENT, (event) => setProblems({ data: (event as MessageEvent<string>).data }))
    return () => events.close()
  }, [])
  // Again after a move to another page: the problems are the same, the page is another.
  useEffect(() => {
    const found = problems === null ? { count: 0, here: false } : problemsFor(problems.data, route)
    if (!found.here) return setView(found.count ? { count: found.count, messages: [] } : null)
    let current = true
    fetch(`${DEV_PROPS_EVENTS_PATH}?${PROBLEMS_QUERY}=${routeToken(route)}`)
      .then((response) => (response.ok ? (response.json() as Promise<string[]>) : []))
      .catch(() => [])
      .then((messages) => current && setView({ count: found.count, messages }))
    return () => {
      current = false
    }
  }, [problems, route])
  return view
}

export const useDevServerEvents: () => DevProblems | null = process.env.NODE_ENV === 'development' ? useDevServerEventsNow : () => null
