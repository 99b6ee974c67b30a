import '../styles/site.css'
import type { AppProps } from 'next/app'
import Head from 'next/head'
import { ImageZoom } from '../components/ImageZoom'
import { SITE_NAME } from '../components/PageHead'
import { NavbarAutoHide } from '../components/NavbarAutoHide'
import { PageErrorBoundary } from '../components/PageErrorBoundary'
import { RouteGuard } from '../components/RouteGuard'
import { RouteProgress } from '../components/RouteProgress'
import { SignInServiceNotice } from '../components/SignInServiceNotice'
import { AuthProvider } from '../lib/auth/AuthContext'
import { usePagePath } from '../lib/navigation/pagePath'
import { skipPrefetchWhenSavingData } from '../lib/navigation/dataSaver'
import { SIGN_IN_PAGE } from '../lib/pathFormats'

if (typeof window !== 'undefined') skipPrefetchWhenSavingData()

// Each MDX page wraps itself in the docs layout, so the providers here keep it.
export default function App({ Component, pageProps }: AppProps) {
  // Keyed by page, so a crash on one page does not follow the reader to the next one.
  const pathname = usePagePath()
  return (
    <AuthProvider>
      <Head>
        {/* For pages that set no title of their own. */}
        <title>{SITE_NAME}</title>
      </Head>
      <RouteProgress />
      <ImageZoom />
      <NavbarAutoHide />
      {/* The sign-in page shows it in place of its form. */}
      {pathname !== SIGN_IN_PAGE && <SignInServiceNotice variant="banner" />}
      <PageErrorBoundary key={pathname}>
        <RouteGuard>
          <Component {...pageProps} />
        </RouteGuard>
      </PageErrorBoundary>
    </AuthProvider>
  )
}
