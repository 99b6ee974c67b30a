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
import type { ReactNode } from 'react'
import { PageBody, tocOf } from '../lib/render/renderTree'
import { DOCS_FALLBACK, docsPageProps, docsPaths, type DocsPageProps } from '../lib/render/docsPages'
import type { DocsRouteProps } from '../lib/render/bodyOnce'
import { firstPageBody } from '../lib/render/firstPageBody'
import { useDevPropsRefresh } from '../lib/render/useDevPropsRefresh'
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
 * Props with the document's body come from getStaticProps (the server's render) and from a page's
 * data file (a move in the browser); the first page's HTML carries none (lib/render/bodyOnce.ts).
 */
export default function DocsPage({ doc, pageMap, timestamp }: DocsRouteProps) {
  useDevPropsRefresh()
  const pageOpts = {
    filePath: doc.filePath,
    title: doc.title,
    frontMatter: doc.frontMatter,
    hasJsxInH1: doc.hasJsxInH1,
    pageMap,
    ...(timestamp === null ? {} : { timestamp }),
  } as unknown as NextraThemeLayoutProps['pageOpts']
  return (
    <Layout themeConfig={themeConfig} pageOpts={pageOpts} pageProps={{}}>
      <ContentWrapper toc={tocOf(doc)}>
        <PageBody tree={doc.tree ?? firstPageBody(doc.route)} />
      </ContentWrapper>
    </Layout>
  )
}
