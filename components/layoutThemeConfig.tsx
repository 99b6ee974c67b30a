import type { DocsThemeConfig } from 'nextra-theme-docs'
import { ANNOUNCEMENT, bannerKey } from './AnnouncementBanner'
import { NavbarItems } from './NavbarItems'
import { PageLink } from './PageLink'
import { PageHead } from './PageHead'
import { SiteFooter } from './SiteFooter'
import { SiteLogo } from './SiteLogo'

/**
 * The docs theme's settings for what every page's layout shows: logo, announcement, navbar items,
 * colours and footer. No search box, table of contents or MDX components: theme.config.tsx adds
 * those for the pages that show them. The sign-in page takes this alone (components/SiteChrome.tsx),
 * so its first load carries none of their code: its reader is signed out, with no search index to
 * search, and it has no MDX content.
 */
export const layoutThemeConfig: DocsThemeConfig = {
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
  nextThemes: { defaultTheme: 'light', storageKey: 'theme' },
  footer: { content: SiteFooter },
  // The theme's own search (Headless UI's combobox) is not bundled: patches/theme/headlessUi.tsx.
  search: { component: null },
  editLink: { component: null },
  feedback: { content: null },
  sidebar: { defaultMenuCollapseLevel: 1, toggleButton: true },
  docsRepositoryBase: '',
}
