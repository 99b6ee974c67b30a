import { READER_VIEW_PATH, type ReaderView } from '../access/readerView'

declare global {
  interface Window {
    /** Set by the first request for the reader's view; the route-manifest loader (postbuild) shares it. */
    __docsReaderView?: Promise<unknown>
  }
}

function checked(value: unknown): ReaderView {
  const view = value as ReaderView
  if (typeof view === 'object' && view !== null && Array.isArray(view.open) && Array.isArray(view.sections) && Array.isArray(view.publicPaths)) return view
  throw new Error(`${READER_VIEW_PATH} answered something that is not a reader view`)
}

/**
 * Asks the authority (the edge, or the local server) who the reader is and what they may open.
 * The page's first request is shared with the route-manifest loader; `fresh` asks again (after
 * sign-in or a token refresh).
 */
export function fetchReaderView(fresh = false): Promise<ReaderView> {
  const shared = !fresh && window.__docsReaderView
  const request = (async () => {
    if (shared) {
      try {
        return checked(await shared)
      } catch {
        // The shared request failed (offline for a moment): ask again.
      }
    }
    const response = await fetch(READER_VIEW_PATH, { credentials: 'same-origin', cache: 'no-store' })
    if (!response.ok) throw new Error(`${READER_VIEW_PATH} answered ${response.status}`)
    return checked(await response.json())
  })()
  window.__docsReaderView = request
  // A failed request is not kept, so the next caller asks again.
  request.catch(() => {
    if (window.__docsReaderView === request) window.__docsReaderView = undefined
  })
  return request
}
