/**
 * Whether a refused request is a navigation: the browser loading a document into a tab or a
 * frame. Only a navigation is redirected to the sign-in or no-access page, because only there is
 * a page what the reader will see. Anything else (a script, a style sheet, an image, Next's data
 * file, a search file, a fetch) gets a bare status: a redirect would hand it the HTML of the
 * sign-in page where it expected its own kind of file, and the browser would refuse the page as a
 * script ("MIME type ('text/html') is not executable").
 */
import { isPageKey } from './accessLog'

/**
 * The request's Fetch Metadata headers (`Sec-Fetch-Mode`, `Sec-Fetch-Dest`), as sent; a header
 * left out or null was not sent. CloudFront hands a viewer-request function the viewer's headers,
 * these included (it withholds only hop-by-hop and its own), and the local server reads them from
 * the request, so both adapters decide alike.
 */
export interface FetchMetadata {
  mode?: string | null
  dest?: string | null
}

/** The destinations of a navigation request (the Fetch standard's list): a document, or a document in a frame or an embed. */
const NAVIGATION_DESTINATIONS: ReadonlySet<string> = new Set(['document', 'iframe', 'frame', 'embed', 'object'])

/**
 * Browsers that send Fetch Metadata say what the request is for: `Sec-Fetch-Mode: navigate` is a
 * navigation and any other mode is not; `Sec-Fetch-Dest` decides when the mode is missing.
 *
 * Without either (older browsers such as Safari before 16.4, curl, scripts), the file decides: a
 * page (a path without an extension, or `.html`) is a navigation, since nothing of the site asks
 * for a page's HTML but the browser opening it (Next's router fetches a page's data file, never its
 * HTML), while a build file, an image, a data or search file is not. The cost of guessing wrong is
 * small either way: such a browser following a link to a refused image or `.md` file is shown a
 * one-line refusal instead of the sign-in page.
 */
export function isNavigation(fetchMetadata: FetchMetadata | undefined, objectKey: string): boolean {
  const mode = fetchMetadata?.mode?.trim().toLowerCase()
  if (mode) return mode === 'navigate'
  const dest = fetchMetadata?.dest?.trim().toLowerCase()
  if (dest) return NAVIGATION_DESTINATIONS.has(dest)
  return isPageKey(objectKey)
}
