import '../components/signInStyles'
import '../components/signInTexts'
import { SignInServiceNotice } from '../components/SignInServiceNotice'
import { SiteChrome } from '../components/SiteChrome'
import { layoutThemeConfig } from '../components/layoutThemeConfig'
import { Authenticator } from '@aws-amplify/ui-react'
import type { SignInInput } from 'aws-amplify/auth'
import { Hub } from 'aws-amplify/utils'
import Head from 'next/head'
import { useRouter } from 'next/router'
import { useEffect, useState } from 'react'
import { useAuth } from '../lib/auth/AuthContext'
import type { AuthSettings } from '../lib/auth/authSettings'
import { amplifyClientId, configureAmplify, prepareFederatedSignIn, switchAmplifyClient } from '../lib/auth/configureAmplify'
import { clearAmplifyCookies } from '../lib/auth/amplifyCookies'
import { loadAuth, signIn, signInWithRedirect } from '../patches/signIn/lazyAuth'
import { safeNextPath } from '../lib/auth/safeNextPath'
import { landingFor } from '../lib/access/readerView'
import { ISSUER_PATH } from '../lib/aiTools/oauthPaths'
import { siteAuthSettings } from '../lib/auth/siteAuthSettings'
import { SITE_NAME } from '../lib/siteName'

// The sign-in page is the one page that needs Amplify up front. Only its configuration: the
// session's renewal and sign-out (lib/auth/amplifySession.ts) load when the page needs them.
configureAmplify(siteAuthSettings)

/**
 * What the Authenticator's sign-in does, where it differs from its default:
 * - cognito-local has no SRP, so local mode signs in with USER_PASSWORD_AUTH. Production keeps the
 *   default (SRP), so the password never leaves the browser.
 * - With a federated provider, Amplify may be on the federated client (the reader's earlier
 *   session, or a redirect they started); the username form signs in through the web client, the
 *   only one that takes a username (lib/auth/sessionClient.ts).
 */
function signInServices(settings: AuthSettings) {
  if (settings.mode !== 'local' && !settings.federation) return undefined
  return {
    handleSignIn: ((input: SignInInput) => {
      if (settings.federation) switchAmplifyClient(settings, settings.userPoolClientId)
      return signIn(settings.mode === 'local' ? { ...input, options: { ...input.options, authFlowType: 'USER_PASSWORD_AUTH' } } : input)
    }) as typeof signIn,
  }
}

const services = signInServices(siteAuthSettings)

/**
 * Below the form, in place of Amplify's "Forgot your password?" button: the user pool has no
 * self-service recovery (infra/lib/auth-stack.ts, accountRecovery NONE: accounts hold no email
 * or phone), so Cognito refuses a reader's reset and the button led to a screen that cannot end.
 * An administrator sets a new temporary password instead.
 */
const PASSWORD_HELP = 'Forgot your password? Ask an administrator of this site to reset it.'
function PasswordHelp() {
  return (
    <div data-amplify-footer="" className="login-password-help">
      {PASSWORD_HELP}
    </div>
  )
}
const signInComponents = { SignIn: { Footer: PasswordHelp } }

/** Fetches Amplify's sign-in code ahead of the submit; a failed fetch is tried again then. */
function preloadSignIn() {
  loadAuth().catch(() => {})
}

/** "Sign in with <provider>", when the pool federates with the company's identity provider. */
function FederatedSignIn({ provider }: { provider: string }) {
  const [busy, setBusy] = useState(false)
  const start = async () => {
    setBusy(true)
    try {
      // Through the federated client, marked so the return to /login exchanges the code with it.
      prepareFederatedSignIn(siteAuthSettings)
      await signInWithRedirect({ provider: { custom: provider } })
    } catch {
      setBusy(false)
    }
  }
  return (
    <div className="login-federated">
      <button type="button" onClick={start} disabled={busy}>
        Sign in with {provider}
      </button>
      <p className="login-or">or with your username</p>
    </div>
  )
}

export default function LoginPage() {
  const router = useRouter()
  const { isAuthenticated, recheck, renewal, view } = useAuth()
  const next = safeNextPath(router.query.next)
  const federation = siteAuthSettings.federation

  // Amplify stores the tokens in cookies on sign-in (or on the way back from the provider); then
  // the session is read again. A session another app client may still hold goes: one at a time.
  useEffect(
    () =>
      Hub.listen('auth', ({ payload }) => {
        if (payload.event !== 'signedIn' && payload.event !== 'signInWithRedirect') return
        const clientId = amplifyClientId()
        if (federation && clientId) clearAmplifyCookies(document, clientId)
        recheck()
      }),
    [federation, recheck]
  )
  // Only a federated sign-in comes back here with a code to exchange; the listener does that, with
  // the federated client configureAmplify chose for the return. Not loaded on other visits: Amplify
  // runs it at the next configuration with OAuth, which the button's switch to the federated
  // client would then be, just as the redirect it starts marks a sign-in in flight.
  useEffect(() => {
    if (federation && amplifyClientId() === federation.clientId) import('aws-amplify/auth/enable-oauth-listener')
  }, [federation])

  useEffect(() => {
    if (!router.isReady || !isAuthenticated) return
    // An AI tool's sign-in (its authorization request) is the authorization server's, not a page of the site's.
    if (next.startsWith(`${ISSUER_PATH}/`)) window.location.replace(next)
    // The home page, asked for or by default, may be closed to this reader by a rule: their first section instead.
    else router.replace(next === '/' && view ? landingFor(view).href : next)
  }, [isAuthenticated, next, router, view])

  return (
    <>
      <Head>
        <title>{`Sign in – ${SITE_NAME}`}</title>
      </Head>
      <SiteChrome title="Sign in" themeConfig={layoutThemeConfig} sectionTabs={false}>
        {/* The sign-in code loads after the form is drawn: as soon as the reader starts on the form,
            so that it is there by the time they submit it. */}
        <main id="reach-skip-nav" className="login-page" onFocusCapture={preloadSignIn}>
          <h1 className="login-title">Sign in to the documentation</h1>
          {isAuthenticated ? (
            <p role="status">Signed in. Taking you to your docs…</p>
          ) : renewal === 'retrying' || renewal === 'unreachable' ? (
            // The stored session could not be renewed because the sign-in service does not answer:
            // the reader is told so, and the session is kept for when it answers again.
            <SignInServiceNotice variant="page" />
          ) : renewal === 'renewing' || renewal === 'renewed' ? (
            // A returning reader whose tokens expired: their session is restored before any form.
            <p role="status">Restoring your session…</p>
          ) : renewal === 'idle' ? (
            <>
              {federation && <FederatedSignIn provider={federation.provider} />}
              <Authenticator loginMechanisms={['username']} hideSignUp services={services} components={signInComponents} />
            </>
          ) : null}
        </main>
      </SiteChrome>
    </>
  )
}
