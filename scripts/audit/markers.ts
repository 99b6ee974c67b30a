import crypto from 'node:crypto'
import shipped from '../../access.config'
import type { AccessConfig, ListName, PathRule } from '../../lib/access/types'

/**
 * Rules finer than a section that the audit build adds to the shipped ones, so the audit proves
 * that every file built from several pages follows the rule of each page in it: a folder of the
 * internal section given to a list of its own, whose reader (support1) may open nothing else of
 * the section, and one internal page restricted to full access.
 */
export const FINER_LISTS: Record<ListName, string> = { auditFolderUsers: 'support1' }
export const FINER_RULES: PathRule[] = [
  { path: '/docs/internal/to-be-refined/finance', match: 'prefix', require: 'auditFolderUsers' },
  { path: '/docs/internal/guidelines/secrets-management', match: 'exact', require: 'fullAccessUsers' },
]

/** The audit build's access configuration: the shipped one with the finer rules first. */
export const AUDIT_ACCESS_CONFIG: AccessConfig = { ...shipped, lists: { ...shipped.lists, ...FINER_LISTS }, rules: [...FINER_RULES, ...shipped.rules] }

/** Where the audit plants markers for the finer rules: a page of the folder, and the page itself. */
export const FINER_MARKED_PAGES = {
  folder: 'content/docs/internal/to-be-refined/finance/quill-money-api.mdx',
  page: 'content/docs/internal/guidelines/secrets-management.mdx',
} as const
export type FinerMark = keyof typeof FINER_MARKED_PAGES

/** Where the audit build plants its markers: one page of each section, chosen to cover a nested page and two category index pages. */
export const MARKED_PAGES = {
  leads: 'content/docs/leads/endpoints/create-quote.mdx',
  internal: 'content/docs/internal/data-lake/index.mdx',
  'support-twilio': 'content/docs/support-twilio/sql-queries/index.mdx',
} as const

/** Each section's images get a marker too: media must follow their section's rule. */
export const MARKED_IMAGES = {
  leads: 'public/docs/leads/images/quote-flow.svg',
  internal: 'public/docs/internal/images/data-lake-overview.svg',
  'support-twilio': 'public/docs/support-twilio/images/call-flow.svg',
} as const

export type MarkedSection = keyof typeof MARKED_PAGES

export interface Markers {
  /** Text planted in the body of the marked page and in the section's image. */
  body: Record<MarkedSection, string>
  /** Text planted in the marked page's title (front matter), which Nextra puts into page maps. */
  title: Record<MarkedSection, string>
  /** Planted in the body and title of each finer rule's page. */
  finer: Record<FinerMark, { body: string; title: string }>
  /** A username added to each access list: no browser may ever receive one. */
  usernames: Record<ListName, string>
}

export function newMarkers(): Markers {
  const token = () => crypto.randomBytes(6).toString('hex')
  const sections = Object.keys(MARKED_PAGES) as MarkedSection[]
  const make = (kind: string) =>
    Object.fromEntries(sections.map((section) => [section, `${kind}${section.replace('-', '')}${token()}`])) as Record<MarkedSection, string>
  const usernames = Object.fromEntries(Object.keys(AUDIT_ACCESS_CONFIG.lists).map((list) => [list, `audituser${list.toLowerCase()}${token()}`])) as Record<ListName, string>
  const finer = Object.fromEntries((Object.keys(FINER_MARKED_PAGES) as FinerMark[]).map((mark) => [mark, { body: `leakfinerbody${mark}${token()}`, title: `leakfinertitle${mark}${token()}` }])) as Markers['finer']
  return { body: make('leakbody'), title: make('leaktitle'), finer, usernames }
}
