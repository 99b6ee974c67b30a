import type { DocsThemeConfig } from 'nextra-theme-docs'
import { ANNOUNCEMENT, bannerKey } from './components/AnnouncementBanner'
import { NavbarItems } from './components/NavbarItems'
import { PageHead } from './components/PageHead'
import { SiteFooter } from './components/SiteFooter'
import { SiteLogo } from './components/SiteLogo'
import { SiteSearch } from './components/SiteSearch'
import { TableOfContents } from './components/TableOfContents'

const config: DocsThemeConfig = {
  logo: <SiteLogo />,
  logoLink: '/',
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
