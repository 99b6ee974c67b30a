import { useRouter } from 'next/router'
import { DOCS_VERSION, LANGUAGES } from '../lib/navigation/siteChrome'
import { NavbarDropdown } from './NavbarDropdown'
import { UserMenu } from './UserMenu'
import { useReadableSections } from './useReadableSections'

/** Right-hand navbar items: docs version, language, and the signed-in user. */
export function NavbarItems() {
  const { asPath } = useRouter()
  const sections = useReadableSections()
  // The version's main doc is the first section the reader may open (sections come in navbar
  // order, leads first); the browser is never told of a section its reader may not open.
  const versionHref = sections[0]?.href ?? '/'
  return (
    <>
      <NavbarDropdown
        label={DOCS_VERSION.label}
        purpose="Docs version"
        items={[{ label: DOCS_VERSION.label, href: versionHref, active: true }]}
      />
      <NavbarDropdown
        label={LANGUAGES[0].label}
        purpose="Language"
        items={LANGUAGES.map((language) => ({ label: language.label, href: asPath, active: true }))}
      />
      <UserMenu />
    </>
  )
}
