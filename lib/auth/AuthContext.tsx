import { createContext, startTransition, useCallback, useContext, useEffect, useMemo, useState, type ReactNode } from 'react'
import { readSessionCookies } from './readSessionCookies'
import { siteAuthSettings } from './siteAuthSettings'

/** What the UI knows about the reader. `loading` is true until the user is resolved. */
export interface AuthState {
  username: string | null
  isAuthenticated: boolean
  loading: boolean
}

export const LOADING_AUTH: AuthState = { username: null, isAuthenticated: false, loading: true }
const SIGNED_OUT: AuthState = { username: null, isAuthenticated: false, loading: false }

/** Renew the tokens this long before the ID token expires, so the edge never sees an expired one. */
export const REFRESH_MARGIN_MS = 5 * 60 * 1000

interface AuthContextValue extends AuthState {
  /** Re-reads the session (the sign-in page calls it once Amplify has stored the tokens). */
  recheck: () => void
}

const AuthContext = createContext<AuthContextValue>({ ...LOADING_AUTH, recheck: () => {} })

function stateFromCookies(): { state: AuthState; refreshInMs: number | null } {
  const session = readSessionCookies(document.cookie, siteAuthSettings.userPoolClientId)
  if (!session) return { state: SIGNED_OUT, refreshInMs: null }
  const untilRefresh = session.expiresAtMs - REFRESH_MARGIN_MS - Date.now()
  if (session.expiresAtMs <= Date.now()) {
    // Expired: signed out unless the refresh token can renew it (checked right away).
    return { state: session.canRefresh ? LOADING_AUTH : SIGNED_OUT, refreshInMs: session.canRefresh ? 0 : null }
  }
  return { state: { username: session.username, isAuthenticated: true, loading: false }, refreshInMs: session.canRefresh ? Math.max(0, untilRefresh) : null }
}

/**
 * Resolves the reader from Amplify's cookies without loading Amplify, and renews the tokens
 * (loading Amplify on demand) shortly before they expire.
 */
export function AuthProvider({ children }: { children: ReactNode }) {
  const [state, setState] = useState<AuthState>(LOADING_AUTH)
  const [generation, setGeneration] = useState(0)
  const recheck = useCallback(() => setGeneration((value) => value + 1), [])

  useEffect(() => {
    let live = true
    const { state: next, refreshInMs } = stateFromCookies()
    // The page is already showing its prerendered content; re-rendering the layout for the reader
    // (their tabs, their menu) is a transition, so it yields to the main thread instead of
    // blocking it in one long task.
    startTransition(() => setState(next))
    if (refreshInMs === null) return
    const timer = setTimeout(async () => {
      const { refreshSession } = await import('./amplifySession')
      const renewed = await refreshSession()
      if (!live) return
      if (renewed) recheck()
      else setState(SIGNED_OUT)
    }, Math.min(refreshInMs, 2 ** 31 - 1))
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
