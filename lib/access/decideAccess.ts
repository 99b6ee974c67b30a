import type { CompiledAccess } from './compileAccess'
import { isUnderPrefix, normalisePath } from './normalisePath'
import type { AccessUser, Decision, Requirement } from './types'

/** Which requirement governs a canonical route: the first matching rule, else the fallback. */
export function requirementFor(access: CompiledAccess, route: string): Requirement | 'public' {
  if (access.publicPaths.has(route)) return 'public'
  for (const rule of access.rules) {
    const matches = rule.match === 'exact' ? route === rule.path : isUnderPrefix(route, rule.path)
    if (matches) return rule.require
  }
  return access.fallback
}

/**
 * The one decision: may `user` read `path`? Every adapter (client guard, navigation,
 * search, edge, local server) calls this; none re-implements a rule.
 */
export function decideAccess(access: CompiledAccess, path: string, user: AccessUser): Decision {
  const route = normalisePath(path)
  if (route === null) return 'deny'
  const requirement = requirementFor(access, route)
  if (requirement === 'public') return 'allow'
  if (user === null) return 'login'
  return passes(access, requirement, user) ? 'allow' : 'deny'
}

/** Whether a signed-in reader meets a requirement: the one membership test every decision uses. */
export function passes(access: CompiledAccess, requirement: Requirement, user: NonNullable<AccessUser>): boolean {
  if (!access.protectDocs || requirement === 'signedIn') return true
  const members = access.members[requirement]
  return members.users.has(user.username) || (user.groups ?? []).some((group) => members.groups.has(group))
}

/**
 * Whether everyone who may open `from` may also open `to`, whoever they turn out to be. A page
 * may link to, or render before its reader is known, only what all of its readers may open.
 * Decided on the rules, not on today's lists, so an edit to a list never changes the answer.
 */
export function readersOfMayOpen(access: CompiledAccess, from: string, to: string): boolean {
  const source = normalisePath(from)
  const target = normalisePath(to)
  if (source === null || target === null) return false
  const needs = requirementFor(access, target)
  const readers = requirementFor(access, source)
  if (needs === 'public') return true
  if (readers === 'public') return false
  // From here on every reader of `from` is signed in.
  if (needs === 'signedIn' || !access.protectDocs) return true
  // Full-access users are merged into every list.
  return needs === readers || readers === 'fullAccessUsers'
}
