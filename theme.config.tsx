import type { DocsThemeConfig } from 'nextra-theme-docs'
import { ANNOUNCEMENT, bannerKey } from './components/AnnouncementBanner'
import { NavbarItems } from './components/NavbarItems'
import { PageLink } from './components/PageLink'
import { PageHead } from './components/PageHead'
import { SiteFooter } from './components/SiteFooter'
import { SiteLogo } from './components/SiteLogo'
import { SiteSearch } from './components/SiteSearch'
import { TableOfContents } from './components/TableOfContents'

const config: DocsThemeConfig = {
  // The theme's own logo link is Next's link, which prefetches the home page even for a visitor
  // who may not open it (on the sign-in page); ours follows the reader (components/PageLink).
  logo: (
    <PageLink href="/" className="nextra-focus _flex _items-center hover:_opacity-75">
      <SiteLogo />
    </PageLink>
  ),
  logoLink: false,
  head: PageHead,
  banner: { key: bannerKey(ANNOUNCEMENT.id), content: ANNOUNCEMENT.text || undefined, dismissible: true },
  navbar: { extraContent: NavbarItems },
  darkMode: true,
  nextThemes: { defaultTheme: 'light', storageKey: 'theme' },
  toc: { component: TableOfContents, float: true },
  footer: { content: SiteFooter },
  search: { component: SiteSearch },
  editLink: { component: null },
  feedback: { content: null },
  sidebar: { defaultMenuCollapseLevel: 1, toggleButton: true },
  docsRepositoryBase: '',
}

export default config
