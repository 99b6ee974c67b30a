/**
 * The app shell (pages/_app.tsx) keeps one PageErrorBoundary for the whole session, around
 * whichever page the router shows. A crash on one page must not stay on screen for the next.
 */
import { render, screen } from '@testing-library/react'
import type { AppProps } from 'next/app'
import App from '../../pages/_app'
import { resetMockRouter, updateMockRouter } from './helpers/mockNextRouter'

jest.mock('next/router', () => require('./helpers/mockNextRouter'))
jest.mock('aws-amplify/auth', () => ({
  signOut: jest.fn(),
  fetchAuthSession: jest.fn(() => Promise.reject(new Error('offline'))),
  getCurrentUser: jest.fn(() => Promise.reject(new Error('offline'))),
}))
// _app imports SITE_NAME from PageHead, which imports the theme (see helpers/nextraThemeDocs.ts).
jest.mock('nextra-theme-docs', () => require(require('./helpers/nextraThemeDocs').nextraThemeDocsBundle()), { virtual: true })
jest.mock('aws-amplify', () => ({ Amplify: { configure: jest.fn(), getConfig: jest.fn(() => ({})) } }))

let consoleError: jest.SpyInstance
beforeEach(() => {
  consoleError = jest.spyOn(console, 'error').mockImplementation(() => {})
})
afterEach(() => consoleError.mockRestore())

function CrashingPage(): JSX.Element {
  throw new Error('render failed', { cause: new Error('bad front matter') })
}
function OtherPage() {
  return <h1>Other page</h1>
}

// Public routes, so the guard shows the pages whoever reads them.
const appAt = (Component: AppProps['Component']) => <App Component={Component} pageProps={{}} router={{} as AppProps['router']} />

describe('the app shell after a page crash', () => {
  test('shows the crash screen for the crashed page', () => {
    resetMockRouter({ pathname: '/404', asPath: '/docs/broken' })
    render(appAt(CrashingPage))
    expect(screen.getByRole('heading', { name: 'This page crashed.' })).toBeInTheDocument()
    expect(screen.getByText(/bad front matter/)).toBeInTheDocument()
  })

  // The crash screen replaces the whole page, navbar included, so the way out is often the
  // browser's back button: the router then shows another page inside the same boundary.
  test('navigating to another page (e.g. browser back) shows that page, not the old crash', () => {
    resetMockRouter({ pathname: '/404', asPath: '/docs/broken' })
    const { rerender } = render(appAt(CrashingPage))
    expect(screen.getByRole('heading', { name: 'This page crashed.' })).toBeInTheDocument()
    updateMockRouter({ pathname: '/unauthorized', asPath: '/unauthorized' })
    rerender(appAt(OtherPage))
    expect(screen.queryByRole('heading', { name: 'This page crashed.' })).toBeNull()
    expect(screen.getByRole('heading', { name: 'Other page' })).toBeInTheDocument()
  })
})
