/**
 * Next's client route manifests, split by audience.
 *
 * `_buildManifest.js` (every route and its chunk files) and `_ssgManifest.js` (the routes with
 * static props) are loaded by every page, the sign-in page included, so as Next writes them they
 * tell anyone every route of every section. After the split:
 * - the two files at their usual URLs hold only the public routes;
 * - each audience (the routes one rule governs) gets a script of its own under ROUTE_MANIFEST_DIR,
 *   which the asset-route map puts under that audience's rule;
 * - `_buildManifest.js` asks the authority for the reader's view, loads the scripts it names, and
 *   only then hands Next the merged manifest;
 * - each audience's script also carries its page-map fragment (pipeline/pageMaps.ts), which the
 *   theme merges into the page's navigation (lib/navigation/mergePageMaps.ts).
 * One script per audience, so the files grow with the number of rules, not with the combinations
 * of sections a reader may hold. A route the reader's manifest lacks makes Next load the page in
 * full, which the authority decides.
 *
 * Each script is named by its audience's id and governed by its audience's route, both of which
 * come from the rule alone: a writer's edit changes what a script holds, never its name or the
 * asset-route map, so the edge function stays as it is. A name that does not change with the
 * bytes is served for revalidation, not as immutable (edge/cacheHeaders.ts), so a reader's
 * browser still gets the edited navigation.
 */
import vm from 'node:vm'
import { describeRule, type CompiledAccess } from '../../lib/access'
import { audienceKey, type Audience } from '../../lib/access/planAggregates'
import { normalisePath } from '../../lib/access/normalisePath'
import { READER_VIEW_PATH, routeManifestKey } from '../../lib/access/readerView'
import { PAGE_MAP_EVENT, type PageMapFragment } from '../../lib/navigation/mergePageMaps'
import { NamedError } from '../content/contentError'

/** Next's own pages that belong to no route's rule: the app shell and the error page, which every visitor loads. */
const FRAMEWORK_PAGES = new Set(['/_app', '/_error'])
const PUBLIC = describeRule({ kind: 'public' })

export interface RouteManifestPart {
  /** Object key under out/. */
  key: string
  /** The route whose rule governs the part (any route of its audience). */
  route: string
  source: string
}

export interface SplitManifests {
  buildManifest: string
  ssgManifest: string
  parts: RouteManifestPart[]
}

export class RouteManifestError extends NamedError {
  constructor(message: string) {
    super(`route manifests: ${message}`)
  }
}

const isDynamic = (route: string) => route.includes('[')

/**
 * A route's files with its style sheets first, each kind in its own order. Next's router splits
 * the list into scripts and style sheets by extension (next/dist/client/route-loader.js), so only
 * each kind's order means anything; a cached rebuild interleaves the two differently from a clean
 * build, and the file would differ for nothing.
 */
function cssFirst(value: unknown): unknown {
  if (!Array.isArray(value) || !value.every((file) => typeof file === 'string')) return value
  return [...value.filter((file) => file.endsWith('.css')), ...value.filter((file) => !file.endsWith('.css'))]
}

/** Runs one of Next's manifest scripts in an empty context and returns what it assigned to `self`. */
function evaluate(source: string, name: string): unknown {
  const self: Record<string, unknown> = {}
  vm.runInNewContext(source, { self })
  if (!(name in self)) throw new RouteManifestError(`the script does not set self.${name}; Next's manifest format changed`)
  return self[name]
}

/** The rule that governs a manifest route: its audience (lib/access/planAggregates.ts). */
function audienceOf(access: CompiledAccess, route: string): string {
  if (FRAMEWORK_PAGES.has(route)) return PUBLIC
  const canonical = normalisePath(route)
  if (canonical === null) throw new RouteManifestError(`route ${route} cannot be normalised`)
  return audienceKey(access, canonical)
}

/**
 * The loader that replaces `_buildManifest.js`: plain ES5, run before React, no bundler. It loads
 * the route manifests of the page's first reader view, and `self.__docsLoadRoutes(urls)` loads
 * those of a later one that are not loaded yet: a reader who signs in on the sign-in page moves to
 * their page without a reload, and their audiences' manifests (routes and navigation) come then
 * (lib/navigation/loadRouteManifests.ts).
 */
