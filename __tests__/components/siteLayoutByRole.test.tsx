/**
 * The site's docs layout (theme.tsx) around the real Nextra theme: every navbar tab, sidebar
 * entry, pagination and footer link comes from the page map filtered for the reader.
 */
import { screen, within } from '@testing-library/react'
import type { Heading, NextraThemeLayoutProps } from 'nextra'
import type { ReactNode } from 'react'
import { access, decide, readersOfMayOpen } from '../../lib/access'
import { resetMockRouter } from './helpers/mockNextRouter'
import { installBrowserApis } from './helpers/browserApis'
import { builtPageMap } from './helpers/pageMaps'
import { LOADING, READERS, docsHrefs, renderAs, type ReaderName } from './helpers/readers'

jest.mock('next/router', () => require('./helpers/mockNextRouter'))
// The real theme, bundled to CommonJS for Jest (see helpers/nextraThemeDocs.ts).
jest.mock('nextra-theme-docs', () => require(require('./helpers/nextraThemeDocs').nextraThemeDocsBundle()), { virtual: true })
jest.mock('aws-amplify/auth', () => ({ signOut: jest.fn(), getCurrentUser: jest.fn(() => Promise.reject(new Error('offline'))) }))

type Theme = typeof import('nextra-theme-docs')
const { getComponents } = require('nextra-theme-docs') as Theme
const SiteLayout = (require('../../theme') as { default: (props: NextraThemeLayoutProps) => JSX.Element }).default
const themeConfig = (require('../../theme.config') as { default: NextraThemeLayoutProps['themeConfig'] }).default
// What an MDX page renders inside the layout: the theme's wrapper (sidebar, TOC, pagination).
const PageWrapper = getComponents({ isRawLayout: false, components: {} }).wrapper as (props: { toc: Heading[]; children: ReactNode }) => JSX.Element

const TOC: Heading[] = [
  { depth: 2, value: 'Authentication', id: 'authentication' },
  { depth: 4, value: 'Token lifetime', id: 'token-lifetime' },
]

function renderDocsPage(reader: ReaderName | 'loading', route: string, frontMatter: Record<string, unknown> = {}) {
  resetMockRouter({ pathname: route, asPath: route })
  return renderAs(
    reader === 'loading' ? LOADING : READERS[reader],
    <SiteLayout themeConfig={themeConfig} pageOpts={{ pageMap: builtPageMap(route), title: 'Page', frontMatter, filePath: `pages${route}.mdx` }} pageProps={{}}>
      <PageWrapper toc={TOC}>
        <p>Page body</p>
      </PageWrapper>
    </SiteLayout>
  )
}

/** The navbar's tab links (not the logo, not the dropdowns), as [text, href]. */
function navbarTabs(container: HTMLElement): Array<[string, string | null]> {
  const navbar = container.querySelector('.nextra-nav-container nav') as HTMLElement
  return within(navbar)
    .getAllByRole('link')
    // The home link, and the user menu's link to the reader's AI tools, are not tabs.
    .filter((link) => link.getAttribute('href') !== '/' && !link.closest('.user-menu'))
    .map((link) => [link.textContent ?? '', link.getAttribute('href')])
}

const LEADS_TAB: [string, string] = ['Leads API', '/docs/leads/intro']
const INTERNAL_TAB: [string, string] = ['Internal', '/docs/internal/intro']
const SUPPORT_TAB: [string, string] = ['Twilio support', '/docs/support-twilio/intro']
const QUOTE_LINK: [string, string] = ['Quote API', '/docs/leads/endpoints/create-quote']
const STATUS_LINK: [string, string] = ['Status', 'https://status.example.com']

const cases: Array<[ReaderName, string, Array<[string, string]>]> = [
  ['admin', '/docs/leads/intro', [LEADS_TAB, INTERNAL_TAB, SUPPORT_TAB, QUOTE_LINK, STATUS_LINK]],
  ['leads1', '/docs/leads/intro', [LEADS_TAB, QUOTE_LINK, STATUS_LINK]],
  ['internal1', '/docs/internal/intro', [INTERNAL_TAB, STATUS_LINK]],
  ['support1', '/docs/support-twilio/intro', [SUPPORT_TAB, STATUS_LINK]],
  ['outsider', '/', [STATUS_LINK]],
]

