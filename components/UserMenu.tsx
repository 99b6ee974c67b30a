import { useState } from 'react'
import { useAuth } from '../lib/auth/AuthContext'
import { signOutEverywhere } from '../lib/auth/signOutEverywhere'

/** Navbar item: who is signed in, and a way to sign out. */
export function UserMenu({ signOut = signOutEverywhere }: { signOut?: () => Promise<void> }) {
  const { username, isAuthenticated } = useAuth()
  const [busy, setBusy] = useState(false)
  if (!isAuthenticated || !username) return null
  const onSignOut = async () => {
    setBusy(true)
    await signOut()
    window.location.assign('/login')
  }
  return (
    <span className="user-menu">
      <span className="user-menu-name" title="Signed in as">
        {username}
      </span>
      <button type="button" className="user-menu-signout" onClick={onSignOut} disabled={busy}>
        Sign out
      </button>
    </span>
  )
}
