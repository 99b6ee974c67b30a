import crypto from 'node:crypto'
import accessConfig from '../../access.config'
import type { ListName } from '../../lib/access/types'

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
  /** A username added to each access list: no browser may ever receive one. */
  usernames: Record<ListName, string>
}

export function newMarkers(): Markers {
  const token = () => crypto.randomBytes(6).toString('hex')
  const sections = Object.keys(MARKED_PAGES) as MarkedSection[]
  const make = (kind: string) =>
    Object.fromEntries(sections.map((section) => [section, `${kind}${section.replace('-', '')}${token()}`])) as Record<MarkedSection, string>
  const usernames = Object.fromEntries(Object.keys(accessConfig.lists).map((list) => [list, `audituser${list.toLowerCase()}${token()}`])) as Record<ListName, string>
  return { body: make('leakbody'), title: make('leaktitle'), usernames }
}
