/**
 * A docs page carries its document's body once: rendered in its HTML, and as data in its data file
 * (`_next/data/<build>/<route>.json`), which Next's router fetches to move to the page. The HTML's
 * copy of the props (`__NEXT_DATA__`) leaves the body out (pages/_document.tsx), and the browser
 * takes it from the data file to hydrate the first page it opens (./firstPageBody.ts).
 *
 * No Node or browser imports: the document (on the server) and the route (in the browser) use it.
 */
import type { TreeNode } from './pageDocument'
import type { DocsPageProps } from './propsFiles'

/** Next's name of the one docs route (pages/[[...slug]].tsx). */
export const DOCS_PAGE = '/[[...slug]]'

/** The docs route's props as a page may hold them: the HTML's copy has no body. */
export type DocsRouteProps = Omit<DocsPageProps, 'doc'> & { doc: Omit<DocsPageProps['doc'], 'tree'> & { tree?: TreeNode[] } }

/** What the HTML's `__NEXT_DATA__` carries of a page's props: everything but the document's body. */
export function withoutBody(props: DocsPageProps): DocsRouteProps {
  const { tree: _body, ...doc } = props.doc
  return { ...props, doc }
}
