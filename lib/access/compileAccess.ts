import { AccessConfigError } from './errors'
import { normalisePath } from './normalisePath'
import { parseUserList, type ListEntries } from './parseUserList'
import type { AccessConfig, ListName, PathRule, Requirement } from './types'

/** Who a list admits: users by exact username, and readers whose verified token carries a group. */
export interface ListMembers {
  users: ReadonlySet<string>
  groups: ReadonlySet<string>
}

const LIST_NAMES: readonly ListName[] = ['fullAccessUsers', 'leadsUsers', 'internalUsers', 'twilioSupportUsers']

/** The configuration checked and parsed once, in the form every decision reads. */
export interface CompiledAccess {
  protectDocs: boolean
  /** Each list already holds the full-access entries. */
  members: Record<ListName, ListMembers>
  /** The claim, besides `cognito:groups`, that carries a federated identity provider's groups. */
  groupsClaim: string | null
  rules: readonly PathRule[]
  fallback: Requirement
  publicPaths: ReadonlySet<string>
}

function checkRequirement(requirement: unknown, where: string): Requirement {
  if (requirement === 'signedIn' || LIST_NAMES.includes(requirement as ListName)) {
    return requirement as Requirement
  }
  throw new AccessConfigError(
    `${where} names an unknown list "${String(requirement)}"; known lists: ${LIST_NAMES.join(', ')}, or "signedIn"`
  )
}

function canonicalRulePath(path: string, where: string): string {
  const canonical = normalisePath(path)
  if (canonical === null || canonical !== path) {
    throw new AccessConfigError(`${where} path "${path}" must be written in canonical form ("${canonical ?? 'invalid'}")`)
  }
  return canonical
}

/**
 * Validates the admin's configuration and parses its lists. Every consumer (client guard,
 * navigation, search, edge, local server) starts from this, so a bad config fails the build
 * instead of shipping rules that differ from what the admin wrote.
 */
export function compileAccess(config: AccessConfig): CompiledAccess {
  const lists = config.lists ?? ({} as Record<ListName, string>)
  for (const name of Object.keys(lists)) {
    if (!LIST_NAMES.includes(name as ListName)) {
      throw new AccessConfigError(`unknown list "${name}"; known lists: ${LIST_NAMES.join(', ')}`)
    }
  }
  const parsed = {} as Record<ListName, ListEntries>
  for (const name of LIST_NAMES) {
    const raw = lists[name]
    if (raw === undefined) throw new AccessConfigError(`list "${name}" is missing`)
    parsed[name] = parseUserList(name, raw)
  }

  const rules = config.rules.map((rule, index) => {
    const where = `rule ${index + 1} (${rule.path})`
    if (rule.match !== 'exact' && rule.match !== 'prefix') {
      throw new AccessConfigError(`${where} has match "${String(rule.match)}"; use "exact" or "prefix"`)
    }
    return { path: canonicalRulePath(rule.path, where), match: rule.match, require: checkRequirement(rule.require, where) }
  })
  const fallback = checkRequirement(config.fallback, 'fallback')

  const full = parsed.fullAccessUsers
  const members = {} as Record<ListName, ListMembers>
  for (const name of LIST_NAMES) {
    members[name] = { users: new Set([...parsed[name].users, ...full.users]), groups: new Set([...parsed[name].groups, ...full.groups]) }
  }
  const groupsClaim = config.groupsClaim ?? null
  if (groupsClaim !== null && (typeof groupsClaim !== 'string' || !/^[\w:.-]+$/.test(groupsClaim) || groupsClaim === 'cognito:groups')) {
    throw new AccessConfigError(`groupsClaim "${String(groupsClaim)}" must name one token claim other than cognito:groups, like "custom:groups"`)
  }

  if (config.protectDocs) {
    const required = new Set<Requirement>([fallback, ...rules.map((rule) => rule.require)])
    for (const requirement of required) {
      if (requirement !== 'signedIn' && members[requirement].users.size + members[requirement].groups.size === 0) {
        throw new AccessConfigError(`list "${requirement}" is empty after parsing, but a rule needs it; nobody could read those pages`)
      }
    }
  }

  return {
    protectDocs: config.protectDocs,
    members,
    groupsClaim,
    rules,
    fallback,
    publicPaths: new Set(config.publicPaths.map((path) => canonicalRulePath(path, 'public path'))),
  }
}
