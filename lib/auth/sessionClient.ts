/**
 * Which app client the browser's Amplify works with. Without a federated provider there is one,
 * the web client. With one there are two (infra/lib/auth-stack.ts): the web client for the username
 * form, and the federated client for "Sign in with <provider>", the only client that may write the
 * provider's groups, which a username reader's client must not. A session belongs to the client it
 * was signed in through (Amplify's cookies carry that client's id, and only that client can renew
 * it), so Amplify must be configured with:
 *
 * - the federated client on the way back from the provider (/login?code=…), to exchange the code:
 *   the sign-in button marks the redirect in sessionStorage before it leaves;
 * - otherwise the client whose cookies hold the reader's session, to renew it and sign it out;
 * - otherwise (no session) the web client, for the username form.
 *
 * No Amplify here: docs pages read the session without loading it (readSessionCookies.ts).
 */
import { parseCookies, readAmplifyCookies } from './amplifyCookies'
import { sessionClientIds, type AuthSettings } from './authSettings'
import { SIGN_IN_PAGE } from '../pathFormats'

/** The sessionStorage key the sign-in button sets just before the redirect to the provider. */
export const FEDERATED_REDIRECT_KEY = 'docs.federatedSignIn'

/** What the page knows at start: its cookies, its address, and whether a federated redirect was started from this tab. */
export interface PageState {
  cookieHeader: string
  pathname: string
  search: string
  federatedRedirectPending: boolean
}

/** Whether the page is the provider's answer to a redirect this tab started (a code, or an error, at /login). */
export function isFederatedReturn(page: Pick<PageState, 'pathname' | 'search' | 'federatedRedirectPending'>): boolean {
  if (!page.federatedRedirectPending || page.pathname.replace(/\/$/, '') !== SIGN_IN_PAGE) return false
  const query = new URLSearchParams(page.search)
  return query.has('code') || query.has('error')
}

/** The app client Amplify is configured with for this page (see above). */
export function sessionClientFor(settings: Pick<AuthSettings, 'userPoolClientId' | 'federation'>, page: PageState): string {
  if (!settings.federation) return settings.userPoolClientId
  if (isFederatedReturn(page)) return settings.federation.clientId
  // The same order the session reader and the edge read in, so all three see the same session.
  return readAmplifyCookies(parseCookies([page.cookieHeader]), sessionClientIds(settings))?.clientId ?? settings.userPoolClientId
}
