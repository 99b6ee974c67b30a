import { createContext, startTransition, useCallback, useContext, useEffect, useMemo, useRef, useState, type ReactNode } from 'react'
import type { ReaderView } from '../access/readerView'
import { fetchReaderView } from './fetchReaderView'
import { onSignedOutElsewhere } from './sessionChannel'
import { loadRouteManifests } from '../navigation/loadRouteManifests'
import { sessionClientIds } from './authSettings'
import { readSessionCookies } from './readSessionCookies'
import type { RenewalOutcome } from './renewalOutcome'
import { siteAuthSettings } from './siteAuthSettings'

/**
 * What the UI knows about the reader. `loading` is true until the user is resolved; `view` is what
 * the authority said the reader may open (null until it has answered).
 */
export interface AuthState {
  username: string | null
  isAuthenticated: boolean
  loading: boolean
  view: ReaderView | null
}

export const LOADING_AUTH: AuthState = { username: null, isAuthenticated: false, loading: true, view: null }

/** The UI state for the authority's answer. */
export function authStateFor(view: ReaderView): AuthState {
  return { username: view.username, isAuthenticated: view.username !== null, loading: false, view }
}

/** Renew the tokens this long before the ID token expires, so the edge never sees an expired one. */
export const REFRESH_MARGIN_MS = 5 * 60 * 1000

/**
 * Where renewing the reader's stored session stands:
 * - `unknown`: not looked at yet (the first render, which matches the prerendered HTML);
 * - `idle`: nothing to renew, or the renewal is over and the authority has answered;
 * - `renewing`: renewing tokens that have expired or are about to;
 * - `renewed`: renewed, and waiting for the authority to name the reader;
 * - `retrying`: the sign-in service could not be reached; renewing again, on "Try again" (`retryRenewal`);
 * - `unreachable`: none of Amplify's attempts reached it (./renewalOutcome.ts); the stored tokens are kept.
 */
export type RenewalStatus = 'unknown' | 'idle' | 'renewing' | 'renewed' | 'retrying' | 'unreachable'

interface AuthContextValue extends AuthState {
  /** Re-reads the session (the sign-in page calls it once Amplify has stored the tokens). */
  recheck: () => void
  renewal: RenewalStatus
  /** Runs the renewal attempts again (the reader's "Try again"). */
  retryRenewal: () => void
}

const AuthContext = createContext<AuthContextValue>({ ...LOADING_AUTH, recheck: () => {}, renewal: 'unknown', retryRenewal: () => {} })

/** When the stored tokens need renewing: null when they cannot be (none stored, or no refresh token). */
function refreshDelayFromCookies(): number | null {
  const session = readSessionCookies(document.cookie, sessionClientIds(siteAuthSettings))
  if (!session?.canRefresh) return null
  return Math.max(0, session.expiresAtMs - REFRESH_MARGIN_MS - Date.now())
}

/** One renewal, loading Amplify on demand; a chunk that cannot be fetched is no answer either. */
function renewOnce(): Promise<RenewalOutcome> {
  return import('./amplifySession').then(
    ({ refreshSession }) => refreshSession(),
    (): RenewalOutcome => 'unreachable'
  )
}

/** Once the authority has answered, a finished renewal is over; one still failing is not. */
const settled = (status: RenewalStatus): RenewalStatus => (status === 'unknown' || status === 'renewed' ? 'idle' : status)

/**
 * Resolves the reader by asking the authority (the browser holds no access lists), and renews the
 * tokens (loading Amplify on demand) shortly before they expire, then asks again. Expired tokens
 * are renewed before asking, so a returning reader is not briefly taken for a stranger. When the
 * sign-in service cannot be reached, Amplify retries the renewal (renewalOutcome.ts) and the stored tokens
 * are kept, so the reader is told, not signed out, and reads on once it answers again.
 */
export function AuthProvider({ children }: { children: ReactNode }) {
  const [state, setState] = useState<AuthState>(LOADING_AUTH)
  const [renewal, setRenewal] = useState<RenewalStatus>('unknown')
  const [generation, setGeneration] = useState(0)
  const renewNow = useRef(false)
  const recheck = useCallback(() => setGeneration((value) => value + 1), [])
  const retryRenewal = useCallback(() => {
    renewNow.current = true
    setRenewal('retrying')
    recheck()
  }, [recheck])

  useEffect(() => {
    let live = true
    let timer: ReturnType<typeof setTimeout> | undefined
    const forced = renewNow.current
    renewNow.current = false
    const refreshInMs = refreshDelayFromCookies()
    const renew = async () => {
      // After a failure to reach the service (and on "Try again") the notice stays on screen while it tries.
      setRenewal((status) => (status === 'retrying' || status === 'unreachable' ? 'retrying' : 'renewing'))
      // One renewal: Amplify's client retries it while the service does not answer (./renewalOutcome.ts).
      const outcome = await renewOnce()
      if (live) {
        setRenewal(outcome === 'renewed' ? 'renewed' : outcome === 'unreachable' ? 'unreachable' : 'idle')
        if (outcome === 'renewed') recheck()
      }
      return outcome
    }
    // After a renewal that did not renew, the tokens the page's first answer was for may be gone: ask afresh.
    const ask = (fresh = generation > 0) =>
      fetchReaderView(fresh).then(
        // The page is already showing its prerendered content; re-rendering the layout for the
        // reader (their tabs, their menu) is a transition, so it yields to the main thread
        // instead of blocking it in one long task.
        (view) => {
          if (!live) return
          // A reader who signed in here moves on without a reload: their routes and navigation come now.
          loadRouteManifests(view)
          startTransition(() => {
            setState(authStateFor(view))
            setRenewal(settled)
          })
        },
        // No answer (offline, a deploy in progress): the page stays as the authority served it.
        () => live && setRenewal(settled)
      )
    if (refreshInMs === 0 || forced) {
      // Expired or about to: renew first (recheck then asks); if renewal fails, ask anyway.
      renew().then((outcome) => {
        if (live && outcome !== 'renewed') ask(true)
      })
    } else {
      setRenewal((status) => (status === 'unknown' ? 'idle' : status))
      ask()
      if (refreshInMs !== null) {
        timer = setTimeout(
          () =>
            renew().then((outcome) => {
              if (live && outcome === 'signed-out') ask(true)
            }),
          Math.min(refreshInMs, 2 ** 31 - 1)
        )
      }
    }
    return () => {
      live = false
      clearTimeout(timer)
    }
  }, [generation, recheck])

  // Signed out in another tab: ask again, so this one leaves what it shows for the sign-in page.
  useEffect(() => onSignedOutElsewhere(recheck), [recheck])

  const value = useMemo(() => ({ ...state, recheck, renewal, retryRenewal }), [state, recheck, renewal, retryRenewal])
  return <AuthContext.Provider value={value}>{children}</AuthContext.Provider>
}

export function useAuth(): AuthContextValue {
  return useContext(AuthContext)
}

/** Lets tests render a component as a given reader without cookies or Amplify. */
export function AuthStateProvider({
  value,
  renewal = 'idle',
  retryRenewal = () => {},
  children,
}: {
  value: AuthState
  renewal?: RenewalStatus
  retryRenewal?: () => void
  children: ReactNode
}) {
  const context = useMemo(() => ({ ...value, recheck: () => {}, renewal, retryRenewal }), [value, renewal, retryRenewal])
  return <AuthContext.Provider value={context}>{children}</AuthContext.Provider>
}
