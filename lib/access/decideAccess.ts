import type { CompiledAccess } from './compileAccess'
import { isUnderPrefix, normalisePath } from './normalisePath'
import type { AccessUser, Decision, PathRule, Requirement } from './types'

/**
 * The rule that governs a canonical route: a public path, the first rule that matches, or the
 * fallback. Its requirement decides; the rule itself names the route's audience (the pages one
 * rule governs), which the build groups derived files by and the access log reports.
 */
export type GoverningRule =
  | { kind: 'public' }
  | { kind: 'rule'; index: number; rule: PathRule }
  | { kind: 'fallback'; require: Requirement }

/** Whether a rule matches a canonical route: its path exactly, or (prefix) its path or below it. */
export const ruleMatches = (rule: PathRule, route: string): boolean => (rule.match === 'exact' ? route === rule.path : isUnderPrefix(route, rule.path))

export function governingRuleOf(access: CompiledAccess, route: string): GoverningRule {
  if (access.publicPaths.has(route)) return { kind: 'public' }
  const index = access.rules.findIndex((rule) => ruleMatches(rule, route))
  return index >= 0 ? { kind: 'rule', index, rule: access.rules[index] } : { kind: 'fallback', require: access.fallback }
}

/** Whether the rule at `index` decides its own path: no earlier rule takes it (a rule that one shadows decides nothing). */
export function governsOwnPath(access: CompiledAccess, index: number): boolean {
  const governing = governingRuleOf(access, access.rules[index].path)
  return governing.kind === 'rule' && governing.index === index
}

/**
 * Whether the rule at `index` decides any path. An exact rule decides its own path unless an earlier
 * rule takes it. A prefix rule decides every path below its own that no earlier rule takes, made-up
 * ones included, so it decides some unless an earlier prefix rule holds its whole folder; an exact
 * rule on its folder's index page takes that page and leaves it the rest.
 */
export function decidesPaths(access: CompiledAccess, index: number): boolean {
  const rule = access.rules[index]
  if (rule.match === 'exact') return governsOwnPath(access, index)
  return !access.rules.slice(0, index).some((earlier) => earlier.match === 'prefix' && isUnderPrefix(rule.path, earlier.path))
}

/** What a governing rule requires. */
export function requirementOf(governing: GoverningRule): Requirement | 'public' {
  if (governing.kind === 'public') return 'public'
  return governing.kind === 'rule' ? governing.rule.require : governing.require
}

/** A governing rule in words, for logs and reports: `public`, `prefix /docs/leads -> leadsUsers`, `fallback -> fullAccessUsers`. */
export function describeRule(governing: GoverningRule): string {
  if (governing.kind === 'public') return 'public'
  if (governing.kind === 'fallback') return `fallback -> ${governing.require}`
  return `${governing.rule.match} ${governing.rule.path} -> ${governing.rule.require}`
}

/** Which requirement governs a canonical route: the first matching rule, else the fallback. */
export function requirementFor(access: CompiledAccess, route: string): Requirement | 'public' {
  return requirementOf(governingRuleOf(access, route))
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

/**
 * Whether a signed-in reader refused `path` would be let in by what lies around it: a later rule
 * that also matches it and decides paths of its own (a wider folder's, the section's), or the
 * fallback, which decides every path no rule matches (unless a prefix rule on `/` takes them all).
 * The rules that refuse them are then finer than what they may open around it: "no access" there
 * would confirm a section, folder or page that nothing else shows them (a made-up path beside it is
 * not found), so the adapters answer as for a path that is not there. A rule that an earlier one
 * shadows whole decides nothing (decidesPaths), and does not count.
 */
export function refusedOutOfSight(access: CompiledAccess, path: string, user: AccessUser): boolean {
  const route = normalisePath(path)
  if (route === null || user === null || access.publicPaths.has(route)) return false
  const matching = access.rules.flatMap((rule, index) => (ruleMatches(rule, route) ? [index] : []))
  if (matching.length === 0 || passes(access, access.rules[matching[0]].require, user)) return false
  if (matching.slice(1).some((index) => decidesPaths(access, index) && passes(access, access.rules[index].require, user))) return true
  const fallbackDecides = !access.rules.some((rule) => rule.match === 'prefix' && rule.path === '/')
  return fallbackDecides && passes(access, access.fallback, user)
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
