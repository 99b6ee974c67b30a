import crypto from 'node:crypto'
import shipped from '../../access.config'
import type { AccessConfig, ListName, PathRule, Requirement } from '../../lib/access/types'

/** The two pages of an audit profile whose rules are finer than a section: one in a folder, one on its own. */
export type FinerMark = 'folder' | 'page'

export interface AuditProfile {
  /** Lists the profile adds to the shipped ones. */
  lists: Record<ListName, string>
  /** Rules finer than a section, put before the shipped ones (the first rule that matches decides). */
  rules: PathRule[]
  /** Who may read what no rule names, where the profile changes the shipped fallback. */
  fallback?: Requirement
  /** Where the audit plants the finer markers: a page of the restricted folder, and the restricted page. */
  marked: Record<FinerMark, string>
  /**
   * Pages per search shard (DOCS_SEARCH_SHARD_PAGES), or null for the shipped size. Null for the
   * profile that runs every browser test: the redesign parity test compares its search results
   * with one index per audience, which the shipped size gives a site of this size. Pagefind scores
   * each shard on its own, so merged shards may rank differently. 30 for the others, so the
   * internal section's 80 pages make several shards, which their leak audit and search tests cross.
   */
  searchShardPages: number | null
  /**
   * Whether the build's section titles and descriptions (access.config.ts) carry markers too. Not
   * in the profile that runs every browser test, whose tests read the shipped titles.
   */
  marksSectionWords: boolean
}

/**
 * Rules finer than a section that an audit build adds to the shipped ones, so the audit proves
 * that every file built from several pages follows the rule of each page in it. Each profile is a
 * configuration of another shape, and `npm test` audits a build of each:
 * - finance: a folder of the internal section given to a list of its own, whose reader (support1)
 *   may open nothing else of the section, and one internal page restricted to full access;
 * - sql-folder: a folder of the Twilio support section given to an internal reader and a group,
 *   which the section's own readers (support1) lose, and one leads page given to a group alone;
 * - widened: a folder of the internal section opened to every signed-in reader, and one leads page
 *   given to the Twilio section's readers instead of the leads readers; and what no rule names
 *   (the docs' index, the writers' files at the root of public/) given to every signed-in reader.
 */
export const AUDIT_PROFILES = {
  finance: {
    lists: { auditFolderUsers: 'support1' },
    rules: [
      { path: '/docs/internal/to-be-refined/finance', match: 'prefix', require: 'auditFolderUsers' },
      { path: '/docs/internal/guidelines/secrets-management', match: 'exact', require: 'fullAccessUsers' },
    ],
    marked: {
      folder: 'content/docs/internal/to-be-refined/finance/quill-money-api.mdx',
      page: 'content/docs/internal/guidelines/secrets-management.mdx',
    },
    searchShardPages: null,
    marksSectionWords: false,
  },
  'sql-folder': {
    lists: { auditSqlUsers: 'internal1, group:dba', auditQuoteUsers: 'group:support-team' },
    rules: [
      { path: '/docs/support-twilio/sql-queries', match: 'prefix', require: 'auditSqlUsers' },
      { path: '/docs/leads/endpoints/get-quote-fees', match: 'exact', require: 'auditQuoteUsers' },
    ],
    marked: {
      folder: 'content/docs/support-twilio/sql-queries/overall.mdx',
      page: 'content/docs/leads/endpoints/get-quote-fees.mdx',
    },
    searchShardPages: 30,
    marksSectionWords: true,
  },
  widened: {
    lists: {},
    fallback: 'signedIn',
    rules: [
      { path: '/docs/internal/architecture', match: 'prefix', require: 'signedIn' },
      { path: '/docs/leads/environments', match: 'exact', require: 'twilioSupportUsers' },
    ],
    marked: {
      folder: 'content/docs/internal/architecture/design-and-architecture.mdx',
      page: 'content/docs/leads/environments.mdx',
    },
    searchShardPages: 30,
    marksSectionWords: true,
  },
} as const satisfies Record<string, AuditProfile>

export type AuditProfileName = keyof typeof AUDIT_PROFILES
export const AUDIT_PROFILE_NAMES = Object.keys(AUDIT_PROFILES) as AuditProfileName[]

/** An audit build's access configuration: the shipped one with the profile's lists, and its finer rules first. */
export function auditAccessConfig(name: AuditProfileName): AccessConfig {
  const profile: AuditProfile = AUDIT_PROFILES[name]
  return { ...shipped, lists: { ...shipped.lists, ...profile.lists }, rules: [...profile.rules, ...shipped.rules], fallback: profile.fallback ?? shipped.fallback }
}

/** Where the audit build plants the shipped sections' markers: one page of each, chosen to cover a nested page and two category index pages. */
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

/** A declared section's id: the audit marks every section access.config.ts declares, an added one too (markedFilesOf). */
export type MarkedSection = string

/**
 * Each section's own `_meta` gets a separator titled with a marker: words of the folder's own,
 * which only readers who may open the folder may receive, though a finer rule gives another reader
 * a page inside it (the folder's level then ships in that reader's page map).
 */
export const MARKED_METAS = {
  leads: 'content/docs/leads/_meta.ts',
  internal: 'content/docs/internal/_meta.ts',
  'support-twilio': 'content/docs/support-twilio/_meta.ts',
} as const satisfies Record<keyof typeof MARKED_PAGES, string>

