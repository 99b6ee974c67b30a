import { Amplify, type ResourcesConfig } from '@aws-amplify/core'
import { cognitoUserPoolsTokenProvider } from 'aws-amplify/auth/cognito'
import { CookieStorage } from 'aws-amplify/utils'
import { AuthConfigError, type AuthSettings } from './authSettings'
import { FEDERATED_REDIRECT_KEY, sessionClientFor, type PageState } from './sessionClient'

/** Cookie options for the token store; the edge reads these cookies, so they must reach every path. */
export function tokenCookieOptions(settings: AuthSettings) {
  return {
    path: '/',
    // Browsers drop Secure cookies on plain-http 127.0.0.1, which the local mode serves on.
    secure: settings.mode === 'production',
    sameSite: 'lax' as const,
    expires: 365,
  }
}

function oauthSettings(domain: string) {
  const back = [`${typeof window === 'undefined' ? '' : window.location.origin}/login`]
  return { domain, scopes: ['openid', 'email', 'profile'], redirectSignIn: back, redirectSignOut: back, responseType: 'code' as const }
}

let configured = false
let configuredClientId: string | null = null

/** The app client Amplify is configured with on this page, or null before it is configured. */
export const amplifyClientId = (): string | null => configuredClientId

/** What this page's browser state says (sessionClient.ts); the redirect mark is used once, then dropped. */
function pageState(): PageState {
  let federatedRedirectPending = false
  try {
    federatedRedirectPending = window.sessionStorage.getItem(FEDERATED_REDIRECT_KEY) !== null
    // One page load answers the redirect: a later load (a reload, the back button) is not its return.
    window.sessionStorage.removeItem(FEDERATED_REDIRECT_KEY)
  } catch {
    // Storage refused (privacy settings): no redirect is known to be pending.
  }
  return { cookieHeader: document.cookie, pathname: window.location.pathname, search: window.location.search, federatedRedirectPending }
}

/**
 * Configures Amplify once per page load: user pool sign-in by username, no MFA, tokens in cookies,
 * with the app client this page's session belongs to (lib/auth/sessionClient.ts).
 *
 * In the browser only. `next build` also loads the sign-in page's modules in Node, to collect page
 * data and to prerender it, and configuring Amplify there printed Amplify's "[WARN] … You are using
 * a custom Amazon Amazon Cognito User Pool endpoint" (local mode points at cognito-local) into the
 * build's output, once per load: noise a writer cannot act on. Nothing needs Amplify on the server
 * of a static export: prerendering runs no effect, so the Authenticator never starts its sign-in
 * machine there and the page's HTML is the same without it; every Amplify call (sign-in, refresh,
 * sign-out) runs in the browser. So the server skips the configuration altogether, rather than
 * muting Amplify's logger, which would hide its other warnings too. In the browser the warning
 * stays: in local mode it is true (the sign-in page's console says sign-in goes to the emulator),
 * and a production build has no custom endpoint (lib/auth/authSettings.ts refuses one).
 */
export function configureAmplify(settings: AuthSettings): void {
  if (configured || typeof window === 'undefined') return
  configured = true
  configureWithClient(settings, sessionClientFor(settings, pageState()))
}

/**
 * Switches Amplify to `clientId` (one of the site's clients) for what the reader does next: the
 * username form signs in through the web client, the provider's button through the federated one.
 */
export function switchAmplifyClient(settings: AuthSettings, clientId: string): void {
  if (typeof window === 'undefined') return
  configured = true
  if (configuredClientId !== clientId) configureWithClient(settings, clientId)
}

/**
 * Before "Sign in with <provider>": Amplify on the federated client, and the redirect marked, so
 * that the page the provider sends the reader back to exchanges the code with the same client.
 */
export function prepareFederatedSignIn(settings: AuthSettings): void {
  if (!settings.federation) throw new AuthConfigError('no federated provider is configured')
  try {
    window.sessionStorage.setItem(FEDERATED_REDIRECT_KEY, '1')
  } catch {
    // Without storage the return is taken for the web client's and the code is not exchanged; the
    // reader sees the form again. Nothing else can say which client started the redirect.
  }
  switchAmplifyClient(settings, settings.federation.clientId)
}

function configureWithClient(settings: AuthSettings, clientId: string): void {
  configuredClientId = clientId
  const federated = settings.federation !== undefined && clientId === settings.federation.clientId
  const config: ResourcesConfig = {
    Auth: {
      Cognito: {
        userPoolId: settings.userPoolId,
        userPoolClientId: clientId,
        ...(settings.endpoint ? { userPoolEndpoint: settings.endpoint } : {}),
        loginWith: {
          username: true,
          email: false,
          phone: false,
          // The federated client signs in through the pool's hosted domain and comes back to /login;
          // the web client has no OAuth at all.
          ...(federated ? { oauth: oauthSettings(settings.federation!.domain) } : {}),
        },
        mfa: { status: 'off' },
      },
    },
  }
  // What `Amplify.configure` of the `aws-amplify` package does with a user pool, without the
  // identity pool's credentials provider it also sets up (AWS credentials for the reader, which
  // nothing here asks for), whose code the sign-in page and every session renewal would load for
  // nothing. The tokens are kept in cookies, for the edge.
  cognitoUserPoolsTokenProvider.setAuthConfig(config.Auth!)
  cognitoUserPoolsTokenProvider.setKeyValueStorage(new CookieStorage(tokenCookieOptions(settings)))
  Amplify.configure(config, { Auth: { tokenProvider: cognitoUserPoolsTokenProvider } })
}
