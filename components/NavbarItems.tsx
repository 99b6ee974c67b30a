import { useRouter } from 'next/router'
import { DOCS_VERSION, LANGUAGES } from '../lib/navigation/siteNavigation'
import { NavbarDropdown } from './NavbarDropdown'
import { UserMenu } from './UserMenu'
import { useReadableSections } from './useReadableSections'

/** Right-hand navbar items: docs version, language, and the signed-in user. */
export function NavbarItems() {
  const { asPath } = useRouter()
  const sections = useReadableSections()
  // The version's main doc is leads/intro; a reader without the leads section gets their first section.
  const versionHref = sections.find((section) => section.href === DOCS_VERSION.mainDoc)?.href ?? sections[0]?.href ?? '/'
  return (
    <>
      <NavbarDropdown
        label={DOCS_VERSION.label}
        ariaLabel="Docs version"
        items={[{ label: DOCS_VERSION.label, href: versionHref, active: true }]}
      />
      <NavbarDropdown
        label={LANGUAGES[0].label}
        ariaLabel="Language"
        items={LANGUAGES.map((language) => ({ label: language.label, href: asPath, active: true }))}
      />
      <UserMenu />
    </>
  )
}
