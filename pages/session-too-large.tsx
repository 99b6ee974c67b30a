import Head from 'next/head'
import { SiteChrome } from '../components/SiteChrome'
import themeConfig from '../theme.config'
import { useState } from 'react'
import { clearTokenCookies } from '../lib/auth/signOutEverywhere'
import { SITE_NAME } from '../lib/siteName'
import { SIGN_IN_PAGE } from '../lib/pathFormats'

/**
 * Where the authorizer sends a reader whose cookies are too large for it to read. Sending them to
 * sign in would add more cookies and loop; this page says what happened and clears the site's
 * sign-in cookies (Amplify's, which this site's scripts wrote and may remove).
 */
export default function SessionTooLargePage() {
  const [busy, setBusy] = useState(false)
  const clear = () => {
    setBusy(true)
    clearTokenCookies()
    window.location.assign(SIGN_IN_PAGE)
  }
  return (
    <>
      <Head>
        <title>{`Sign-in data too large – ${SITE_NAME}`}</title>
      </Head>
      <SiteChrome title="Sign-in data too large" themeConfig={themeConfig}>
        <main id="reach-skip-nav" className="status-page">
          <h1>Your browser is sending too much sign-in data</h1>
          <p>
            The cookies this site keeps in your browser have grown larger than the site can read, so it cannot tell who you are.
            Clearing them signs you out of this site only; then sign in again.
          </p>
          <p className="status-page-actions">
            <button type="button" onClick={clear} disabled={busy}>
              Clear sign-in cookies and sign in again
            </button>
          </p>
        </main>
      </SiteChrome>
    </>
  )
}
