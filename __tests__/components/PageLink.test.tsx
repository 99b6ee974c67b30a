import fs from 'node:fs'
import path from 'node:path'
import { fireEvent, screen } from '@testing-library/react'
import type { ReactElement } from 'react'
import { RouterContext } from 'next/dist/shared/lib/router-context.shared-runtime'
import type { NextRouter } from 'next/router'
import { PageLink } from '../../components/PageLink'
import NotFoundPage from '../../pages/404'
import UnauthorizedPage from '../../pages/unauthorized'
import { mockRouter, resetMockRouter } from './helpers/mockNextRouter'
import { LOADING, READERS, renderAs } from './helpers/readers'
import type { AuthState } from '../../lib/auth/AuthContext'

jest.mock('next/router', () => require('./helpers/mockNextRouter'))
jest.mock('nextra-theme-docs', () => require(require('./helpers/nextraThemeDocs').nextraThemeDocsBundle()), { virtual: true })
beforeAll(() => require('./helpers/browserApis').installBrowserApis())
jest.mock('aws-amplify/auth', () => ({
  signOut: jest.fn(() => Promise.resolve()),
  fetchAuthSession: jest.fn(() => Promise.reject(new Error('offline'))),
  getCurrentUser: jest.fn(() => Promise.reject(new Error('offline'))),
}))
jest.mock('aws-amplify', () => ({ Amplify: { configure: jest.fn(), getConfig: jest.fn(() => ({})) } }))

/** Renders as `auth` inside Next's router context, as the site does, so Next's links can prefetch. */
const renderWithRouter = (auth: AuthState, ui: ReactElement) => renderAs(auth, <RouterContext.Provider value={mockRouter as unknown as NextRouter}>{ui}</RouterContext.Provider>)

/** The paths Next was asked to prefetch after every link on the page was hovered and touched. */
function prefetchedOnHover(): string[] {
  for (const link of screen.getAllByRole('link')) {
    fireEvent.mouseEnter(link)
    fireEvent.touchStart(link)
  }
  return [...new Set(mockRouter.prefetch.mock.calls.map((call) => call[0] as string))].sort()
}

beforeEach(() => resetMockRouter({ pathname: '/404', asPath: '/404' }))

describe('PageLink: Next prefetches a page only for a reader who may open it', () => {
  test('a reader who may open the page: hovering prefetches it, and a click moves in place', () => {
    renderWithRouter(READERS.outsider, <PageLink href="/">Home</PageLink>)
    expect(prefetchedOnHover()).toEqual(['/'])
    expect(fireEvent.click(screen.getByRole('link', { name: 'Home' }))).toBe(false)
    expect(mockRouter.push).toHaveBeenCalledWith('/')
  })

  test('a click with a modifier is the browser\'s (a new tab), not the router\'s', () => {
    renderWithRouter(READERS.outsider, <PageLink href="/">Home</PageLink>)
    expect(fireEvent.click(screen.getByRole('link', { name: 'Home' }), { ctrlKey: true })).toBe(true)
    expect(mockRouter.push).not.toHaveBeenCalled()
  })

  test('the link is one element from the first render on: nothing in it is drawn again when the reader becomes known', () => {
    const { rerenderAs } = renderWithRouter(LOADING, <PageLink href="/"><img alt="logo" /></PageLink>)
    const before = screen.getByRole('img', { name: 'logo' })
    rerenderAs(READERS.outsider, <RouterContext.Provider value={mockRouter as unknown as NextRouter}><PageLink href="/"><img alt="logo" /></PageLink></RouterContext.Provider>)
    expect(screen.getByRole('img', { name: 'logo' })).toBe(before)
    expect(prefetchedOnHover()).toEqual(['/'])
  })

  test.each([
    ['a visitor who is not signed in, for the home page', READERS.anonymous, '/'],
    ['a reader, for a section of another list', READERS.leads1, '/docs/internal/intro?tab=1#top'],
    ['anyone, until the authority has named the reader', LOADING, '/'],
  ])('%s: a plain anchor that prefetches nothing', (_who, auth, href) => {
    renderWithRouter(auth, <PageLink href={href} className="home">Home</PageLink>)
    const link = screen.getByRole('link', { name: 'Home' })
    expect(link).toHaveAttribute('href', href)
    expect(link).toHaveClass('home')
    expect(prefetchedOnHover()).toEqual([])
    // Following it is the browser's own navigation, which the edge answers (sign in, no access).
    expect(fireEvent.click(link)).toBe(true)
    expect(mockRouter.push).not.toHaveBeenCalled()
  })
})

describe('the status pages prefetch nothing their visitor may not open, logo and footer included', () => {
  test('not found, to a visitor who is not signed in: nothing', () => {
    renderWithRouter(READERS.anonymous, <NotFoundPage />)
    expect(screen.getAllByRole('link').map((link) => link.getAttribute('href'))).toContain('/')
    expect(prefetchedOnHover()).toEqual([])
  })

  test('no access, to a visitor who is not signed in: only the sign-in page', () => {
    resetMockRouter({ pathname: '/unauthorized', asPath: '/unauthorized' })
    renderWithRouter(READERS.anonymous, <UnauthorizedPage />)
    expect(prefetchedOnHover()).toEqual(['/login'])
  })

  test('no access, to a signed-in reader: the home page and their own section, which they may open', () => {
    resetMockRouter({ pathname: '/unauthorized', asPath: '/unauthorized' })
    renderWithRouter(READERS.leads1, <UnauthorizedPage />)
    expect(prefetchedOnHover()).toEqual(['/', '/docs/leads/intro'])
  })
})

test("no component writes Next's link (PageLink moves and prefetches itself), so no link can prefetch a page its reader may not open", () => {
  const root = path.resolve(__dirname, '../..')
  const sources = ['components', 'pages', 'lib'].flatMap((dir) =>
    (fs.readdirSync(path.join(root, dir), { recursive: true }) as string[]).filter((file) => /\.tsx?$/.test(file)).map((file) => path.join(dir, file))
  )
  const users = [...sources, 'theme.tsx', 'theme.config.tsx'].filter((file) => /from ['"]next\/link['"]/.test(fs.readFileSync(path.join(root, file), 'utf8')))
  expect(users).toEqual([])
})