/** The files the audit marks in one section: a page (its title and body), an image and the section's own `_meta`. */
export interface MarkedFiles {
  page: string
  image: string
  meta: string
}

/** What the audit adds to a section that has no SVG image or no `_meta` of its own, to mark them. */
export const ADDED_IMAGE = 'images/audit-marker.svg'
export const ADDED_META = '_meta.ts'

/**
 * The files the audit marks in each declared section, in the sections' order: the chosen ones for
 * the shipped sections; for another (a section an admin added), its entry page, its first SVG
 * image, and its `_meta` file, or where the audit adds an image or a `_meta` it lacks (ADDED_IMAGE,
 * ADDED_META). So a new section is audited with no change here.
 */
export function markedFilesOf(sections: readonly { id: string; entry: string }[], files: { pages: readonly { file: string; route: string }[]; publicFiles: readonly { file: string }[] }): Record<MarkedSection, MarkedFiles> {
  const chosen = (id: string): MarkedFiles | null =>
    id in MARKED_PAGES ? { page: MARKED_PAGES[id as keyof typeof MARKED_PAGES], image: MARKED_IMAGES[id as keyof typeof MARKED_IMAGES], meta: MARKED_METAS[id as keyof typeof MARKED_METAS] } : null
  return Object.fromEntries(
    sections.map(({ id, entry }) => {
      const folder = `content/docs/${id}/`
      const shipped = chosen(id)
      if (shipped && files.pages.some((page) => page.file === shipped.page)) return [id, shipped]
      const page = files.pages.find((candidate) => candidate.route === entry) ?? files.pages.find((candidate) => candidate.file.startsWith(folder))
      if (!page) throw new Error(`the audit finds no page of section "${id}" to mark (none under ${folder})`)
      const image = files.publicFiles.find(({ file }) => file.startsWith(`public/docs/${id}/`) && file.endsWith('.svg'))?.file ?? `public/docs/${id}/${ADDED_IMAGE}`
      return [id, { page: page.file, image, meta: `${folder}${ADDED_META}` }]
    })
  )
}

/**
 * A writer's file at the root of public/: no rule names it, so it needs full access (the
 * fallback), though the sign-in page is at the root too.
 */
export const MARKED_ROOT_FILE = 'public/audit-root-note.txt'

export interface Markers {
  /** Text planted in the body of the marked page. */
  body: Record<MarkedSection, string>
  /** Text planted in the section's marked image, which follows its own path's rule. */
  image: Record<MarkedSection, string>
  /** Text planted in the marked page's title (front matter), which Nextra puts into page maps. */
  title: Record<MarkedSection, string>
  /** The title of a separator planted in the section's own `_meta` (MARKED_METAS). */
  meta: Record<MarkedSection, string>
  /** A writer's comment planted in the marked page (MDX comments and Markdown's `[//]: #` idiom): no reader is shown it, so none may receive it. */
  comment: Record<MarkedSection, string>
  /** Planted in the body and title of each finer rule's page. */
  finer: Record<FinerMark, { body: string; title: string }>
  /** A username added to each access list: no browser may ever receive one. */
  usernames: Record<ListName, string>
  /** A group added to each access list (as `group:<name>`), which no user is in: no browser may ever receive one either. */
  groups: Record<ListName, string>
  /** The text of MARKED_ROOT_FILE. */
  rootFile: string
  /** Appended to each section's title and description in the build's access.config.ts, or null where the profile leaves them (AuditProfile.marksSectionWords). */
  sectionWords: Record<MarkedSection, { title: string; description: string }> | null
}

/** Any marker newMarkers plants in the docs (`leak`, its kind and section, and a random token), and no word of the shipped site's. */
export const PLANTED_MARKER = /leak[a-z0-9]{12,}/

export function newMarkers(config: AccessConfig, sections: readonly MarkedSection[], marksSectionWords = false): Markers {
  const token = () => crypto.randomBytes(6).toString('hex')
  const make = (kind: string) =>
    Object.fromEntries(sections.map((section) => [section, `${kind}${section.replace(/-/g, '')}${token()}`])) as Record<MarkedSection, string>
  const perList = (kind: string) => Object.fromEntries(Object.keys(config.lists).map((list) => [list, `${kind}${list.toLowerCase()}${token()}`])) as Record<ListName, string>
  const finer = Object.fromEntries((['folder', 'page'] as const).map((mark) => [mark, { body: `leakfinerbody${mark}${token()}`, title: `leakfinertitle${mark}${token()}` }])) as Markers['finer']
  const sectionWords = marksSectionWords
    ? Object.fromEntries(sections.map((section) => [section, { title: `leaksectiontitle${section.replace(/-/g, '')}${token()}`, description: `leaksectiondescription${section.replace(/-/g, '')}${token()}` }]))
    : null
  return { body: make('leakbody'), image: make('leakimage'), title: make('leaktitle'), meta: make('leakmeta'), comment: make('leakcomment'), finer, usernames: perList('audituser'), groups: perList('auditgroup'), rootFile: `leakrootfile${token()}`, sectionWords }
}

/** The configuration with each section's title and description marked (Markers.sectionWords), or as it is. */
export function withSectionWords(config: AccessConfig, markers: Markers): AccessConfig {
  const words = markers.sectionWords
  if (words === null) return config
  return { ...config, sections: config.sections.map((section) => ({ ...section, title: `${section.title} ${words[section.id].title}`, description: `${section.description} ${words[section.id].description}` })) }
}
