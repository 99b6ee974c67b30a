import 'nextra-theme-docs/style.css'
import DocsLayout, { SkipNavLink } from 'nextra-theme-docs'
import type { NextraThemeLayoutProps } from 'nextra'
import { useRouter } from 'next/router'
import { useMemo } from 'react'
import { decide, readersMayOpen } from './lib/access'
import { useAuth } from './lib/auth/AuthContext'
import { filterPageMap } from './lib/navigation/filterPageMap'

/**
 * The docs theme, given only the part of the page map that the reader may open:
 * navbar tabs, sidebars, breadcrumbs and prev/next links all come from it.
 *
 * Until the reader is known (the static HTML, and the first render in the browser) the page shows
 * what every reader of the page may open, so the prerendered navigation matches the content the
 * edge served; tabs for the reader's other sections appear once the reader is known.
 */
export default function Layout({ children, themeConfig, pageOpts, pageProps }: NextraThemeLayoutProps) {
  const { pathname } = useRouter()
  const { username, isAuthenticated, loading } = useAuth()
  const pageMap = useMemo(() => {
    if (loading) return filterPageMap(pageOpts.pageMap, (path) => readersMayOpen(pathname, path))
    const user = isAuthenticated && username ? { username } : null
    return filterPageMap(pageOpts.pageMap, (path) => decide(path, user) === 'allow')
  }, [pageOpts.pageMap, pathname, loading, isAuthenticated, username])
  return (
    <>
      <SkipNavLink styled label="Skip to content" />
      <DocsLayout themeConfig={themeConfig} pageOpts={{ ...pageOpts, pageMap }} pageProps={pageProps}>
        {children}
      </DocsLayout>
    </>
  )
}
