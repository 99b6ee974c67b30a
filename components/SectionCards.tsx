import { PageLink } from './PageLink'
import { useAuth } from '../lib/auth/AuthContext'
import { useReadableSections } from './useReadableSections'

/** The home page's way in: one card per section the reader may open, and only those. */
export function SectionCards() {
  const { loading } = useAuth()
  const sections = useReadableSections()
  // Prerendered before the reader is known: hold one row's height, so the cards move nothing.
  if (loading) return <ul className="section-cards section-cards-pending" aria-busy="true" />
  if (sections.length === 0) {
    return <p className="section-cards-empty">Your account has no documentation sections yet. Ask the docs team for access.</p>
  }
  return (
    <ul className="section-cards">
      {sections.map((section) => (
        <li key={section.id}>
          <PageLink href={section.href}>
            <strong>{section.title}</strong>
            <span>{section.description}</span>
          </PageLink>
        </li>
      ))}
    </ul>
  )
}