function loaderSource(base: Record<string, unknown>): string {
  return `(function(){var base=${JSON.stringify(base)},parts=[],loaded={},done=false;
self.__docsRoutes=function(part){parts.push(part);if(part.pageMap){(self.__docsPageMaps=self.__docsPageMaps||[]).push(part.pageMap);self.dispatchEvent&&self.dispatchEvent(new Event(${JSON.stringify(PAGE_MAP_EVENT)}))}};
function finish(){done=true;for(var i=0;i<parts.length;i++){var p=parts[i],k;for(k in p.pages)base[k]=p.pages[k];
if(self.__SSG_MANIFEST)for(var j=0;j<p.ssg.length;j++)self.__SSG_MANIFEST.add(p.ssg[j])}
base.sortedPages=Object.keys(base).filter(function(k){return k.charAt(0)==='/'}).sort();
self.__BUILD_MANIFEST=base;self.__BUILD_MANIFEST_CB&&self.__BUILD_MANIFEST_CB()}
self.__docsLoadRoutes=function(urls){var left=0;for(var i=0;i<urls.length;i++){var u=urls[i];if(loaded[u])continue;loaded[u]=true;left++;
var s=document.createElement('script');s.src=u;s.async=true;s.onload=s.onerror=function(){if(--left===0)finish()};document.head.appendChild(s)}
if(!left&&!done)finish()};
var view=self.__docsReaderView||(self.__docsReaderView=fetch(${JSON.stringify(READER_VIEW_PATH)},{credentials:'same-origin',cache:'no-store'}).then(function(r){if(!r.ok)throw new Error('reader view '+r.status);return r.json()}));
view.then(function(v){self.__docsLoadRoutes((v&&v.routeManifests)||[])},finish)})();`
}

export function splitRouteManifests(options: {
  access: CompiledAccess
  buildId: string
  /** The plan's audiences (lib/access/planAggregates.ts): each script's name and governing route. */
  audiences: ReadonlyArray<Pick<Audience, 'id' | 'rule' | 'governedBy'>>
  buildManifest: string
  ssgManifest: string
  /** Each audience's page-map fragment, by rule (pipeline/pageMaps.ts): it ships in the audience's script. */
  pageMaps?: ReadonlyMap<string, PageMapFragment>
}): SplitManifests {
  const { access, buildId } = options
  const manifest = evaluate(options.buildManifest, '__BUILD_MANIFEST') as Record<string, unknown>
  const ssg = [...(evaluate(options.ssgManifest, '__SSG_MANIFEST') as Set<string>)]

  const base: Record<string, unknown> = {}
  const groups = new Map<string, { pages: Record<string, unknown>; ssg: string[]; pageMap?: PageMapFragment }>()
  const group = (audience: string) => {
    if (!groups.has(audience)) {
      const pageMap = options.pageMaps?.get(audience)
      groups.set(audience, { pages: {}, ssg: [], ...(pageMap ? { pageMap } : {}) })
    }
    return groups.get(audience)!
  }
  // Every audience's page-map fragment ships, whether or not the audience has routes of its own:
  // docs pages are served by one dynamic route, which names no page.
  for (const audience of options.pageMaps?.keys() ?? []) group(audience)
  for (const [key, value] of Object.entries(manifest)) {
    if (key === 'sortedPages') continue
    // A dynamic route's pattern (`/[[...slug]]`) names no page: every reader's router needs it.
    if (!key.startsWith('/') || isDynamic(key)) {
      base[key] = key.startsWith('/') ? cssFirst(value) : value
      continue
    }
    const audience = audienceOf(access, key)
    if (audience === PUBLIC) base[key] = cssFirst(value)
    else group(audience).pages[key] = cssFirst(value)
  }
  const publicSsg: string[] = []
  for (const route of ssg) {
    if (isDynamic(route)) {
      publicSsg.push(route)
      continue
    }
    const audience = audienceOf(access, route)
    if (audience === PUBLIC) publicSsg.push(route)
    else group(audience).ssg.push(route)
  }

  const parts = [...groups].map(([rule, part]) => {
    const audience = options.audiences.find((candidate) => candidate.rule === rule)
    if (!audience) throw new RouteManifestError(`no audience of the plan is governed by "${rule}", which governs routes of Next's manifest; the plan and the build disagree`)
    part.ssg.sort()
    return { key: routeManifestKey(buildId, audience.id), route: audience.governedBy, source: `self.__docsRoutes(${JSON.stringify(part)});` }
  })
  return {
    buildManifest: loaderSource(base),
    ssgManifest: `self.__SSG_MANIFEST=new Set(${JSON.stringify(publicSsg)});self.__SSG_MANIFEST_CB&&self.__SSG_MANIFEST_CB()`,
    parts,
  }
}
