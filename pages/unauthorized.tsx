import Head from 'next/head'
import { SiteChrome } from '../components/SiteChrome'
import themeConfig from '../theme.config'
import { PageLink } from '../components/PageLink'
import { useRouter } from 'next/router'
import { useState } from 'react'
import { useAuth } from '../lib/auth/AuthContext'
import { signOutEverywhere } from '../lib/auth/signOutEverywhere'
import { safeNextPath } from '../lib/auth/safeNextPath'
import { normalisePath } from '../lib/access/normalisePath'
import { landingFor } from '../lib/access/readerView'
import { SITE_NAME } from '../lib/siteName'
import { SIGN_IN_PAGE } from '../lib/pathFormats'

/**
 * The route the reader was refused, as the site spells its routes (canonical, slugs of lowercase
 * letters, digits, `-` and `_`; no dots, so no address), or '' : a link to this page may carry any
 * words in `from`, and they would read as the site's.
 */
function shownRoute(from: unknown): string {
  const path = safeNextPath(from, '')
  return path.length <= 200 && /^(\/[a-z0-9_-]+)+$/.test(path) && normalisePath(path) === path ? path : ''
}

/** Shown to a signed-in reader who opened a section their account may not read. No content is shown. */
export default function UnauthorizedPage() {
  const router = useRouter()
  const { username, isAuthenticated, loading, view } = useAuth()
  // A reader whom a rule keeps from the home page is offered their first section instead.
  const landing = view ? landingFor(view) : { href: '/', title: null }
  const [busy, setBusy] = useState(false)
  const from = shownRoute(router.query.from)
  const signOut = async () => {
    setBusy(true)
    await signOutEverywhere()
    window.location.assign(SIGN_IN_PAGE)
  }
  return (
    <>
      <Head>
        <title>{`No access – ${SITE_NAME}`}</title>
      </Head>
      <SiteChrome title="No access" themeConfig={themeConfig}>
        <main id="reach-skip-nav" className="status-page">
          <h1>You do not have access to this section</h1>
          {loading ? (
            <p role="status">Loading...</p>
          ) : isAuthenticated ? (
            <p>
              You are signed in as <strong>{username}</strong>, and this account may not read{' '}
              {from ? <code>{from}</code> : 'that section'}. Ask the docs team if you need it.
            </p>
          ) : (
            <p>You are not signed in.</p>
          )}
          <p className="status-page-actions">
            <PageLink href={landing.href}>{landing.title === null ? 'Go to the home page' : `Go to ${landing.title}`}</PageLink>
            {/* Neither until the reader is known: a signed-in reader was briefly offered to sign in. */}
            {loading ? null : isAuthenticated ? (
              <button type="button" onClick={signOut} disabled={busy}>
                Sign out
              </button>
            ) : (
              <PageLink href={SIGN_IN_PAGE}>Sign in</PageLink>
            )}
          </p>
        </main>
      </SiteChrome>
    </>
  )
}
