import type { DocsThemeConfig } from 'nextra-theme-docs'
import { ANNOUNCEMENT, bannerKey } from './components/AnnouncementBanner'
import { NavbarItems } from './components/NavbarItems'
import { PageLink } from './components/PageLink'
import { PageHead } from './components/PageHead'
import { ScrollableTable } from './components/ScrollableTable'
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
  // The theme's blue, one step darker in light mode: its default (45 %) is 4.49:1 on a table's
  // grey rows, under WCAG's 4.5:1 for text. Dark mode's 55 % already passes on the dark page.
  color: { hue: { dark: 204, light: 212 }, saturation: 100, lightness: { dark: 55, light: 41 } },
  // Wide tables scroll in a wrapper a keyboard can reach (components/ScrollableTable).
  components: { table: ScrollableTable },
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
