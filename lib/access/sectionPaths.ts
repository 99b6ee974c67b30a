/**
 * Where a declared section lives: its pages under `/docs/<id>` (content/docs/<id>/), and the files
 * built from them beneath (lib/access/planAggregates.ts), so the section's one rule governs them all.
 * Every consumer asks here.
 */
/** The docs' root page (content/docs/index.mdx), which lists the sections; the sections lie below it. */
export const DOCS_ROOT = '/docs'

export const sectionPrefix = (id: string) => `${DOCS_ROOT}/${id}`

/** Whether a canonical route is the section's root or lies below it. */
export const inSection = (route: string, id: string) => route === sectionPrefix(id) || route.startsWith(`${sectionPrefix(id)}/`)

/**
 * A path segment that starts with `_` is the site's own (`/_next/`, a folder's words below): no
 * page, folder, public folder (the content check) or rule or public path (./compileAccess.ts) may
 * name one.
 */
export const isReservedSegment = (segment: string) => segment.startsWith('_')

/**
 * The path a folder's own words (its `_meta` separators, menus and links; a section's description)
 * are decided by: one inside the folder, a reserved segment (isReservedSegment) that nothing else can name. The folder's own route is its index page's, which an
 * exact rule or a public path may open to readers of that page alone; the words are for readers of
 * what the folder holds, whom the first prefix rule over it names. The top level's are the navbar's,
 * for the home page's readers (every signed-in reader, as shipped): its links to pages still go to
 * readers who may open them alone.
 */
const FOLDER_WORDS_NAME = '_meta'
export const folderWordsPath = (folderRoute: string) => (folderRoute === '/' ? '/' : `${folderRoute}/${FOLDER_WORDS_NAME}`)
