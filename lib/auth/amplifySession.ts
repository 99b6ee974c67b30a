/**
 * Everything that needs Amplify, loaded on demand (dynamic import) so docs pages stay light:
 * the sign-in page imports it directly; docs pages only to refresh or sign out.
 */
import { fetchAuthSession, signOut } from 'aws-amplify/auth'
import { configureAmplify } from './configureAmplify'
import { siteAuthSettings } from './siteAuthSettings'

configureAmplify(siteAuthSettings)

/** Renews the tokens from the refresh token (Amplify rewrites the cookies). False when it cannot. */
export async function refreshSession(): Promise<boolean> {
  try {
    const session = await fetchAuthSession({ forceRefresh: true })
    return session.tokens?.idToken !== undefined
  } catch {
    return false
  }
}

/** Amplify's sign-out (revokes the refresh token where the server supports it). */
export async function amplifySignOut(): Promise<void> {
  await signOut()
}
