/**
 * Everything that needs Amplify, loaded on demand (dynamic import) so docs pages stay light:
 * the sign-in page imports it directly; docs pages only to refresh or sign out.
 */
import { fetchAuthSession, signOut } from 'aws-amplify/auth'
import { amplifyClientId, configureAmplify } from './configureAmplify'
import { isNetworkError, type RenewalOutcome } from './renewalOutcome'
import { clearTokenCookies } from './signOutEverywhere'
import { siteAuthSettings } from './siteAuthSettings'

configureAmplify(siteAuthSettings)

/**
 * Renews the tokens from the refresh token (Amplify rewrites the cookies). When the sign-in service
 * cannot be reached the stored tokens stay, so a later attempt (or a reload) can still renew them;
 * any other failure ends the session: the service refused the refresh token (Amplify then clears
 * the tokens itself) or failed otherwise, and the stored tokens are cleared here.
 */
export async function refreshSession(): Promise<RenewalOutcome> {
  try {
    const session = await fetchAuthSession({ forceRefresh: true })
    return session.tokens?.idToken !== undefined ? 'renewed' : 'signed-out'
  } catch (error) {
    if (isNetworkError(error)) return 'unreachable'
    clearTokenCookies()
    return 'signed-out'
  }
}

/**
 * Ends the reader's sessions. Signed in through the username form (the web client): Amplify's global
 * sign-out, so every refresh token of theirs, on every device, ends (its plain sign-out revokes only
 * this one, and only where the token says it may); the call needs a live access token, which a page
 * left open has outlived, so the session is renewed first where it must be. Signed in with the
 * provider (the federated client, whose tokens never carry the scope a global sign-out needs): this
 * browser's refresh token is revoked, and the hosted domain's sign-in ended.
 */
export async function amplifySignOut(): Promise<void> {
  const federatedClient = siteAuthSettings.federation?.clientId
  const global = federatedClient === undefined || amplifyClientId() !== federatedClient
  if (global) await fetchAuthSession().catch(() => undefined)
  await signOut({ global })
}
