/**
 * `npm run dev`: the open docs page fetches its props again when the dev server says the pages'
 * props were written again (after a content edit, or new access rules), as Next's own handler of
 * a "server-only change" does, so an edit shows in the open page with no module compiled (when the
 * event names the routes whose props changed, only those pages fetch theirs). The
 * route's getStaticProps runs on every request in dev and reads the props the content check wrote
 * (./docsPages.ts).
 *
 * It also hears what the content check found: a page that did not pass keeps its last props, so
 * the page says why (components/DevProblems.tsx), with the messages of its own file.
 *
 * Nothing of it is in a build: the condition is false when the bundle is made, so the minifier
 * drops the hook and the path.
 */
import Router from 'next/router'
import { useEffect, useState } from 'react'
import { normalisePath } from '../access/normalisePath'
import { DEV_PROPS_EVENTS_PATH, nameToken, PROBLEMS_EVENT, PROBLEMS_QUERY, problemsFor, refreshFor } from './devPropsEvents'

/** What the last content check found, as an open page shows it: how many problems, and its own file's messages (none when none is in it). */
export interface DevProblems {
  count: number
  messages: readonly string[]
}

function useDevServerEventsNow(filePath: string): DevProblems | null {
  const [problems, setProblems] = useState<string | null>(null)
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
      const written = refreshFor(data, normalisePath(path) ?? path, shown)
      if (written === null) return
      shown = written
      // A failed refresh reloads the page, so that Next shows its error for it; a refresh that the
      // reader's own move cancelled is not one.
      Router.replace(path, undefined, { scroll: false }).catch((error: { cancelled?: boolean }) => error?.cancelled || location.reload())
    }
    events.addEventListener(PROBLEMS_EVENT, (event) => setProblems((event as MessageEvent<string>).data))
    return () => events.close()
  }, [])
  // Again after a move to another page: the problems are the same, the file is another.
  useEffect(() => {
    const found = problems === null ? { count: 0, here: false } : problemsFor(problems, filePath)
    if (!found.here) return setView(found.count ? { count: found.count, messages: [] } : null)
    let current = true
    fetch(`${DEV_PROPS_EVENTS_PATH}?${PROBLEMS_QUERY}=${nameToken(filePath)}`)
      .then((response) => (response.ok ? (response.json() as Promise<string[]>) : []))
      .catch(() => [])
      .then((messages) => current && setView({ count: found.count, messages }))
    return () => {
      current = false
    }
  }, [problems, filePath])
  return view
}

export const useDevServerEvents: (filePath: string) => DevProblems | null = process.env.NODE_ENV === 'development' ? useDevServerEventsNow : () => null
