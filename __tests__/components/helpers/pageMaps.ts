/**
 * Page maps shaped like the ones Nextra 3 builds for this site (pages/_meta.ts at the top,
 * content/docs/<section>/ folders with their own _meta), small enough to read.
 *
 * `rawPageMap()` is what Nextra collects from the file system; `shapedPageMap()` is what the site
 * hands the theme (lib/navigation/navigationTree.ts, all of it open), written out by hand.
 */
import { execFileSync } from 'node:child_process'
import type { PageMapItem } from 'nextra'
import type { RawItem } from '../../../lib/navigation/shapePageMap'
import { access } from '../../../lib/access'
import { type PageMapScope } from '../../../lib/navigation/scopePageMap'
import { inSection } from '../../../lib/access/sectionPaths'
import { SECTIONS } from '../../../lib/navigation/siteNavigation'
import { audienceTree } from '../../../lib/navigation/navigationTree'

export const TOP_META = {
  index: { title: 'Home', type: 'page', display: 'hidden', theme: { layout: 'full' } },
  leads: { title: 'Leads API', type: 'page' },
  internal: { title: 'Internal', type: 'page' },
  'support-twilio': { title: 'Twilio support', type: 'page' },
  docs: { title: 'Docs', type: 'page', display: 'hidden' },
  // A navbar link into a section, and one off the site (no page of its own).
  'quote-api': { title: 'Quote API', type: 'page', href: '/docs/leads/endpoints/create-quote' },
  status: { title: 'Status', type: 'page', href: 'https://status.example.com' },
}

export const LEADS_META = {
  intro: 'Introduction',
  environments: 'Environments',
  endpoints: 'Endpoints',
  // A sidebar link into another section, and a separator.
  'internal-deployments': { title: 'How we deploy', href: '/docs/internal/deployments-and-infrastructure' },
  '---': { type: 'separator', title: 'More' },
}
export const LEADS_ENDPOINTS_META = { 'create-quote': 'Create quote', 'get-quote-fees': 'Get quote fees' }
export const INTERNAL_META = { intro: 'Introduction', architecture: 'Architecture', guidelines: 'Guidelines' }
export const INTERNAL_ARCHITECTURE_META = { 'design-and-architecture': 'Design and architecture' }
export const SUPPORT_META = { intro: 'Introduction', diagram: 'Call flow diagram', 'sql-queries': 'SQL queries' }
export const SUPPORT_SQL_META = { overall: 'Overall', 'search-by-phone': 'Search by phone' }

const page = (route: string, title: string) => ({ name: route.split('/').pop() || 'index', route, frontMatter: { title } })
const indexPage = (route: string, title: string) => ({ name: 'index', route, frontMatter: { title } })

/** Nextra's page map of the site before shaping: sections under the docs folder, index pages inside folders. */
export function rawPageMap(): RawItem[] {
  return [
    { data: TOP_META },
    {
      name: 'docs',
      route: '/docs',
      children: [
        indexPage('/docs', 'Documentation'),
        {
          name: 'internal',
          route: '/docs/internal',
          children: [
            { data: INTERNAL_META },
            {
              name: 'architecture',
              route: '/docs/internal/architecture',
              children: [
                { data: INTERNAL_ARCHITECTURE_META },
                page('/docs/internal/architecture/design-and-architecture', 'Design and architecture'),
                indexPage('/docs/internal/architecture', 'Architecture overview'),
              ],
            },
            {
              name: 'guidelines',
              route: '/docs/internal/guidelines',
              children: [page('/docs/internal/guidelines/secrets-management', 'Secrets management')],
            },
            page('/docs/internal/intro', 'Internal introduction'),
          ],
        },
        {
          name: 'leads',
          route: '/docs/leads',
          children: [
            { data: LEADS_META },
            {
              name: 'endpoints',
              route: '/docs/leads/endpoints',
              children: [
                { data: LEADS_ENDPOINTS_META },
                page('/docs/leads/endpoints/create-quote', 'Create a quote'),
                page('/docs/leads/endpoints/get-quote-fees', 'Get quote fees'),
                indexPage('/docs/leads/endpoints', 'Endpoints overview'),
              ],
            },
            page('/docs/leads/environments', 'Environments'),
            page('/docs/leads/intro', 'Leads introduction'),
          ],
        },
        {
          name: 'support-twilio',
          route: '/docs/support-twilio',
          children: [
            { data: SUPPORT_META },
            page('/docs/support-twilio/diagram', 'Call flow diagram'),
            page('/docs/support-twilio/intro', 'Twilio support introduction'),
            {
              name: 'sql-queries',
              route: '/docs/support-twilio/sql-queries',
              children: [
                { data: SUPPORT_SQL_META },
                indexPage('/docs/support-twilio/sql-queries', 'SQL queries overview'),
                page('/docs/support-twilio/sql-queries/overall', 'Overall'),
                page('/docs/support-twilio/sql-queries/search-by-phone', 'Search by phone'),
              ],
            },
          ],
        },
      ],
    },
    indexPage('/', 'Home'),
  ]
}

/**
 * The same site after shaping: the section folders are top-level entries (routes unchanged),
 * and each folder's index page is a page just after its folder, named like the folder.
 */
