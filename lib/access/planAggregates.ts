/**
 * The planner of derived files: the one place that decides which files built from several pages
 * exist (search indexes, llms.txt, the full text's parts, route manifests, page maps), what each holds and
 * where each lives. Every build step that writes such a file takes this plan; none groups pages on
 * its own.
 *
 * The unit is the audience: the pages one rule governs (a section's rule, an admin's finer rule on
 * a folder or a page, the fallback). An aggregate holds the pages of exactly one audience and lives
 * where that same rule governs it, so whoever can fetch it may open every page in it (soundness),
 * and a reader who may open a page can fetch the aggregates of its audience (completeness). Rules
 * can be finer than sections, so grouping by section would hand a folder's text to readers of the
 * rest of its section.
 *
 * Pure: it reads the compiled rules, the page list and the pages' sizes, never the file system or
 * the lists' members.
 */
import crypto from 'node:crypto'
import type { CompiledAccess } from './compileAccess'
import { governingRoute, isFolderKey } from './governingRoute'
import { describeRule, governingRuleOf, requirementOf, type GoverningRule } from './decideAccess'
import { normalisePath } from './normalisePath'
import { objectKeyFor } from './objectKey'
import { DOCS_ROOT, inSection, sectionPrefix } from './sectionPaths'
import type { AudienceSummary } from './readerView'
import type { Requirement } from './types'
import { SHARD_LIST_FILE, shardFolder } from '../search/searchShards'
import { cutFullText, FULL_TEXT_PART_BYTES } from '../aiTools/fullTextParts'
import { fullTextEntryBytes, fullTextHeader, type PartPlace } from '../aiTools/llmsFiles'
import { AUDIENCES_DIR, CATALOG_FILE, fullTextFile, LLMS_INDEX_FILE, markdownKeyOf, SEARCH_ENTRY_FILE, SEARCH_FOLDER } from '../pathFormats'

/**
 * A docs page: the docs' root page or a page of a section. Each has its Markdown, and is in its
 * audience's llms files and page catalog. The root page belongs to no section, but it is a page
 * readers open like the others, decided by the rule that governs it (the fallback, as shipped).
 */
export const isDocsPage = (access: Pick<CompiledAccess, 'sections'>, route: string) =>
  route === DOCS_ROOT || access.sections.some((section) => inSection(route, section.id))

/**
 * How an index of an audience's files names it: its sections' titles; "Documentation" for one that
 * holds only the docs' root page among its docs pages; "Home" for one with no docs page.
 */
export function audienceTitle(audience: Pick<Audience, 'sections' | 'pages'>): string {
  return audience.sections.map((section) => section.title).join(' · ') || (audience.pages.includes(DOCS_ROOT) ? 'Documentation' : 'Home')
}

/** A section that an audience holds pages of, and the page a tab or home card opens for its readers. */
export interface AudienceSection {
  id: string
  title: string
  description: string
  /** The section's own entry page when the audience holds it, else the audience's first page there. */
  entry: string
}

export interface Audience {
  /**
   * Stable and safe to show its own readers: the section id for a section's rule, otherwise a hash
   * of the rule (it appears in URLs and in the reader's view, so it must not spell out a path).
   */
  id: string
  /** The rule in words (describeRule), for reports and errors; never shipped to a browser. */
  rule: string
  /**
   * What governs it: a section's own rule (`section` names the section), a rule an admin wrote,
   * the fallback (pages no rule names), or the public paths (pages anyone may read).
   */
  kind: 'section' | 'rule' | 'fallback' | 'public'
  section: string | null
  /** The rule's path (with a `/…` for a prefix rule), or null for the fallback and the public paths. */
  path: string | null
  requirement: Requirement | 'public'
  /** The pages the rule governs, sorted by route. */
  pages: string[]
  /** The sections it holds pages of, in navbar order. */
  sections: AudienceSection[]
  /** URL folder of its aggregates, ending in `/`. */
  base: string
  /**
   * A route the rule governs: the authority decides every file of the audience by it. Taken from
   * the rule (its path, its folder of aggregates), not from the pages, wherever the rule allows:
   * the edge function bakes it in, and a writer's added page must not change that function.
   */
  governedBy: string
}

export interface SearchIndexSpec {
  /** The audience id. */
  id: string
  /** Shown beside results: the audience's section titles, or "Home". */
  title: string
  /** URL path of the Pagefind bundle, ending in `/`. */
  basePath: string
  /** The bundle's directory relative to out/. */
  outDir: string
  /** The route whose rule the edge applies to every file of the bundle. */
  governedBy: string
  /** The pages it indexes. */
  pages: string[]
}

