import { AccessConfigError } from './errors'
import { normalisePath } from './normalisePath'
import { parseUserList } from './parseUserList'
import type { AccessConfig, ListName, PathRule, Requirement } from './types'

const LIST_NAMES: readonly ListName[] = ['fullAccessUsers', 'leadsUsers', 'internalUsers', 'twilioSupportUsers']

/** The configuration checked and parsed once, in the form every decision reads. */
export interface CompiledAccess {
  protectDocs: boolean
  /** Each list already holds the full-access users. */
  members: Record<ListName, ReadonlySet<string>>
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
  const parsed = {} as Record<ListName, string[]>
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
  const members = {} as Record<ListName, ReadonlySet<string>>
  for (const name of LIST_NAMES) {
    members[name] = new Set([...parsed[name], ...full])
  }

  if (config.protectDocs) {
    const required = new Set<Requirement>([fallback, ...rules.map((rule) => rule.require)])
    for (const requirement of required) {
      if (requirement !== 'signedIn' && members[requirement].size === 0) {
        throw new AccessConfigError(`list "${requirement}" is empty after parsing, but a rule needs it; nobody could read those pages`)
      }
    }
  }

  return {
    protectDocs: config.protectDocs,
    members,
    rules,
    fallback,
    publicPaths: new Set(config.publicPaths.map((path) => canonicalRulePath(path, 'public path'))),
  }
}