export function shapedPageMap(): PageMapItem[] {
  return [
    { data: TOP_META },
    { name: 'docs', route: '/docs', frontMatter: { title: 'Documentation' } },
    { name: 'index', route: '/', frontMatter: { title: 'Home' } },
    {
      name: 'internal',
      route: '/docs/internal',
      children: [
        { data: INTERNAL_META },
        {
          name: 'architecture',
          route: '/docs/internal/architecture',
          children: [{ data: INTERNAL_ARCHITECTURE_META }, page('/docs/internal/architecture/design-and-architecture', 'Design and architecture')],
        },
        { name: 'architecture', route: '/docs/internal/architecture', frontMatter: { title: 'Architecture overview' } },
        {
          name: 'guidelines',
          route: '/docs/internal/guidelines',
          children: [page('/docs/internal/guidelines/secrets-management', 'Secrets management')],
        },
        page('/docs/internal/intro', 'Internal introduction'),
      ],
    },
    {
      name: 'leads',
      route: '/docs/leads',
      children: [
        { data: LEADS_META },
        {
          name: 'endpoints',
          route: '/docs/leads/endpoints',
          children: [
            { data: LEADS_ENDPOINTS_META },
            page('/docs/leads/endpoints/create-quote', 'Create a quote'),
            page('/docs/leads/endpoints/get-quote-fees', 'Get quote fees'),
          ],
        },
        { name: 'endpoints', route: '/docs/leads/endpoints', frontMatter: { title: 'Endpoints overview' } },
        page('/docs/leads/environments', 'Environments'),
        page('/docs/leads/intro', 'Leads introduction'),
      ],
    },
    {
      name: 'support-twilio',
      route: '/docs/support-twilio',
      children: [
        { data: SUPPORT_META },
        page('/docs/support-twilio/diagram', 'Call flow diagram'),
        page('/docs/support-twilio/intro', 'Twilio support introduction'),
        {
          name: 'sql-queries',
          route: '/docs/support-twilio/sql-queries',
          children: [
            { data: SUPPORT_SQL_META },
            page('/docs/support-twilio/sql-queries/overall', 'Overall'),
            page('/docs/support-twilio/sql-queries/search-by-phone', 'Search by phone'),
          ],
        },
        { name: 'sql-queries', route: '/docs/support-twilio/sql-queries', frontMatter: { title: 'SQL queries overview' } },
      ],
    },
  ]
}

/** Every page route in a page map (folders are not pages), in order. */
export function pageRoutes(items: readonly PageMapItem[] | readonly RawItem[]): string[] {
  return (items as readonly RawItem[]).flatMap((item) => {
    if ('children' in item) return pageRoutes(item.children)
    if ('route' in item) return [item.route]
    return []
  })
}

/** The `_meta` keys of the top level of `items`, and of the folder at `path` (folder names) if given. */
export function metaKeys(items: readonly PageMapItem[], ...path: string[]): string[] {
  let level: readonly PageMapItem[] = items
  for (const name of path) {
    const folder = level.find((item) => 'children' in item && item.name === name) as { children: PageMapItem[] } | undefined
    if (!folder) return []
    level = folder.children
  }
  const meta = level.find((item) => 'data' in item) as { data: Record<string, unknown> } | undefined
  return meta ? Object.keys(meta.data) : []
}

export const ALL_PAGE_ROUTES = {
  home: ['/'],
  docsRoot: ['/docs'],
  leads: ['/docs/leads/endpoints', '/docs/leads/endpoints/create-quote', '/docs/leads/endpoints/get-quote-fees', '/docs/leads/environments', '/docs/leads/intro'],
  internal: [
    '/docs/internal/architecture',
    '/docs/internal/architecture/design-and-architecture',
    '/docs/internal/guidelines/secrets-management',
    '/docs/internal/intro',
  ],
  supportTwilio: [
    '/docs/support-twilio/diagram',
    '/docs/support-twilio/intro',
    '/docs/support-twilio/sql-queries',
    '/docs/support-twilio/sql-queries/overall',
    '/docs/support-twilio/sql-queries/search-by-phone',
  ],
}

/** The audience of a section's own rule, as a page-map scope: its pages, governed by its entry page. */
export function sectionScope(id: string | null): PageMapScope | null {
  const section = SECTIONS.find((candidate) => candidate.id === id)
  return section ? { governedBy: section.href, sections: [{ id: section.id }] } : null
}

/**
 * The page map a page at `route` is built with (next.config.ts scopes each section's pages):
 * its own section and what every reader of the page may open, with the top-level `_meta` naming
 * no section, as pages/_meta.ts does.
 */
export function builtPageMap(route: string): PageMapItem[] {
  const topMeta = Object.fromEntries(Object.entries(TOP_META).filter(([key]) => !SECTIONS.some((section) => section.id === key)))
  // A section's pages are its audience; a page outside every section is its own rule's.
  const scope = sectionScope(SECTIONS.find((section) => inSection(route, section.id))?.id ?? null) ?? { governedBy: route, sections: [] }
  return audienceTree(rawPageMap(), scope, { sections: SECTIONS, topMeta, access }) as unknown as PageMapItem[]
}

/** Nextra's own normalizePages (an ES module only, so run by Node beside Jest) on `list`, as the theme calls it for `route`. */
export function normalizeWithNextra(list: RawItem[], route: string) {
  const script = `import { normalizePages } from 'nextra/normalize-pages'
const { list, route } = JSON.parse(process.argv[1])
const { docsDirectories, activePath, flatDocsDirectories } = normalizePages({ list, route })
const strip = (item) => ({ route: item.route, title: item.title, withIndexPage: item.withIndexPage, children: item.children?.map(strip) })
console.log(JSON.stringify({ docsDirectories: docsDirectories.map(strip), activePath: activePath.map((item) => item.route), flat: flatDocsDirectories.map((item) => item.route) }))`
  const output = execFileSync(process.execPath, ['--input-type=module', '-e', script, JSON.stringify({ list, route })], { encoding: 'utf8' })
  return JSON.parse(output) as { docsDirectories: Array<{ route: string; title: string; withIndexPage?: boolean; children?: Array<{ route: string }> }>; activePath: string[]; flat: string[] }
}

