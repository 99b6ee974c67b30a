/**
 * Navbar facts that every browser may receive. Section facts live in siteNavigation.ts, which only
 * the build and the authority read: a browser learns of a section from its reader's view.
 */

/** One docs version, label "Next", path /docs; its main doc is the reader's first section. */
export const DOCS_VERSION = { name: 'current', label: 'Next', path: '/docs' } as const

/** The site is in English only; the dropdown exists so a second language has a place to go. */
export const LANGUAGES = [{ locale: 'en', label: 'English' }] as const
