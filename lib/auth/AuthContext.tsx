import { createContext, useContext, useEffect, useState, type ReactNode } from 'react'
import { Hub } from 'aws-amplify/utils'
import { getCurrentUser } from 'aws-amplify/auth'

/** What the UI knows about the reader. `loading` is true until the user is resolved. */
export interface AuthState {
  username: string | null
  isAuthenticated: boolean
  loading: boolean
}

export const LOADING_AUTH: AuthState = { username: null, isAuthenticated: false, loading: true }
const SIGNED_OUT: AuthState = { username: null, isAuthenticated: false, loading: false }

const AuthContext = createContext<AuthState>(LOADING_AUTH)

async function resolveUser(): Promise<AuthState> {
  try {
    const { username } = await getCurrentUser()
    return { username, isAuthenticated: true, loading: false }
  } catch {
    return SIGNED_OUT
  }
}

/** Resolves the user once, then follows Amplify's Hub so sign-in and sign-out show at once. */
export function AuthProvider({ children }: { children: ReactNode }) {
  const [state, setState] = useState<AuthState>(LOADING_AUTH)
  useEffect(() => {
    let live = true
    const refresh = () => resolveUser().then((next) => live && setState(next))
    refresh()
    const stop = Hub.listen('auth', ({ payload }) => {
      if (payload.event === 'signedOut' || payload.event === 'tokenRefresh_failure') {
        if (live) setState(SIGNED_OUT)
      } else if (payload.event === 'signedIn' || payload.event === 'tokenRefresh') {
        refresh()
      }
    })
    return () => {
      live = false
      stop()
    }
  }, [])
  return <AuthContext.Provider value={state}>{children}</AuthContext.Provider>
}

export function useAuth(): AuthState {
  return useContext(AuthContext)
}

/** Lets tests and stories render a component as a given reader without Amplify. */
export function AuthStateProvider({ value, children }: { value: AuthState; children: ReactNode }) {
  return <AuthContext.Provider value={value}>{children}</AuthContext.Provider>
}
