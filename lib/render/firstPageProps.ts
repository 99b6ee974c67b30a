/**
 * The body of the first docs page the browser opens. Its HTML's props leave the body out
 * (./bodyOnce.ts), so before the route hydrates, this module fetches the page's data file, which
 * the HTML's preload (pages/_document.tsx) has already asked for, and the route renders the body
 * from it. Later pages
 * come with their body: Next's router moves to a page by fetching its data file.
 *
 * The wait is the module's own (an `await` at its top): Next's route loader waits for a route
 * module's exports, so the page hydrates once the body is here, all at once, as before.
 */
import { pageDataFile } from '../access/pageFiles'
import { DOCS_PAGE, type DocsRouteProps } from './bodyOnce'
import type { TreeNode } from './pageDocument'
import type { DocsPageProps } from './propsFiles'

/** The route was asked for a first page's body it does not have: a bug, not a reader's doing. */
export class FirstPageBodyError extends Error {
  constructor(route: string) {
    super(`docs route: the props of ${route} have no body, and it is not the first page opened, whose body is fetched from its data file`)
    this.name = 'FirstPageBodyError'
  }
}

interface NextData {
  page: string
  buildId: string
  props: { pageProps: DocsRouteProps }
}

/** Fetches tries, then gives up: the data file is the page's own, which the edge just served. */
const TRIES = 2

async function loadFirstPageBody(): Promise<{ route: string; tree: TreeNode[] } | null> {
  if (typeof window === 'undefined') return null
  const data = (window as unknown as { __NEXT_DATA__?: NextData }).__NEXT_DATA__
  if (data?.page !== DOCS_PAGE || data.props.pageProps.doc.tree) return null
  const { route } = data.props.pageProps.doc
  const file = (process.env.__NEXT_ROUTER_BASEPATH ?? '') + pageDataFile(data.buildId, route)
  for (let attempt = 1; attempt <= TRIES; attempt++) {
    try {
      const response = await fetch(file)
      if (response.ok) {
        const { pageProps } = (await response.json()) as { pageProps?: DocsPageProps }
        if (pageProps?.doc.route === route && Array.isArray(pageProps.doc.tree)) return { route, tree: pageProps.doc.tree }
      }
    } catch {
      // A network error: tried again below.
    }
  }
  // The page stays as its HTML drew it, readable and with working links (plain anchors), rather
  // than hydrating without its body, which would blank it.
  console.error(`docs route: could not load ${file}; the page stays static`)
  return new Promise(() => {})
}

const firstPage = await loadFirstPageBody()

/** The body of `route` when it is the first page opened (its HTML's props have none). */
export function firstPageBody(route: string): TreeNode[] {
  if (firstPage?.route !== route) throw new FirstPageBodyError(route)
  return firstPage.tree
}
