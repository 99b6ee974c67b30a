import type { DocsThemeConfig } from 'nextra-theme-docs'
import { ANNOUNCEMENT, bannerKey } from './components/AnnouncementBanner'
import { NavbarItems } from './components/NavbarItems'
import { SiteFooter } from './components/SiteFooter'
import { SiteLogo } from './components/SiteLogo'
import { TableOfContents } from './components/TableOfContents'

const config: DocsThemeConfig = {
  logo: <SiteLogo />,
  logoLink: '/',
  head: (
    <>
      <meta name="viewport" content="width=device-width, initial-scale=1.0" />
      <meta name="robots" content="noindex, nofollow" />
    </>
  ),
  banner: { key: bannerKey(ANNOUNCEMENT.id), content: ANNOUNCEMENT.text || undefined, dismissible: true },
  navbar: { extraContent: NavbarItems },
  darkMode: true,
  nextThemes: { defaultTheme: 'light', storageKey: 'theme' },
  toc: { component: TableOfContents, float: true },
  footer: { content: SiteFooter },
  search: { component: null },
  editLink: { component: null },
  feedback: { content: null },
  sidebar: { defaultMenuCollapseLevel: 1, toggleButton: true },
  docsRepositoryBase: '',
}

export default config
