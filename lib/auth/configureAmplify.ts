import { Amplify } from 'aws-amplify'
import { cognitoUserPoolsTokenProvider } from 'aws-amplify/auth/cognito'
import { CookieStorage } from 'aws-amplify/utils'
import type { AuthSettings } from './authSettings'

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

/** Configures Amplify once per page load: user pool sign-in by username, no MFA, tokens in cookies. */
export function configureAmplify(settings: AuthSettings): void {
  if (configured) return
  configured = true
  Amplify.configure({
    Auth: {
      Cognito: {
        userPoolId: settings.userPoolId,
        userPoolClientId: settings.userPoolClientId,
        ...(settings.endpoint ? { userPoolEndpoint: settings.endpoint } : {}),
        loginWith: {
          username: true,
          email: false,
          phone: false,
          // A federated provider signs in through the pool's hosted domain and comes back to /login.
          ...(settings.federation ? { oauth: oauthSettings(settings.federation.domain) } : {}),
        },
        mfa: { status: 'off' },
      },
    },
  })
  cognitoUserPoolsTokenProvider.setKeyValueStorage(new CookieStorage(tokenCookieOptions(settings)))
}
