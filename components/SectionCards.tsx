import Link from 'next/link'
import { useReadableSections } from './useReadableSections'

/** The home page's way in: one card per section the reader may open, and only those. */
export function SectionCards() {
  const sections = useReadableSections()
  if (sections.length === 0) {
    return <p className="section-cards-empty">Your account has no documentation sections yet. Ask the docs team for access.</p>
  }
  return (
    <ul className="section-cards">
      {sections.map((section) => (
        <li key={section.id}>
          <Link href={section.href}>
            <strong>{section.title}</strong>
            <span>{section.summary}</span>
          </Link>
        </li>
      ))}
    </ul>
  )
}
