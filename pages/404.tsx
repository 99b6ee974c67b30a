import Head from 'next/head'
import { SiteChrome } from '../components/SiteChrome'
import themeConfig from '../theme.config'
import { PageLink } from '../components/PageLink'
import { SITE_NAME } from '../lib/siteName'
import { DevProblems } from '../components/DevProblems'
import { useDevServerEvents } from '../lib/render/useDevServerEvents'

export default function NotFoundPage() {
  // `npm run dev`: a new page that did not pass the content check is not found; this says why.
  const devProblems = useDevServerEvents()
  return (
    <>
      <Head>
        <title>{`Page not found – ${SITE_NAME}`}</title>
      </Head>
      <SiteChrome title="Page not found" themeConfig={themeConfig}>
        <main id="reach-skip-nav" className="status-page">
          <h1>Page not found</h1>
          <p>There is no page at this address. It may have moved, or the link may be wrong.</p>
          <p className="status-page-actions">
            <PageLink href="/">Go to the home page</PageLink>
          </p>
        </main>
      </SiteChrome>
      <DevProblems problems={devProblems} />
    </>
  )
}
