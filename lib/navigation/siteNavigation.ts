/**
 * The sections, in navbar order. Only the build and the authority read this: a browser learns the
 * title, summary and entry page of a section from its reader's view, and only of the sections that
 * reader may open.
 */
export const SECTIONS = [
  { id: 'leads', title: 'Leads API', href: '/docs/leads/intro', summary: 'Quote creation and fees for lead-source partners.' },
  { id: 'internal', title: 'Internal', href: '/docs/internal/intro', summary: 'Data lake, master API, deployments and guidelines.' },
  { id: 'support-twilio', title: 'Twilio support', href: '/docs/support-twilio/intro', summary: 'Call flows and SQL queries for telephony support.' },
] as const
