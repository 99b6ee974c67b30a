import type { ReaderView } from '../access/readerView'

declare global {
  interface Window {
    /** Set by the route-manifest loader (pipeline/steps/routeManifests.ts): loads the manifests not loaded yet. */
    __docsLoadRoutes?: (urls: readonly string[]) => void
  }
}

/**
 * Loads the route manifests of a reader view that the page's first view did not name. The page
 * loaded them for the reader it first saw; a reader who signs in (or whose audiences grew) moves
 * on without a reload, and gets their routes and navigation fragments now. Each manifest is still
 * fetched as a file the edge decides; one already loaded is not fetched again.
 */
export function loadRouteManifests(view: Pick<ReaderView, 'routeManifests'>): void {
  if (typeof window === 'undefined' || !window.__docsLoadRoutes) return
  window.__docsLoadRoutes(view.routeManifests)
}
