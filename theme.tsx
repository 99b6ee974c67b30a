import 'nextra-theme-docs/style.css'
import DocsLayout, { SkipNavLink } from 'nextra-theme-docs'
import type { NextraThemeLayoutProps } from 'nextra'
import { useMemo } from 'react'
import { decide } from './lib/access'
import { useAuth } from './lib/auth/AuthContext'
import { filterPageMap } from './lib/navigation/filterPageMap'

/**
 * The docs theme, given only the part of the page map that the reader may open:
 * navbar tabs, sidebars, breadcrumbs and prev/next links all come from it.
 */
export default function Layout({ children, themeConfig, pageOpts, pageProps }: NextraThemeLayoutProps) {
  const { username, isAuthenticated } = useAuth()
  const pageMap = useMemo(
    () => filterPageMap(pageOpts.pageMap, isAuthenticated && username ? { username } : null, decide),
    [pageOpts.pageMap, isAuthenticated, username]
  )
  return (
    <>
      <SkipNavLink styled label="Skip to content" />
      <DocsLayout themeConfig={themeConfig} pageOpts={{ ...pageOpts, pageMap }} pageProps={pageProps}>
        {children}
      </DocsLayout>
    </>
  )
}
