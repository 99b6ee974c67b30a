/**
 * The URL paths and names that the runtime (pages, edge, AI tools' server), the deploy and the
 * build must agree on, each spelt here once: a second spelling would drift, and a page, a rule or
 * an upload order would then miss the files it means (__tests__/architecture/layers.test.ts fails
 * on one). What a name is made of is here; what is done with it stays with its user.
 *
 * The prefixes hold only letters, `_` and `/`, which a regular expression reads as themselves, so
 * a pattern may hold them as they are.
 *
 * No Node or browser imports: the edge, the build and the page in the browser use it.
 */

/** Next's build files (scripts, styles, media, build manifests), under the site's root. */
export const BUILD_FILES_PREFIX = '/_next/static/'

/** The client's scripts and styles, which every page names, and the media its imports bring. */
export const BUILD_FILE_FOLDERS = {
  chunks: `${BUILD_FILES_PREFIX}chunks/`,
  pageChunks: `${BUILD_FILES_PREFIX}chunks/pages/`,
  css: `${BUILD_FILES_PREFIX}css/`,
  media: `${BUILD_FILES_PREFIX}media/`,
} as const

/**
 * The folders of content-hashed build code, which an earlier build's pages may still load: the
 * asset-route map gives each the rule of shared code (pipeline/steps/assetRoutes.ts), a route the
 * rules alone decide.
 */
export const BUILD_CODE_FOLDERS: readonly string[] = [BUILD_FILE_FOLDERS.chunks, BUILD_FILE_FOLDERS.css, BUILD_FILE_FOLDERS.media]

/** Where a page's data files live under the site's root, one folder per build (lib/access/pageFiles.ts names each). */
export const PAGE_DATA_PREFIX = '/_next/data/'

/** A page's Markdown is published beside the page: `<route>.md`. */
const MARKDOWN_SUFFIX = '.md'

/** Where a page's Markdown is published: beside the page, so it shares the page's URL folder. */
export const markdownKeyOf = (route: string) => `${route}${MARKDOWN_SUFFIX}`

/** The page path a Markdown URL path stands for (`/docs/x.md` is `/docs/x`), in any case of the suffix; other paths unchanged. */
export const pathOfMarkdownKey = (pathname: string) => (pathname.toLowerCase().endsWith(MARKDOWN_SUFFIX) ? pathname.slice(0, -MARKDOWN_SUFFIX.length) : pathname)

/** An audience's llms index, in its folder (llmstxt.org). */
export const LLMS_INDEX_FILE = 'llms.txt'

/** The root llms index, written per reader by the authority: it lists each audience's index the reader holds. */
export const ROOT_LLMS_PATH = `/${LLMS_INDEX_FILE}`

/**
 * The file name of part `part` (from 0) of an audience's full text cut into `count` parts:
 * `llms-full.txt` when one part holds it all, as llmstxt.org names a small site's full text, else
 * `llms-full-1.txt` … `llms-full-<n>.txt`.
 */
export const fullTextFile = (part: number, count: number) => (count === 1 ? 'llms-full.txt' : `llms-full-${part + 1}.txt`)

/** Whether a file name is one the build gives an audience's llms files (an index, or a part of its full text). */
export const isLlmsFileName = (name: string) => name === LLMS_INDEX_FILE || /^llms-full(-[1-9][0-9]*)?\.txt$/.test(name)

/** Where aggregates live whose rule governs no folder of its own (an exact rule, the fallback). */
export const AUDIENCES_DIR = '/_audiences/'

/** The folder of an audience's search index, in the audience's folder (Pagefind's own name for it). */
export const SEARCH_FOLDER = '_pagefind'

/** A search index's entry file, in its folder (Pagefind's own name for it): it names the index's metadata. */
export const SEARCH_ENTRY_FILE = 'pagefind-entry.json'

/** An audience's page catalog for the AI tools' server, in the audience's folder (lib/aiTools/pageCatalog.ts). */
export const CATALOG_FILE = 'pages.json'

/** The sign-in page. */
export const SIGN_IN_PAGE = '/login'

/** The sign-in URL that brings the reader back to `next` (a path on this site, lib/auth/safeNextPath.ts) afterwards. */
export const signInUrl = (next: string) => `${SIGN_IN_PAGE}?next=${encodeURIComponent(next)}`

/** The page that tells a signed-in reader they may not open a page. */
export const NO_ACCESS_PAGE = '/unauthorized'

/** Where a reader whose cookies are too large for the edge goes: it explains, and clears the stale sign-in cookies. */
export const OVERSIZED_COOKIES_PAGE = '/session-too-large'

/**
 * A key no build writes (it lies under a file of out/, which no deploy can upload): a request the
 * authorizer answers as not found is sent there, so the origin answers exactly as for any path
 * that is not there (CloudFront's 404 page, or the local server's).
 */
export const ABSENT_OBJECT_KEY = '/404.html/absent'

/** The no-access URL for a refused path `from`. */
export const noAccessUrl = (from: string) => `${NO_ACCESS_PAGE}?from=${encodeURIComponent(from)}`

/**
 * The environment variable by which the build tells `next build` which docs routes to render (a
 * file of routes): the others are kept from the last out/ (pipeline/render/renderPlan.ts).
 */
export const RENDER_ROUTES_ENV = 'DOCS_RENDER_ROUTES'
