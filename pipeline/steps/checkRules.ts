/**
 * Every rule of the access configuration decides something. A rule whose path has a typo, or that
 * an earlier rule shadows (the first rule that matches decides), restricts nothing: the pages the
 * admin meant to restrict stay readable by whoever the broader rule admits. That is a broken state
 * the build must not ship silently, so it fails, naming the rule and what to change.
 */
import fs from 'node:fs'
import path from 'node:path'
import type { CompiledAccess } from '../../lib/access/compileAccess'
import { describeRule, governingRuleOf, requirementOf, ruleMatches } from '../../lib/access/decideAccess'
import { normalisePath } from '../../lib/access/normalisePath'

export class RuleCoverageError extends Error {
  constructor(readonly problems: readonly string[]) {
    super(`access.config.ts: ${problems.length === 1 ? 'a rule decides' : `${problems.length} rules decide`} nothing:\n${problems.map((problem) => `  ${problem}`).join('\n')}`)
    this.name = 'RuleCoverageError'
  }
}

/**
 * What is wrong with each rule that decides none of `routes` (the site's pages and public files),
 * in the rules' order; empty when every rule decides at least one.
 */
export function ruleProblems(access: CompiledAccess, routes: readonly string[]): string[] {
  const problems: string[] = []
  access.rules.forEach((rule, index) => {
    const named = `rule "${describeRule({ kind: 'rule', index, rule })}"`
    const matched = routes.filter((route) => ruleMatches(rule, route))
    if (matched.length === 0) {
      problems.push(
        `${named} matches no page or file: none is ${rule.match === 'exact' ? 'at' : 'at or under'} ${rule.path}. ` +
          'Check the path against content/ and public/ (a route is lowercase, with no .html and no trailing slash).'
      )
      return
    }
    if (matched.some((route) => { const governing = governingRuleOf(access, route); return governing.kind === 'rule' && governing.index === index })) return
    // A section's own rule comes after the admin's rules; one that an admin's rule on the whole
    // section shadows is the admin's choice of its readers, written as the admin meant it.
    if (index >= access.rules.length - access.sections.length) return
    // Shadowed by rules that require the same, it changes nothing it meant to change.
    const earlier = matched.map((route) => governingRuleOf(access, route)).find((governing) => requirementOf(governing) !== rule.require)
    if (earlier === undefined) return
    problems.push(
      `${named} is shadowed: the earlier rule "${describeRule(earlier)}" decides every page it matches, and the first rule that matches decides. ` +
        'Put the finer rule before it in `rules`.'
    )
  })
  return problems
}

/** The routes of the files under `public/`, which ship as they are and follow their own path's rule. */
export function publicFileRoutes(root: string): string[] {
  const dir = path.join(root, 'public')
  if (!fs.existsSync(dir)) return []
  return fs
    .readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .flatMap((entry) => normalisePath('/' + path.relative(dir, path.join(entry.parentPath, entry.name)).split(path.sep).join('/')) ?? [])
}

/** Fails with every rule that decides none of `routes`. */
export function assertRulesDecide(access: CompiledAccess, routes: readonly string[]): void {
  const problems = ruleProblems(access, routes)
  if (problems.length > 0) throw new RuleCoverageError(problems)
}
