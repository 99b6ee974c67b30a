/**
 * Who sees what, decided by the one decision function: every user and group that a list names,
 * against every section; what a user pool says about those entries; and what an edit changes.
 * Pure: the command (reportCommand.ts) reads the configuration and the pool and prints.
 */
import type { CompiledAccess } from '../../lib/access/compileAccess'
import { decideAccess } from '../../lib/access/decideAccess'
import type { AccessUser } from '../../lib/access/types'
import type { AggregatePlan } from '../../lib/access/planAggregates'
import { SECTIONS } from '../../lib/navigation/siteNavigation'
import { sectionPrefix } from '../../lib/access/sectionPaths'

/** What the report asks about: each section, and the pages outside every section (the docs root). */
export interface Audience {
  label: string
  path: string
}

export const AUDIENCES: readonly Audience[] = [
  // The section's folder, which its own rule governs (its entry page may have a finer rule of its own).
  ...SECTIONS.map((section) => ({ label: section.title, path: sectionPrefix(section.id) })),
  { label: 'Other pages', path: '/docs' },
]

/** A rule finer than a section (or outside every section) and the pages it governs, from the build's plan. */
export interface FinerRule {
  rule: string
  pages: string[]
}

/**
 * What the report asks about for a site's plan (lib/access/planAggregates.ts): each section's own
 * pages, each audience that a rule finer than a section makes (labelled with its section and its
 * path), and the pages no rule names. Audiences every signed-in reader opens (the home page) are
 * left out: they tell nobody apart.
 */
export function reportAudiences(access: CompiledAccess, plan: Pick<AggregatePlan, 'audiences'>): { audiences: Audience[]; finer: FinerRule[] } {
  const audiences: Audience[] = []
  const finer: FinerRule[] = []
  for (const audience of plan.audiences) {
    if (audience.requirement === 'signedIn' || audience.kind === 'public') continue
    const section = access.sections.find((candidate) => candidate.id === audience.section)
    // A route its own rule governs, not the section's entry page, which a finer rule may give other readers.
    if (section) audiences.push({ label: section.title, path: audience.governedBy })
    else if (audience.kind === 'fallback') audiences.push({ label: 'Other pages', path: audience.governedBy })
    else {
      const where = audience.sections.map((entry) => entry.title).join(', ') || 'Outside sections'
      audiences.push({ label: `${where}: ${audience.path}`, path: audience.governedBy })
      finer.push({ rule: audience.rule, pages: audience.pages })
    }
  }
  return { audiences, finer }
}

export interface Entry {
  kind: 'user' | 'group'
  name: string
}

export interface EntryAccess extends Entry {
  /** The audiences' labels this entry opens. */
  opens: string[]
}

const asReader = (entry: Entry): NonNullable<AccessUser> =>
  // A group entry is judged as a reader who has that group and no name any list holds.
  entry.kind === 'user' ? { username: entry.name } : { username: '\u0000', groups: [entry.name] }

/** Every user and group named in some list, in a stable order. */
export function namedEntries(access: CompiledAccess): Entry[] {
  const users = new Set<string>()
  const groups = new Set<string>()
  for (const members of Object.values(access.members)) {
    for (const user of members.users) users.add(user)
    for (const group of members.groups) groups.add(group)
  }
  return [...[...users].sort().map((name) => ({ kind: 'user' as const, name })), ...[...groups].sort().map((name) => ({ kind: 'group' as const, name }))]
}

export function opensFor(access: CompiledAccess, reader: NonNullable<AccessUser>, audiences: readonly Audience[] = AUDIENCES): string[] {
  return audiences.filter((audience) => decideAccess(access, audience.path, reader) === 'allow').map((audience) => audience.label)
}

export function whoSeesWhat(access: CompiledAccess, audiences: readonly Audience[] = AUDIENCES): EntryAccess[] {
  return namedEntries(access).map((entry) => ({ ...entry, opens: opensFor(access, asReader(entry), audiences) }))
}

export interface PoolUser {
  username: string
  enabled: boolean
  groups: string[]
}

export interface Pool {
  users: PoolUser[]
  groups: string[]
}

export interface PoolFindings {
  /** List entries that name no user or group in the pool: typos, or people who left. */
  unknownEntries: Entry[]
  /** Enabled users of the pool who can open no section and no other page. */
  usersWithNothing: string[]
  /** Disabled users whom a list still names. */
  disabledButListed: string[]
}

export function checkAgainstPool(access: CompiledAccess, pool: Pool, audiences: readonly Audience[] = AUDIENCES): PoolFindings {
  const poolUsers = new Set(pool.users.map((user) => user.username))
  const poolGroups = new Set(pool.groups)
  const entries = namedEntries(access)
  const listedUsers = new Set(entries.filter((entry) => entry.kind === 'user').map((entry) => entry.name))
  return {
    unknownEntries: entries.filter((entry) => !(entry.kind === 'user' ? poolUsers : poolGroups).has(entry.name)),
    usersWithNothing: pool.users
      .filter((user) => user.enabled && opensFor(access, { username: user.username, groups: user.groups }, audiences).length === 0)
      .map((user) => user.username)
      .sort(),
    disabledButListed: pool.users
      .filter((user) => !user.enabled && listedUsers.has(user.username))
      .map((user) => user.username)
      .sort(),
  }
}

export interface AccessChange extends Entry {
  gains: string[]
  loses: string[]
}

/** Who gains and who loses which audience between two configurations, for every entry either names. */
export function diffAccess(before: CompiledAccess, after: CompiledAccess, audiences: readonly Audience[] = AUDIENCES): AccessChange[] {
  const seen = new Map<string, Entry>()
  for (const entry of [...namedEntries(before), ...namedEntries(after)]) seen.set(`${entry.kind}:${entry.name}`, entry)
  const changes: AccessChange[] = []
  for (const entry of seen.values()) {
    const was = new Set(opensFor(before, asReader(entry), audiences))
    const is = new Set(opensFor(after, asReader(entry), audiences))
    const gains = [...is].filter((label) => !was.has(label))
    const loses = [...was].filter((label) => !is.has(label))
    if (gains.length || loses.length) changes.push({ ...entry, gains, loses })
  }
  return changes.sort((a, b) => a.kind.localeCompare(b.kind) || a.name.localeCompare(b.name))
}
