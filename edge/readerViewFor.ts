/**
 * The authority's answer to READER_VIEW_PATH: the one reader's view, computed from the lists
 * that only the authority holds. Served `private, no-store` (edge/cacheHeaders.ts).
 */
import type { CompiledAccess } from '../lib/access/compileAccess'
import { decideAccess, decidesPaths, passes } from '../lib/access/decideAccess'
import { isRouteManifestKey, type AudienceSummary, type ReaderSection, type ReaderView, anonymousView } from '../lib/access/readerView'
import type { AssetRoutes } from '../lib/access/governingRoute'
import { folderWordsPath, inSection, sectionPrefix } from '../lib/access/sectionPaths'
import type { AccessUser } from '../lib/access/types'

/** A home card's line for a section the reader may open only part of. */
export const PART_OF_SECTION = 'The part of this section that your account may open.'

export interface ReaderViewSources {
  access: CompiledAccess
  /** Route-manifest scripts (postbuild) and the route whose rule governs each. */
  routeManifests: ReadonlyArray<readonly [key: string, route: string]>
  /** The build's audiences (lib/access/planAggregates.ts), in the plan's order. */
  audiences: readonly AudienceSummary[]
}

export function readerViewSources(access: CompiledAccess, assetRoutes: AssetRoutes, audiences: readonly AudienceSummary[]): ReaderViewSources {
  return { access, routeManifests: Object.entries(assetRoutes).filter(([key]) => isRouteManifestKey(key)), audiences }
}

/** What a server knows of the build (the edge's and the AI tools' servers alike). */
export interface BuildFacts {
  access: CompiledAccess
  assetRoutes: AssetRoutes
  audiences: readonly AudienceSummary[]
}

const sourcesByFacts = new WeakMap<BuildFacts, ReaderViewSources>()

/** readerViewSources of a server's facts, made once per facts object (it does not change while the server runs). */
export function viewSourcesOf(facts: BuildFacts): ReaderViewSources {
  let sources = sourcesByFacts.get(facts)
  if (!sources) sourcesByFacts.set(facts, (sources = readerViewSources(facts.access, facts.assetRoutes, facts.audiences)))
  return sources
}

/**
 * The audiences (the pages one rule governs) whose files the reader may open, in the plan's order:
 * the reader view names these, and the AI tools' server (mcp/) reads only these.
 */
export function audiencesOf(sources: Pick<ReaderViewSources, 'access' | 'audiences'>, user: AccessUser): AudienceSummary[] {
  return sources.audiences.filter((audience) => decideAccess(sources.access, audience.governedBy, user) === 'allow')
}

export function readerViewFor(sources: ReaderViewSources, user: AccessUser): ReaderView {
  const { access } = sources
  const publicPaths = [...access.publicPaths]
  if (user === null) return anonymousView(publicPaths)
  const mayOpen = (path: string) => decideAccess(access, path, user) === 'allow'
  const audiences = audiencesOf(sources, user)
  // A section the reader may open in part (a folder an admin gave them) is a tab and a card too,
  // opening the first page of theirs. Its description speaks of the whole section, pages the reader
  // may not open included, so the card says only that part of it is theirs. A reader of the section
  // is one the rule on its folder lets in (whichever list that rule names now), or who holds every
  // audience with pages in it. The sections as the access declares them, in its order.
  const sections = access.sections.flatMap(({ id, title, description, entry }): ReaderSection[] => {
    const ofSection = sources.audiences.filter((audience) => audience.sections.some((section) => section.id === id))
    const whole = mayOpen(folderWordsPath(sectionPrefix(id))) || (ofSection.length > 0 && ofSection.every((audience) => audiences.includes(audience)))
    if (whole && mayOpen(entry)) return [{ id, title, description, href: entry }]
    const first = audiences.flatMap((audience) => audience.sections).find((section) => section.id === id)
    return first ? [{ id, title, description: PART_OF_SECTION, href: first.entry }] : []
  })
  return {
    username: user.username,
    publicPaths,
    // Only rules that decide a path: one that an earlier rule shadows whole decides nothing, and its
    // path may name a page the reader may not open. Nor one inside a section the reader may open no
    // page of (one on its images, say): its path names the section.
    open: access.rules
      .filter((rule, index) => passes(access, rule.require, user) && decidesPaths(access, index))
      .filter((rule) => access.sections.every(({ id }) => !inSection(rule.path, id) || sections.some((section) => section.id === id)))
      .map(({ path, match }) => ({ path, match })),
    elsewhere: passes(access, access.fallback, user),
    home: mayOpen('/'),
    sections,
    search: audiences.flatMap((audience) => (audience.search ? [{ id: audience.id, basePath: audience.search }] : [])),
    llms: audiences.flatMap((audience) => (audience.llms ? [audience.llms] : [])),
    routeManifests: sources.routeManifests.filter(([, route]) => mayOpen(route)).map(([key]) => key),
  }
}
