import { createContext, startTransition, useCallback, useContext, useEffect, useMemo, useState, type ReactNode } from 'react'
import type { ReaderView } from '../access/readerView'
import { fetchReaderView } from './fetchReaderView'
import { readSessionCookies } from './readSessionCookies'
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

interface AuthContextValue extends AuthState {
  /** Re-reads the session (the sign-in page calls it once Amplify has stored the tokens). */
  recheck: () => void
}

const AuthContext = createContext<AuthContextValue>({ ...LOADING_AUTH, recheck: () => {} })

/** When the stored tokens need renewing: null when they cannot be (none stored, or no refresh token). */
function refreshDelayFromCookies(): number | null {
  const session = readSessionCookies(document.cookie, siteAuthSettings.userPoolClientId)
  if (!session?.canRefresh) return null
  return Math.max(0, session.expiresAtMs - REFRESH_MARGIN_MS - Date.now())
}

/**
 * Resolves the reader by asking the authority (the browser holds no access lists), and renews the
 * tokens (loading Amplify on demand) shortly before they expire, then asks again. Expired tokens
 * are renewed before asking, so a returning reader is not briefly taken for a stranger.
 */
export function AuthProvider({ children }: { children: ReactNode }) {
  const [state, setState] = useState<AuthState>(LOADING_AUTH)
  const [generation, setGeneration] = useState(0)
  const recheck = useCallback(() => setGeneration((value) => value + 1), [])

  useEffect(() => {
    let live = true
    let timer: ReturnType<typeof setTimeout> | undefined
    const refreshInMs = refreshDelayFromCookies()
    const refresh = async () => {
      const { refreshSession } = await import('./amplifySession')
      const renewed = await refreshSession()
      if (live && renewed) recheck()
      return renewed
    }
    const ask = () =>
      fetchReaderView(generation > 0).then(
        // The page is already showing its prerendered content; re-rendering the layout for the
        // reader (their tabs, their menu) is a transition, so it yields to the main thread
        // instead of blocking it in one long task.
        (view) => live && startTransition(() => setState(authStateFor(view))),
        // No answer (offline, a deploy in progress): the page stays as the authority served it.
        () => undefined
      )
    if (refreshInMs === 0) {
      // Expired or about to: renew first (recheck then asks); if renewal fails, ask anyway.
      refresh().then((renewed) => {
        if (!renewed) ask()
      })
    } else {
      ask()
      if (refreshInMs !== null) timer = setTimeout(refresh, Math.min(refreshInMs, 2 ** 31 - 1))
    }
    return () => {
      live = false
      clearTimeout(timer)
    }
  }, [generation, recheck])

  const value = useMemo(() => ({ ...state, recheck }), [state, recheck])
  return <AuthContext.Provider value={value}>{children}</AuthContext.Provider>
}

export function useAuth(): AuthContextValue {
  return useContext(AuthContext)
}

/** Lets tests render a component as a given reader without cookies or Amplify. */
export function AuthStateProvider({ value, children }: { value: AuthState; children: ReactNode }) {
  const context = useMemo(() => ({ ...value, recheck: () => {} }), [value])
  return <AuthContext.Provider value={context}>{children}</AuthContext.Provider>
}
