/**
 * In which phase each file of out/ is uploaded. Every file goes up after every file that may name
 * it, so a reader who opens any file mid-deploy gets one whose references are all there (the old
 * ones, or new ones already uploaded): the content-hashed build files first, then what pages and
 * indexes point at, then the indexes, then the pages themselves, then the route manifests that
 * list the pages. A route manifest under a name the bucket does not hold yet (a new build ID, a new
 * audience) goes up with the build files: only the reader view names it, and the edge that names it
 * is deployed before the upload (docs/deploy.md), so every page would otherwise load without it.
 */
import { BUILD_FILES_PREFIX, CATALOG_FILE, LLMS_INDEX_FILE, SEARCH_ENTRY_FILE, SEARCH_FOLDER } from '../../lib/pathFormats'
import { isRouteManifestKey } from '../../lib/access/readerView'
import { SHARD_LIST_FILE } from '../../lib/search/searchShards'

/** The files that list others: a search index's entry, an audience's catalog and its llms index. */
const INDEX_FILES = [SEARCH_ENTRY_FILE, CATALOG_FILE, LLMS_INDEX_FILE]

const PHASES = [
  // An audience's route manifest keeps its name within a build and lists its pages for client-side
  // navigation: after the pages, so it never sends a reader to a page not uploaded yet.
  { name: 'route manifests', test: (key: string) => isRouteManifestKey(`/${key}`) },
  // Chunks, style sheets, and each build's build manifest (named by the build id): new names,
  // which no page served today asks for.
  { name: 'build files', test: (key: string) => `/${key}`.startsWith(BUILD_FILES_PREFIX) },
  // A search index's metadata names its index and fragment files (uploaded in the phase below).
  { name: 'search metadata', test: (key: string) => key.endsWith('.pf_meta') },
  // Pagefind's entry names the metadata; an audience's catalog and llms.txt name its Markdown pages,
  // and llms.txt the parts of its full text, which go up with the content before it.
  { name: 'indexes', test: (key: string) => INDEX_FILES.some((name) => key === name || key.endsWith(`/${name}`)) },
  // A search index's shard list names its shards' folders, whose entries are uploaded in the phase above.
  { name: 'search shard lists', test: (key: string) => key.endsWith(`/${SEARCH_FOLDER}/${SHARD_LIST_FILE}`) },
  // Pages name all of the above; they go last.
  { name: 'pages', test: (key: string) => key.endsWith('.html') },
] as const

/** The phases in upload order; `content` (data, Markdown, search fragments, images, anything else) is second. */
export const PHASE_NAMES = ['build files', 'content', 'search metadata', 'indexes', 'search shard lists', 'pages', 'route manifests'] as const
export type PhaseName = (typeof PHASE_NAMES)[number]

/** The phase of an object key (no leading slash); `held`: whether the bucket holds that key already. */
export function phaseOf(key: string, held: boolean): PhaseName {
  const phase = PHASES.find(({ test }) => test(key))?.name ?? 'content'
  return phase === 'route manifests' && !held ? 'build files' : phase
}

/**
 * Whether an earlier build's file is kept for the grace window once out/ no longer has it: only
 * the content-hashed build code under `/_next/static/` that an open tab of that build may still
 * load (its chunks, style sheets, build manifest). It holds no page's text, so whatever rule the
 * edge of the day applies to its name, it gives away nothing.
 *
 * Everything else goes as soon as the pages that named it are replaced: pages' data files, search
 * files, llms files, catalogs, Markdown, images, and the route manifests (named by an audience,
 * they list its pages). Kept, they would be decided by today's rule for their path, which need not
 * be the rule they were built under (a page moved, a folder's finer rule removed or tightened). An
 * open tab that asks for a deleted data file gets a refusal, and Next's router then loads the page
 * anew (router.js: a data response that is not ok is an asset error, and an asset error navigates
 * the whole page).
 */
export function keptForOpenTabs(key: string): boolean {
  return isBuildCode(key)
}

/** Content-hashed build code: under `/_next/static/`, and not a route manifest. */
export function isBuildCode(key: string): boolean {
  return `/${key}`.startsWith(BUILD_FILES_PREFIX) && !isRouteManifestKey(`/${key}`)
}
