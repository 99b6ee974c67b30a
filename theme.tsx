import 'nextra-theme-docs/style.css'
import DocsLayout, { SkipNavLink } from 'nextra-theme-docs'
import type { NextraThemeLayoutProps } from 'nextra'
import { useEffect, useMemo, useState } from 'react'
import { MobileMenuKeys } from './components/MobileMenuKeys'
import { decideForView } from './lib/access/readerView'
import { useAuth } from './lib/auth/AuthContext'
import { filterPageMap } from './lib/navigation/filterPageMap'
import { arrivedPageMaps, mergePageMaps, PAGE_MAP_EVENT, type PageMapFragment } from './lib/navigation/mergePageMaps'
import { withSectionTabs } from './lib/navigation/scopePageMap'

/** The page-map fragments of the reader's audiences, as their route manifests arrive. */
function usePageMapFragments(): PageMapFragment[] {
  const [fragments, setFragments] = useState<PageMapFragment[]>(arrivedPageMaps)
  useEffect(() => {
    const update = () => setFragments(arrivedPageMaps())
    update()
    window.addEventListener(PAGE_MAP_EVENT, update)
    return () => window.removeEventListener(PAGE_MAP_EVENT, update)
  }, [])
  return fragments
}

/**
 * The docs theme, given only the part of the page map that the reader may open:
 * navbar tabs, sidebars, breadcrumbs and prev/next links all come from it.
 *
 * Until the reader is known (the static HTML, and the first render in the browser) the page shows
 * its page map as built: what every reader of the page may open (pipeline/pageMaps.ts), so
 * the prerendered navigation matches the content the edge served. Once the authority has said
 * who the reader is, tabs for the reader's other sections appear, and the pages of every audience
 * the reader holds join the navigation as their fragments arrive (lib/navigation/mergePageMaps).
 */
export default function Layout({ children, themeConfig, pageOpts, pageProps, sectionTabs = true }: NextraThemeLayoutProps & {
  /** False on the sign-in page, whoever is on it (components/SiteChrome): a prop of the site's own code, not a page's front matter, which is the writer's. */
  sectionTabs?: boolean
}) {
  const { view } = useAuth()
  const fragments = usePageMapFragments()
  const pageMap = useMemo(() => {
    if (!view) return pageOpts.pageMap
    const withTabs = sectionTabs ? withSectionTabs(mergePageMaps(pageOpts.pageMap, fragments), view.sections) : pageOpts.pageMap
    return filterPageMap(withTabs, (path) => decideForView(view, path) === 'allow')
  }, [pageOpts.pageMap, view, sectionTabs, fragments])
  return (
    <>
      <SkipNavLink styled label="Skip to content" />
      <DocsLayout themeConfig={themeConfig} pageOpts={{ ...pageOpts, pageMap }} pageProps={pageProps}>
        {/* Inside the theme's menu state, which only its layout provides. */}
        <MobileMenuKeys />
        {children}
      </DocsLayout>
    </>
  )
}
