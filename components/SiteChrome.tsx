import type { NextraThemeLayoutProps } from 'nextra'
import { useRouter } from 'next/router'
import type { ReactNode } from 'react'
import Layout from '../theme'

/** The page's own layout: full width, nothing of the docs around it (no sidebar, table of contents, breadcrumb or pagination). */
const STATUS_PAGE_THEME = { layout: 'full', sidebar: false, toc: false, breadcrumb: false, pagination: false, timestamp: false }

/**
 * The site's common layout (skip link, banner, navbar with colour mode, language, version and
 * search, footer) around a page that is not a docs page: sign-in, no access, not found. Its page
 * map holds only the page itself; the reader's section tabs are added once the authority has
 * named them, except where `sectionTabs` is false (the sign-in page).
 *
 * The page names its theme settings: theme.config.tsx, with the search box a signed-in reader
 * uses, or on the sign-in page the layout's alone (components/layoutThemeConfig.tsx), so that
 * page does not load the search's code.
 */
export function SiteChrome({ title, themeConfig, sectionTabs = true, children }: { title: string; themeConfig: NextraThemeLayoutProps['themeConfig']; sectionTabs?: boolean; children: ReactNode }) {
  const { pathname } = useRouter()
  const name = pathname.slice(1) || 'index'
  const pageOpts = {
    pageMap: [{ data: { [name]: { title, type: 'page', display: 'hidden', theme: STATUS_PAGE_THEME } } }, { name, route: pathname, frontMatter: { title } }],
    title,
    frontMatter: {},
    filePath: '',
  } as unknown as NextraThemeLayoutProps['pageOpts']
  return (
    <Layout themeConfig={themeConfig} pageOpts={pageOpts} pageProps={{}} sectionTabs={sectionTabs}>
      {children}
    </Layout>
  )
}