beforeAll(() => installBrowserApis())

describe.each(cases)('the docs layout as %s on %s', (reader, route, tabs) => {
  test('the navbar has a tab only for each section the reader may open', () => {
    const { container } = renderDocsPage(reader, route)
    expect(navbarTabs(container)).toEqual(tabs)
  })

  test('no link anywhere on the page (navbar, sidebar, pagination, footer) leads to a page the reader may not open', () => {
    renderDocsPage(reader, route)
    const hrefs = docsHrefs()
    for (const href of hrefs) expect([href, decide(href, { username: reader })]).toEqual([href, 'allow'])
    const forbiddenTitles = [
      ['Internal', '/docs/internal/intro'],
      ['Twilio support', '/docs/support-twilio/intro'],
      ['Leads API', '/docs/leads/intro'],
    ].filter(([, href]) => decide(href, { username: reader }) !== 'allow')
    for (const [title] of forbiddenTitles) expect(screen.queryByText(title)).toBeNull()
  })
})

test("a page's front matter is the writer's: no key of it (the sign-in page's sectionTabs: false) takes the reader's section tabs away", () => {
  const { container } = renderDocsPage('admin', '/docs/leads/intro', { title: 'Page', sectionTabs: false })
  expect(navbarTabs(container)).toEqual([LEADS_TAB, INTERNAL_TAB, SUPPORT_TAB, QUOTE_LINK, STATUS_LINK])
})

describe('the docs layout before the reader is known (the prerendered HTML)', () => {
  test.each<[string, Array<[string, string]>]>([
    ['/docs/leads/intro', [LEADS_TAB, QUOTE_LINK, STATUS_LINK]],
    ['/docs/internal/intro', [INTERNAL_TAB, STATUS_LINK]],
    ['/', [STATUS_LINK]],
  ])('on %s the navbar has only what every reader of the page may open', (route, tabs) => {
    const { container } = renderDocsPage('loading', route)
    expect(navbarTabs(container)).toEqual(tabs)
    for (const href of docsHrefs()) expect([href, readersOfMayOpen(access, route, href)]).toEqual([href, true])
  })

  test("a leads page shows its own sidebar and body, without the sidebar's link into the internal section", () => {
    renderDocsPage('loading', '/docs/leads/intro')
    expect(screen.getByText('Page body')).toBeInTheDocument()
    for (const href of ['/docs/leads/environments', '/docs/leads/endpoints']) expect(docsHrefs()).toContain(href)
    expect(screen.queryByText('How we deploy')).toBeNull()
  })
})

describe('the docs layout inside a section', () => {
  test("a leads reader's sidebar lists the leads pages and not the link into the internal section", () => {
    renderDocsPage('leads1', '/docs/leads/intro')
    const hrefs = new Set(docsHrefs())
    for (const href of ['/docs/leads/intro', '/docs/leads/environments', '/docs/leads/endpoints']) expect(hrefs).toContain(href)
    expect(screen.queryByText('How we deploy')).toBeNull()
  })

  test("a leads page's sidebar has no link into the internal section, even for a full-access reader (its chunk names only what every leads reader may open)", () => {
    renderDocsPage('admin', '/docs/leads/intro')
    expect(screen.getAllByRole('link', { name: 'Internal' })[0]).toHaveAttribute('href', '/docs/internal/intro')
    expect(screen.queryByRole('link', { name: 'How we deploy' })).toBeNull()
  })

  test("the page's table of contents is the site's (levels 2 to 3 only)", () => {
    renderDocsPage('leads1', '/docs/leads/intro')
    expect(screen.getByRole('link', { name: 'Authentication' })).toHaveAttribute('href', '#authentication')
    expect(screen.queryByText('Token lifetime')).toBeNull()
  })

  test('the page itself and the footer are rendered', () => {
    renderDocsPage('support1', '/docs/support-twilio/intro')
    expect(screen.getByText('Page body')).toBeInTheDocument()
    expect(screen.getByText(/Copyright © 2025 Platform Docs/)).toBeInTheDocument()
    expect(screen.getByText('support1')).toBeInTheDocument()
  })
})
