/**
 * The props of the first docs page the browser opens. Its HTML's props name only its route
 * (./propsOnce.ts), so before the route hydrates, this module fetches the page's data file, which
 * the HTML's preload (pages/_document.tsx) has already asked for, and the route renders from it.
 * Later pages come with their props: Next's router moves to a page by fetching its data file.
 *
 * The wait is the module's own (an `await` at its top): Next's route loader waits for a route
 * module's exports, so the page hydrates once the props are here, all at once, as before.
 */
import { pageDataFile } from '../access/pageFiles'
import { DOCS_PAGE, hasProps, type DocsRouteProps } from './propsOnce'
import type { DocsPageProps } from './propsFiles'

/** The route was asked for a first page's props it does not have: a bug, not a reader's doing. */
export class FirstPagePropsError extends Error {
  constructor(route: string) {
    super(`docs route: the HTML of ${route} carries none of its props, and it is not the first page opened, whose props are fetched from its data file`)
    this.name = 'FirstPagePropsError'
  }
}

interface NextData {
  page: string
  buildId: string
  props: { pageProps: DocsRouteProps }
}

/** Fetches tries, then gives up: the data file is the page's own, which the edge just served. */
const TRIES = 2

async function loadFirstPageProps(): Promise<DocsPageProps | null> {
  if (typeof window === 'undefined') return null
  const data = (window as unknown as { __NEXT_DATA__?: NextData }).__NEXT_DATA__
  if (data?.page !== DOCS_PAGE || hasProps(data.props.pageProps)) return null
  const { route } = data.props.pageProps
  const file = (process.env.__NEXT_ROUTER_BASEPATH ?? '') + pageDataFile(data.buildId, route)
  for (let attempt = 1; attempt <= TRIES; attempt++) {
    try {
      const response = await fetch(file)
      if (response.ok) {
        const { pageProps } = (await response.json()) as { pageProps?: DocsPageProps }
        if (pageProps?.doc?.route === route && Array.isArray(pageProps.doc.tree)) return pageProps
      }
    } catch {
      // A network error: tried again below.
    }
  }
  // The page stays as its HTML drew it, readable and with working links (plain anchors), rather
  // than hydrating without its props, which would blank it.
  console.error(`docs route: could not load ${file}; the page stays static`)
  return new Promise(() => {})
}

const firstPage = await loadFirstPageProps()

/** The props of `route` when it is the first page opened (its HTML's props name only the route). */
export function firstPageProps(route: string): DocsPageProps {
  if (firstPage?.doc.route !== route) throw new FirstPagePropsError(route)
  return firstPage
}