export interface LlmsFile {
  key: string
  audience: string
  /** false: the audience's index (llms.txt); true: a part of its full text (lib/aiTools/llmsFiles.ts). */
  full: boolean
  /** The title and line at the top of the file. */
  title: string
  description: string
  /** The index: every docs page of the audience; a part: its own. */
  pages: string[]
  /** A part's place among its audience's parts; null for the index. */
  place: PartPlace | null
}

export interface MarkdownFile {
  key: string
  route: string
}

/**
 * One audience's page catalog, for the AI tools' server (mcp/): each docs page's title, line and
 * last-updated date, and the audience's page-map fragment (its sidebar), like llms.txt but as data.
 */
export interface CatalogFile {
  key: string
  audience: string
  pages: string[]
}

export interface AggregatePlan {
  audiences: Audience[]
  /** Each page's audience id. */
  audienceOf: Record<string, string>
  search: SearchIndexSpec[]
  llms: LlmsFile[]
  markdown: MarkdownFile[]
  catalogs: CatalogFile[]
  /**
   * Planned files that do not lie under their own rule's paths, with the route whose rule governs
   * each (for the asset-route map): a page's Markdown beside a page of an exact rule, and the
   * folder (a key ending in `/`, lib/access/governingRoute.ts) of an audience whose aggregates
   * live under AUDIENCES_DIR, which decides its search files whatever Pagefind names them.
   */
  routes: Record<string, string>
}

export class AggregatePlanError extends Error {
  constructor(message: string) {
    super(`aggregate plan: ${message}`)
    this.name = 'AggregatePlanError'
  }
}

export interface PlanInputs {
  access: CompiledAccess
  /** Every page's canonical route (content/docs and the top-level MDX pages). */
  routes: readonly string[]
  /**
   * A docs page's body in bytes, to cut each audience's full text into parts of at most
   * `fullTextPartBytes` (lib/aiTools/fullTextParts.ts). Left out, each full text is one part.
   */
  bodyBytes?: (route: string) => number
  fullTextPartBytes?: number
}

/** The audience a canonical route belongs to, as a key: the rule that governs it, in words. */
export function audienceKey(access: CompiledAccess, route: string): string {
  return describeRule(governingRuleOf(access, route))
}

/** One notion of "the same audience" for the planner, its check and every step: the same rule. */
const sameRule = (a: GoverningRule, b: GoverningRule) => describeRule(a) === describeRule(b)

/** The section whose own rule this is, if it is one. */
function ownSection(access: CompiledAccess, governing: GoverningRule): string | null {
  if (governing.kind !== 'rule') return null
  const { rule } = governing
  return access.sections.find((section) => rule.match === 'prefix' && rule.path === sectionPrefix(section.id) && rule.require === section.readers)?.id ?? null
}

/** The id of the audience a canonical route belongs to. */
export function audienceIdOf(access: CompiledAccess, route: string): string {
  return audienceId(access, governingRuleOf(access, route))
}

function audienceId(access: CompiledAccess, governing: GoverningRule): string {
  return ownSection(access, governing) ?? 'a' + crypto.createHash('sha256').update(describeRule(governing)).digest('hex').slice(0, 10)
}

/**
 * The route an asset-route entry must give a planned file, or null when the file's own path is
 * already governed by the rule of `governedBy` (a page of the file's audience).
 */
function routeFor(access: CompiledAccess, key: string, governedBy: string, rule = describeRule(governingRuleOf(access, governedBy))): string | null {
  const own = normalisePath(key)
  return own !== null && describeRule(governingRuleOf(access, own)) === rule ? null : governedBy
}

/**
 * The route the authority decides an audience's files by: the first of the rule's own path, its
 * aggregates' folder, a file in that folder and (for the public pages) the public paths that the
 * rule governs, so that pages added, removed or retitled under the rule leave it as it is. Only
 * where none of those is the rule's does it fall back to the audience's first page.
 */
function ruleRoute(access: CompiledAccess, governing: GoverningRule, base: string, pages: readonly string[]): string {
  const candidates = [
    ...(governing.kind === 'rule' ? [governing.rule.path] : []),
    normalisePath(base),
    normalisePath(`${base}${CATALOG_FILE}`),
    ...(governing.kind === 'public' ? [...access.publicPaths].sort() : []),
  ]
  const own = candidates.find((route): route is string => route !== null && sameRule(governingRuleOf(access, route), governing))
  return own ?? pages[0]
}

