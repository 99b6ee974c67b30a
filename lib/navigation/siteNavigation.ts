/** The sections a reader can be given, in navbar order. Titles and entry pages are not secret. */
export const SECTIONS = [
  { id: 'leads', title: 'Leads API', href: '/docs/leads/intro', summary: 'Quote creation and fees for lead-source partners.' },
  { id: 'internal', title: 'Internal', href: '/docs/internal/intro', summary: 'Data lake, master API, deployments and guidelines.' },
  { id: 'support-twilio', title: 'Twilio support', href: '/docs/support-twilio/intro', summary: 'Call flows and SQL queries for telephony support.' },
] as const

/** SPEC §2: one docs version, label "Next", path /docs, main doc leads/intro. */
export const DOCS_VERSION = { name: 'current', label: 'Next', path: '/docs', mainDoc: '/docs/leads/intro' } as const

/** The site is in English only; the dropdown exists so a second language has a place to go. */
export const LANGUAGES = [{ locale: 'en', label: 'English' }] as const
