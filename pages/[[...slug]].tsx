/**
 * Every MDX page of the site (the home page and everything under /docs), through one route: the
 * bundler sees this one entry whatever the number of pages, and each page is data (its compiled
 * document, lib/render/pageDocument.ts) rendered through a fixed map of components, never code
 * evaluated in the browser.
 *
 * The layout is the docs theme's, given what Nextra's own page wrapper gives an MDX page: the
 * page's options (title, front matter, page map, file, date) and its table of contents.
 */
import type { GetStaticPaths, GetStaticProps } from 'next'
import type { NextraThemeLayoutProps } from 'nextra'
import { useMDXComponents } from 'nextra/mdx'
import { useConfig } from 'nextra-theme-docs'
import { useMemo, type ReactNode } from 'react'
import { DevProblems } from '../components/DevProblems'
import { PageBody, tocOf } from '../lib/render/renderTree'
import { DOCS_FALLBACK, docsPageProps, docsPaths, type DocsPageProps } from '../lib/render/docsPages'
import { unpackPageMap } from '../lib/navigation/packedPageMap'
import { unpackDocument } from '../lib/render/packedDocument'
import { hasProps, type DocsRouteProps } from '../lib/render/propsOnce'
import { firstPageProps } from '../lib/render/firstPageProps'
import { useDevServerEvents } from '../lib/render/useDevServerEvents'
import { useUnprefixedHash } from '../lib/render/useUnprefixedHash'
import Layout from '../theme'
import themeConfig from '../theme.config'

export const getStaticPaths: GetStaticPaths = async () => ({ paths: docsPaths(), fallback: DOCS_FALLBACK })

export const getStaticProps: GetStaticProps<DocsPageProps, { slug?: string[] }> = async ({ params }) => {
  const props = docsPageProps(params?.slug)
  return props ? { props } : { notFound: true }
}

/** Nextra's page wrapper: the theme's `wrapper` component lays out sidebar, table of contents and body. */
function ContentWrapper({ toc, children }: { toc: ReturnType<typeof tocOf>; children: ReactNode }) {
  const { wrapper: Wrapper } = useMDXComponents() as { wrapper?: (props: { toc: unknown; children: ReactNode }) => ReactNode }
  return Wrapper ? <Wrapper toc={toc}>{children}</Wrapper> : <>{children}</>
}

/**
 * The theme draws a docs page's body in a <main>, but a full-width page's (the home page) in an
 * <article> only, so a screen reader would find no main landmark there: that page gets its own.
 */
function PageMain({ children }: { children: ReactNode }) {
  const { normalizePagesResult } = useConfig()
  return normalizePagesResult.activeThemeContext.layout === 'full' ? <main>{children}</main> : <>{children}</>
}

/**
 * The props come from getStaticProps (the server's render) and from a page's data file (a move in
 * the browser); the first page's HTML names only its route (lib/render/propsOnce.ts).
 */
export default function DocsPage(props: DocsRouteProps) {
  // A link to a heading without the ids' prefix (#intro) reaches it (user-content-intro).
  useUnprefixedHash()
  const { doc: packedDoc, pageMap: packedMap, timestamp } = hasProps(props) ? props : firstPageProps(props.route)
  const doc = useMemo(() => unpackDocument(packedDoc), [packedDoc])
  const devProblems = useDevServerEvents()
  const pageMap = useMemo(() => unpackPageMap(packedMap), [packedMap])
  const pageOpts = {
    filePath: doc.filePath,
    title: doc.title,
    frontMatter: doc.frontMatter,
    hasJsxInH1: doc.hasJsxInH1,
    pageMap,
    ...(timestamp === null ? {} : { timestamp }),
  } as unknown as NextraThemeLayoutProps['pageOpts']
  return (
    <>
      <Layout themeConfig={themeConfig} pageOpts={pageOpts} pageProps={{}}>
        <ContentWrapper toc={tocOf(doc)}>
          <PageMain>
            <div className="page-body">
              <PageBody tree={doc.tree} />
            </div>
          </PageMain>
        </ContentWrapper>
      </Layout>
      <DevProblems problems={devProblems} />
    </>
  )
}
