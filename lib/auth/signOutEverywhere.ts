import { clearAmplifyCookies } from './amplifyCookies'
import { announceSignedOut } from './sessionChannel'
import { NotSignedInError, revokeConnections } from '../aiTools/oauthRequests'

/**
 * Signs out everywhere (every session of the reader, and every AI tool they connected) and always
 * clears the local tokens: a reader who clicked "Sign out" must not stay
 * signed in because the revoke call failed or the network dropped. Callers then load /login
 * afresh, so no component keeps a stale user; the reader's other tabs are told (./sessionChannel.ts).
 */
export async function signOutEverywhere(): Promise<void> {
  try {
    // The reader's AI tools lose their grants too, while the sign-in cookies still say who the reader
    // is; an ID token that has just expired is renewed first, so the tools are not left connected.
    const session = await import('./amplifySession')
    await revokeConnections().catch(async (error: unknown) => {
      if (!(error instanceof NotSignedInError) || (await session.refreshSession()) !== 'renewed') return
      await revokeConnections().catch(() => undefined)
    })
    const { amplifySignOut } = session
    await amplifySignOut()
  } catch {
    // The server call failing is no reason to keep the session; the cookies go below.
  } finally {
    clearTokenCookies()
    announceSignedOut()
  }
}

/** Removes every Amplify token cookie on path `/` (amplifyCookies.ts clearAmplifyCookies). */
export function clearTokenCookies(doc: Document = document): void {
  clearAmplifyCookies(doc)
}
