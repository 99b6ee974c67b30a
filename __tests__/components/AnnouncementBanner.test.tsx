import { fireEvent, render, screen } from '@testing-library/react'
import type { DocsThemeConfig } from 'nextra-theme-docs'
import { ANNOUNCEMENT, bannerKey } from '../../components/AnnouncementBanner'
import { resetMockRouter } from './helpers/mockNextRouter'
import { installBrowserApis } from './helpers/browserApis'

jest.mock('next/router', () => require('./helpers/mockNextRouter'))
// The real theme, bundled to CommonJS for Jest (see helpers/nextraThemeDocs.ts).
jest.mock('nextra-theme-docs', () => require(require('./helpers/nextraThemeDocs').nextraThemeDocsBundle()), { virtual: true })
jest.mock('aws-amplify/auth', () => ({ signOut: jest.fn(), getCurrentUser: jest.fn(() => Promise.reject(new Error('offline'))) }))

// Loaded after the mocks are in place (theme.config imports the theme for PageHead).
const Layout = (require('nextra-theme-docs') as typeof import('nextra-theme-docs')).default
const themeConfig = (require('../../theme.config') as { default: DocsThemeConfig }).default

const BANNER_TEXT = ANNOUNCEMENT.text
const pageOpts = { pageMap: [], title: 'T', frontMatter: {}, filePath: 'x.mdx' }

function renderPage(config: DocsThemeConfig = themeConfig) {
  return render(
    <Layout themeConfig={config} pageOpts={pageOpts} pageProps={{}}>
      <p>Page body</p>
    </Layout>
  )
}

/**
 * React does not run inline scripts; a browser runs this one while parsing the page, before
 * the banner paints. Running its text here is what a fresh page load does.
 */
function runBannerHideScript(container: HTMLElement) {
  const script = Array.from(container.querySelectorAll('script')).find((s) => s.textContent?.includes('nextra-banner-hidden'))
  expect(script).toBeDefined()
  new Function(script!.textContent as string)()
}

/** A new page load: the body class from the previous page is gone, the storage stays. */
function newPageLoad() {
  document.body.className = ''
}

const bannerHidden = () => document.body.classList.contains('nextra-banner-hidden')

beforeAll(() => installBrowserApis())
beforeEach(() => {
  resetMockRouter({ pathname: '/', asPath: '/' })
  localStorage.clear()
  newPageLoad()
})

describe('announcement bar: dismissible, stays dismissed until its id changes', () => {
  test('theme.config gives Nextra the announcement, dismissible, keyed by its id', () => {
    expect(themeConfig.banner).toEqual({ key: `announcement-${ANNOUNCEMENT.id}`, content: ANNOUNCEMENT.text, dismissible: true })
    expect(bannerKey(ANNOUNCEMENT.id)).toBe(`announcement-${ANNOUNCEMENT.id}`)
  })

  test('a different id gives a different key', () => {
    expect(bannerKey('2026-01-new-search')).not.toBe(bannerKey(ANNOUNCEMENT.id))
  })

  test('an empty text shows no announcement', () => {
    jest.isolateModules(() => {
      jest.doMock('../../components/AnnouncementBanner', () => ({
        ...jest.requireActual('../../components/AnnouncementBanner'),
        ANNOUNCEMENT: { id: 'none', text: '' },
      }))
      const config = (require('../../theme.config') as { default: DocsThemeConfig }).default
      expect(config.banner?.content).toBeUndefined()
    })
    jest.dontMock('../../components/AnnouncementBanner')
  })
})

describe('announcement bar in the real Nextra docs layout', () => {
  test('shows the announcement text and a dismiss button', () => {
    renderPage()
    expect(screen.getByText(BANNER_TEXT)).toBeInTheDocument()
    expect(screen.getByRole('button', { name: 'Dismiss banner' })).toBeInTheDocument()
    expect(screen.getByText('Page body')).toBeInTheDocument()
  })

  test('on a first visit the hide script leaves the banner shown', () => {
    const { container } = renderPage()
    runBannerHideScript(container)
    expect(bannerHidden()).toBe(false)
  })

  test('dismissing hides it now and on every later page load', () => {
    const first = renderPage()
    fireEvent.click(screen.getByRole('button', { name: 'Dismiss banner' }))
    expect(bannerHidden()).toBe(true)
    expect(localStorage.getItem(bannerKey(ANNOUNCEMENT.id))).toBe('0')
    first.unmount()

    newPageLoad()
    const { container } = renderPage()
    expect(bannerHidden()).toBe(false)
    runBannerHideScript(container)
    expect(bannerHidden()).toBe(true)
  })

  test("a stored '0' under the announcement's key hides it on load", () => {
    localStorage.setItem(`announcement-${ANNOUNCEMENT.id}`, '0')
    const { container } = renderPage()
    runBannerHideScript(container)
    expect(bannerHidden()).toBe(true)
  })

  test('a new announcement id brings the banner back for a reader who dismissed the old one', () => {
    localStorage.setItem(bannerKey(ANNOUNCEMENT.id), '0')
    const next = { id: '2026-01-new-search', text: 'Search is back.' }
    const { container } = renderPage({ ...themeConfig, banner: { ...themeConfig.banner, key: bannerKey(next.id), content: next.text } })
    runBannerHideScript(container)
    expect(bannerHidden()).toBe(false)
    expect(screen.getByText('Search is back.')).toBeInTheDocument()
  })
})