/** Shallow pages first (a folder's own page before the pages in it), then by route. */
const byDepth = (a: string, b: string) => a.split('/').length - b.split('/').length || a.localeCompare(b)

/** The first of `routes` by byDepth: one pass, as a section's tens of thousands of pages need no sort for it. */
const shallowest = (routes: readonly string[]) => routes.reduce((first, route) => (byDepth(route, first) < 0 ? route : first))

/** The folder a prefix rule governs, if every aggregate file placed there is governed by that rule. */
function naturalBase(access: CompiledAccess, governing: GoverningRule): string | null {
  if (governing.kind !== 'rule' || governing.rule.match !== 'prefix') return null
  const base = governing.rule.path === '/' ? '/' : `${governing.rule.path}/`
  const probes = [LLMS_INDEX_FILE, fullTextFile(0, 1), fullTextFile(0, 2), CATALOG_FILE, `${SEARCH_FOLDER}/${SHARD_LIST_FILE}`, `${SEARCH_FOLDER}/${shardFolder(0)}/${SEARCH_ENTRY_FILE}`, `${SEARCH_FOLDER}/${shardFolder(0)}/index/x.pf_index`]
  const allGoverned = probes.every((name) => {
    const route = normalisePath(base + name)
    return route !== null && sameRule(governingRuleOf(access, route), governing)
  })
  return allGoverned ? base : null
}

export function planAggregates({ access, routes, bodyBytes, fullTextPartBytes = FULL_TEXT_PART_BYTES }: PlanInputs): AggregatePlan {
  const groups = new Map<string, { governing: GoverningRule; pages: string[] }>()
  const audienceOf: Record<string, string> = {}
  for (const raw of [...new Set(routes)].sort()) {
    const route = normalisePath(raw)
    if (route === null || route !== raw) throw new AggregatePlanError(`page route "${raw}" is not canonical`)
    const governing = governingRuleOf(access, route)
    const key = describeRule(governing)
    if (!groups.has(key)) groups.set(key, { governing, pages: [] })
    groups.get(key)!.pages.push(route)
  }

  const audiences: Audience[] = []
  const plannedRoutes: Record<string, string> = {}
  /** A planned file (or folder) that its own path does not put under its audience's rule gets a route that does. */
  const place = (key: string, governedBy: string, rule?: string) => {
    const route = routeFor(access, isFolderKey(key) ? `${key}${CATALOG_FILE}` : key, governedBy, rule)
    if (route !== null) plannedRoutes[key] = route
  }
  for (const { governing, pages } of groups.values()) {
    const id = audienceId(access, governing)
    const natural = naturalBase(access, governing)
    const base = natural ?? `${AUDIENCES_DIR}${id}/`
    const sections = access.sections.flatMap((section): AudienceSection[] => {
      const own = pages.filter((route) => inSection(route, section.id))
      if (own.length === 0) return []
      const entry = own.includes(section.entry) ? section.entry : shallowest(own)
      return [{ id: section.id, title: section.title, description: section.description, entry }]
    })
    const section = ownSection(access, governing)
    const kind = section ? 'section' : governing.kind
    const path = governing.kind === 'rule' ? `${governing.rule.path}${governing.rule.match === 'prefix' ? '/…' : ''}` : null
    const governedBy = ruleRoute(access, governing, base, pages)
    audiences.push({ id, rule: describeRule(governing), kind, section, path, requirement: requirementOf(governing), pages, sections, base, governedBy })
    // A folder of its own holds only this audience's files (its id is the rule's), so its rule decides them all.
    if (natural === null) place(base, governedBy)
    for (const route of pages) audienceOf[route] = id
  }
  // What every signed-in reader holds first (the home page: the search box's first index, which
  // every reader has), then the sections in navbar order, then the others by their first page.
  const sectionOrder = (audience: Audience) => {
    if (audience.requirement === 'signedIn' || audience.requirement === 'public') return -1
    const at = access.sections.findIndex((section) => section.id === audience.section)
    return at < 0 ? access.sections.length : at
  }
  audiences.sort((a, b) => sectionOrder(a) - sectionOrder(b) || a.pages[0].localeCompare(b.pages[0]))

  const search: SearchIndexSpec[] = audiences.map((audience) => ({
    id: audience.id,
    title: audienceTitle(audience),
    basePath: `${audience.base}${SEARCH_FOLDER}/`,
    outDir: `${audience.base}${SEARCH_FOLDER}`.slice(1),
    governedBy: audience.governedBy,
    pages: audience.pages,
  }))

  // Markdown is for the docs pages: the docs' root and those of the sections (a public one's is public too).
  const llms: LlmsFile[] = []
  const markdown: MarkdownFile[] = []
  const catalogs: CatalogFile[] = []
  for (const audience of audiences) {
    const docs = audience.pages.filter((route) => isDocsPage(access, route))
    if (docs.length === 0) continue
    for (const route of docs) {
      const key = markdownKeyOf(route)
      markdown.push({ key, route })
      // Each page of the audience is governed by its rule.
      place(key, route, audience.rule)
    }
    const title = audienceTitle(audience)
    const description = audience.section ? audience.sections[0].description : `Part of ${title}: ${docs.length} page${docs.length === 1 ? '' : 's'}.`
    // Each lies in the audience's folder: its own rule's, or one that its folder key decides.
    llms.push({ key: `${audience.base}${LLMS_INDEX_FILE}`, audience: audience.id, full: false, title, description, pages: docs, place: null })
    const sized = docs.map((route) => ({ route, bytes: bodyBytes ? fullTextEntryBytes(route, bodyBytes(route)) : 0 }))
    const headerBytes = (count: number) => Buffer.byteLength(fullTextHeader({ title }, { number: count, of: count }))
    const { count, parts } = cutFullText(sized, headerBytes, fullTextPartBytes)
    for (const { part, routes: held } of parts) {
      llms.push({ key: `${audience.base}${fullTextFile(part, count)}`, audience: audience.id, full: true, title, description, pages: held, place: { number: part + 1, of: count } })
    }
    catalogs.push({ key: `${audience.base}${CATALOG_FILE}`, audience: audience.id, pages: docs })
  }

  const plan: AggregatePlan = { audiences, audienceOf, search, llms, markdown, catalogs, routes: plannedRoutes }
  assertPlan(plan, access)
  return plan
}

