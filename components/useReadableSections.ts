import { decide } from '../lib/access'
import { useAuth } from '../lib/auth/AuthContext'
import { SECTIONS } from '../lib/navigation/siteNavigation'

/** The sections the signed-in reader may open; none while the user is still loading. */
export function useReadableSections() {
  const { username, isAuthenticated } = useAuth()
  if (!isAuthenticated || !username) return []
  return SECTIONS.filter((section) => decide(section.href, { username }) === 'allow')
}
