import { useState } from 'react'
import { useAuth } from '../lib/auth/AuthContext'
import { signOutEverywhere } from '../lib/auth/signOutEverywhere'
import { CONNECTED_TOOLS_PAGE } from '../lib/aiTools/oauthPaths'
import { SIGN_IN_PAGE } from '../lib/pathFormats'

/** Navbar item: who is signed in, their connected AI tools, and a way to sign out. */
export function UserMenu({ signOut = signOutEverywhere }: { signOut?: () => Promise<void> }) {
  const { username, isAuthenticated } = useAuth()
  const [busy, setBusy] = useState(false)
  if (!isAuthenticated || !username) return null
  const onSignOut = async () => {
    setBusy(true)
    await signOut()
    window.location.assign(SIGN_IN_PAGE)
  }
  return (
    <span className="user-menu">
      <span className="user-menu-name" title="Signed in as">
        {username}
      </span>
      <a className="user-menu-tools" href={CONNECTED_TOOLS_PAGE} title="The AI tools that read the docs as you">
        AI tools
      </a>
      <button type="button" className="user-menu-signout" onClick={onSignOut} disabled={busy}>
        Sign out
      </button>
    </span>
  )
}
