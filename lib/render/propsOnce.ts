/**
 * A docs page carries its props once: its HTML has the page rendered, and its data file
 * (`_next/data/<build>/<route>.json`), which Next's router fetches to move to the page, has the
 * props it was rendered from (document, page map, date). The HTML's copy of the props
 * (`__NEXT_DATA__`) names only the route (pages/_document.tsx), and the browser takes the props
 * from the data file to hydrate the first page it opens (./firstPageProps.ts).
 *
 * Props in the HTML as well would be the same bytes twice: the first page fetches the data file
 * anyway, for its body.
 *
 * No Node or browser imports: the document (on the server) and the route (in the browser) use it.
 */
import type { DocsPageProps } from './propsFiles'

/** Next's name of the one docs route (pages/[[...slug]].tsx). */
export const DOCS_PAGE = '/[[...slug]]'

/** What the HTML's `__NEXT_DATA__` carries of a page's props: the route whose data file has them. */
export interface FirstPageProps {
  route: string
}

/** The docs route's props as a page may hold them: all of them (from getStaticProps or a data file), or the HTML's copy. */
export type DocsRouteProps = DocsPageProps | FirstPageProps

export const htmlProps = (props: DocsPageProps): FirstPageProps => ({ route: props.doc.route })

export const hasProps = (props: DocsRouteProps): props is DocsPageProps => 'doc' in props