/**
 * The plan's own check, independent of how it was made: every aggregate lies where, after the
 * planned routes, one rule governs it, and that rule is the one of every page it holds.
 */
export function assertPlan(plan: AggregatePlan, access: CompiledAccess): void {
  // A search file Pagefind names by its content, in a shard (lib/search/searchShards.ts), as the edge would meet it.
  const entry = (basePath: string) => `${basePath}${shardFolder(0)}/fragment/en_0123abc.pf_fragment`
  // A route's rule is read once: a page is in several files (its llms index and part, its catalog, its search index), and its Markdown is governed by the page.
  const routeRules = new Map<string, string>()
  const ruleOfRoute = (route: string) => {
    let rule = routeRules.get(route)
    if (rule === undefined) routeRules.set(route, (rule = describeRule(governingRuleOf(access, route))))
    return rule
  }
  const ruleOfFile = (key: string) => {
    const objectKey = objectKeyFor(key)
    const route = objectKey === null ? null : governingRoute(objectKey, plan.routes)
    if (route === null) throw new AggregatePlanError(`${key} is not a valid path`)
    return ruleOfRoute(route)
  }
  const check = (key: string, pages: readonly string[]) => {
    const files = ruleOfFile(key)
    for (const page of pages) {
      if (files !== ruleOfRoute(page)) throw new AggregatePlanError(`${key} (${files}) would hold ${page} (${ruleOfRoute(page)})`)
    }
  }
  for (const spec of plan.search) check(entry(spec.basePath), spec.pages)
  for (const file of plan.llms) check(file.key, file.pages)
  for (const file of plan.markdown) check(file.key, [file.route])
  for (const file of plan.catalogs) check(file.key, file.pages)
}

/** The part of the plan the authority bakes in, to tell each reader what they may open. */
export function audienceSummaries(plan: AggregatePlan): AudienceSummary[] {
  return plan.audiences.map((audience) => ({
    id: audience.id,
    governedBy: audience.governedBy,
    sections: audience.sections.map(({ id, entry }) => ({ id, entry })),
    search: plan.search.find((spec) => spec.id === audience.id)?.basePath ?? null,
    llms: plan.llms.find((file) => file.audience === audience.id && !file.full)?.key ?? null,
    catalog: plan.catalogs.find((file) => file.audience === audience.id)?.key ?? null,
    title: audienceTitle(audience),
  }))
}
