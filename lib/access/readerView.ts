/**
 * What the browser is told about its reader, and how it decides with that alone.
 *
 * The lists of who may read what never reach a browser: the authority that serves the files (the
 * edge authorizer, and the local server that runs it) answers READER_VIEW_PATH with this view of
 * the one reader who asked. It names that reader, the path rules they pass, and the sections,
 * search indexes, llms files and route manifests they may open, and nothing else.
 */
import type { CompiledAccess } from './compileAccess'
import { decideAccess } from './decideAccess'
import { FULL_ACCESS_LIST, type Decision, type PathRule } from './types'
import { BUILD_FILES_PREFIX } from '../pathFormats'

/** Where the authority answers with the reader's view. Generated per request, never stored. */
export const READER_VIEW_PATH = '/_reader.json'

/** A section the reader may open: what its navbar tab, home card and search results need. */
export interface ReaderSection {
  id: string
  title: string
  description: string
  /** The section's entry page. */
  href: string
}

/** A search index the reader may load: one audience's (the pages one rule governs). */
export interface ReaderSearchIndex {
  id: string
  /** URL path of the Pagefind bundle, ending in `/`. */
  basePath: string
}

/**
 * What the authority knows of one audience (the pages one rule governs) from the build's plan
 * (lib/access/planAggregates.ts): where its aggregates are and which page opens each section it
 * holds pages of. The authority names an audience to a reader only if the reader may open its pages.
 */
export interface AudienceSummary {
  id: string
  /** A page the audience's rule governs: the reader may open the audience if they may open this. */
  governedBy: string
  /** Each section it holds pages of, with the page a tab or card opens for its readers. */
  sections: Array<{ id: string; entry: string }>
  /** Its search index's base path, if it has one. */
  search: string | null
  /**
   * Its llms.txt, if it has one: the index that lists its pages and its full text's parts. The
   * parts are not named here: how many there are follows the pages' sizes, and an edit must not
   * change what the authority bakes in.
   */
  llms: string | null
  /** Its page catalog for the AI tools' server (lib/access/planAggregates.ts CatalogFile), if it has one. */
  catalog: string | null
  /** Its sections' titles, or "Home": how an index of its llms files names it. */
  title: string
}

export interface ReaderView {
  /** The verified reader, or null when nobody (or nobody valid) is signed in. */
  username: string | null
  /** Readable by anyone (the sign-in and error pages). */
  publicPaths: string[]
  /** The path rules this reader passes, in the configuration's order. */
  open: Array<Pick<PathRule, 'path' | 'match'>>
  /** Whether this reader passes the rule for paths that no rule names. */
  elsewhere: boolean
  /**
   * Whether this reader may open the home page: said apart, since `open` leaves out the rules they
   * fail, and one that keeps the home page from them would read as open under `elsewhere`.
   */
  home: boolean
  sections: ReaderSection[]
  search: ReaderSearchIndex[]
  /** The llms.txt files of the pages this reader may open (Markdown for AI tools). */
  llms: string[]
  /** Scripts that add this reader's routes to Next's client-side route manifest. */
  routeManifests: string[]
}

/** The view of a visitor who is not signed in: the public pages and nothing else. */
export function anonymousView(publicPaths: readonly string[]): ReaderView {
  return { username: null, publicPaths: [...publicPaths], open: [], elsewhere: false, home: false, sections: [], search: [], llms: [], routeManifests: [] }
}

/**
 * The reader's view as rules the one decision function can read: every rule they pass requires
 * only being signed in, and every other path needs a list that holds nobody. A rule they fail is
 * left out (its path may name a section they may not know of), so where a rule they pass sits
 * inside one they fail, the browser may offer a link that the authority then refuses. The home
 * page, which names nothing, is decided first, by the view's own word on it. The browser's answer
 * is user interface; the authority's is the protection.
 */
const viewAccessCache = new WeakMap<ReaderView, CompiledAccess>()

function accessForView(view: ReaderView): CompiledAccess {
  const cached = viewAccessCache.get(view)
  if (cached) return cached
  const nobody = { users: new Set<string>(), groups: new Set<string>() }
  const compiled: CompiledAccess = {
    protectDocs: true,
    members: { [FULL_ACCESS_LIST]: nobody },
    sections: [],
    rules: [{ path: '/', match: 'exact' as const, require: view.home ? 'signedIn' : FULL_ACCESS_LIST }, ...view.open.map((rule) => ({ ...rule, require: 'signedIn' as const }))],
    fallback: view.elsewhere ? 'signedIn' : 'fullAccessUsers',
    publicPaths: new Set(view.publicPaths),
    groupsClaim: null,
  }
  viewAccessCache.set(view, compiled)
  return compiled
}

/** The browser's decision for `path`, from the reader's view alone. */
export function decideForView(view: ReaderView, path: string): Decision {
  return decideAccess(accessForView(view), path, view.username === null ? null : { username: view.username })
}

/**
 * Where a signed-in reader starts when they asked for no page: the home page, or, when a rule keeps
 * it from them, the first section they may open (`title` names it). Else the home page, which then
 * says they have no access.
 */
export function landingFor(view: ReaderView): { href: string; title: string | null } {
  // Each section's href is one the authority lets the reader open.
  const section = view.username !== null && !view.home ? view.sections[0] : undefined
  return section ? { href: section.href, title: section.title } : { href: '/', title: null }
}

/**
 * Where postbuild writes the scripts that add each audience's routes to Next's route manifest
 * (`/_next/static/<build>/_routes/<audience id>.js`); the asset-route map says whose rule governs
 * each. Named by the audience, which a rule makes, not by what the script holds, which pages
 * make: so these files, unlike the rest of `/_next/static/`, are kept by no cache (edge/cacheHeaders.ts).
 */
export const ROUTE_MANIFEST_DIR = '_routes'
export const routeManifestKey = (buildId: string, audienceId: string) => `${BUILD_FILES_PREFIX}${buildId}/${ROUTE_MANIFEST_DIR}/${audienceId}.js`
const ROUTE_MANIFEST_KEY = new RegExp(`^${BUILD_FILES_PREFIX}[^/]+/${ROUTE_MANIFEST_DIR}/[a-z0-9][a-z0-9-]*\\.js$`)
export const isRouteManifestKey = (key: string) => ROUTE_MANIFEST_KEY.test(key)
