import type { DocsThemeConfig } from 'nextra-theme-docs'
import { layoutThemeConfig } from './components/layoutThemeConfig'
import { ScrollableTable } from './components/ScrollableTable'
import { SiteSearch } from './components/SiteSearch'
import { TableOfContents } from './components/TableOfContents'

/** Every page's layout (components/layoutThemeConfig.tsx), with the docs' search, table of contents and MDX components. */
const config: DocsThemeConfig = {
  ...layoutThemeConfig,
  // Wide tables scroll in a wrapper a keyboard can reach (components/ScrollableTable).
  components: { table: ScrollableTable },
  toc: { component: TableOfContents, float: true },
  search: { component: SiteSearch },
}

export default config
