/**
 * Every rule of the access configuration decides something. A rule whose path has a typo, or that
 * earlier rules shadow (the first rule that matches decides), restricts nothing: the pages the
 * admin meant to restrict stay readable by whoever the broader rule admits. That is a broken state
 * the build must not ship silently, so it fails, naming the rule and what to change.
 */
import fs from 'node:fs'
import path from 'node:path'
import type { CompiledAccess } from '../../lib/access/compileAccess'
import { describeRule, governingRuleOf, readersOfMayOpen, requirementFor, requirementOf, ruleMatches } from '../../lib/access/decideAccess'
import { folderWordsPath, sectionPrefix } from '../../lib/access/sectionPaths'
import { isUnderPrefix, normalisePath } from '../../lib/access/normalisePath'
import { objectKeyFor } from '../../lib/access/objectKey'
import { UnservablePathError } from './checkLinks'
import type { ContentSource } from '../content/contentSource'
import { NamedError } from '../content/contentError'

export class RuleCoverageError extends NamedError {
  constructor(readonly problems: readonly string[]) {
    super(`access.config.ts: ${problems.length === 1 ? 'a rule decides' : `${problems.length} rules decide`} nothing:\n${problems.map((problem) => `  ${problem}`).join('\n')}`)
  }
}

/**
 * What is wrong with each rule that would restrict nothing, in the rules' order; empty when there
 * is none. `routes` are the site's pages and public files (siteRoutes). A rule is wrong when it
 * matches none of them, or when earlier rules (or public paths) decide every one it matches and
 * one of those requires something else. Not wrong: a section's own rule that an admin's rule on
 * the section (its folder, or under it) overrides, which is the admin's choice of its readers;
 * wrong, a section's rule that a broader rule takes whole (`prefix /docs` for `exact /docs`).
 */
export function ruleProblems(access: CompiledAccess, routes: readonly string[]): string[] {
  const problems: string[] = []
  const firstSectionRule = access.rules.length - access.sections.length
  access.rules.forEach((rule, index) => {
    const named = `rule "${describeRule({ kind: 'rule', index, rule })}"`
    const matched = routes.filter((route) => ruleMatches(rule, route))
    if (matched.length === 0 && [...access.publicPaths].some((path) => ruleMatches(rule, path))) {
      problems.push(`${named} decides nothing: ${rule.path} is in publicPaths (the site's own pages, which anyone may read). Remove the rule, or the path from publicPaths.`)
      return
    }
    if (matched.length === 0) {
      problems.push(
        `${named} matches no page or file: none is ${rule.match === 'exact' ? 'at' : 'at or under'} ${rule.path}. ` +
          'Check the path against content/ and public/ (a route is lowercase, with no .html and no trailing slash).'
      )
      return
    }
    const governing = matched.map((route) => governingRuleOf(access, route))
    if (governing.some((other) => other.kind === 'rule' && other.index === index)) return
    if (index >= firstSectionRule) {
      const broader = governing.filter((other) => other.kind === 'rule' && !isUnderPrefix(other.rule.path, rule.path) && requirementOf(other) !== rule.require)
      if (broader.length === 0) return
      const earlier = [...new Set(broader.map((other) => `"${describeRule(other)}"`))].join(', ')
      problems.push(
        `${named}, a section's rule, decides nothing: broader rules decide every page of the section (${earlier}), and the first rule that matches decides. ` +
          `A rule meant for one page is written match: 'exact'; one that gives the section other readers names its folder (${rule.path}).`
      )
      return
    }
    // Shadowed only by rules that require the same, it changes nothing it meant to change.
    const differing = governing.filter((other) => requirementOf(other) !== rule.require)
    if (differing.length === 0) return
    if (governing.every((other) => other.kind === 'public')) {
      problems.push(`${named} decides nothing: every path it matches is in publicPaths, which anyone may read. Remove it, or the path from publicPaths.`)
      return
    }
    const earlier = [...new Set(differing.map((other) => `"${describeRule(other)}"`))].join(', ')
    problems.push(
      `${named} is shadowed: earlier rules decide every page it matches (${earlier}), and the first rule that matches decides. ` +
        'Put it before them in `rules`, or remove it.'
    )
  })
  return problems
}

/** The route a file under `public/` is served at, from its path relative to `public/`. */
export function publicFileRoute(relative: string): string {
  const key = '/' + relative.split(path.sep).join('/')
  const route = normalisePath(key)
  // A name a request cannot spell (`%41` is read as `A`, `#` and `?` end the path) is never served.
  if (route === null || objectKeyFor(key) !== key) throw new UnservablePathError(`public/${relative}`)
  return route
}

/** The routes of the files under `public/`, which ship as they are and follow their own path's rule. */
export function publicFileRoutes(source: Pick<ContentSource, 'publicFiles'>): string[] {
  return source.publicFiles.map((file) => publicFileRoute(file.key.slice(1)))
}

/** Every route of the site that a rule may decide: its pages and its public files. */
export function siteRoutes(source: Pick<ContentSource, 'pages' | 'publicFiles'>): string[] {
  return [...source.pages.map((page) => page.route), ...publicFileRoutes(source)]
}

/** A section whose entry page (the page its tab and home card open) is no page of the site, or one not every reader of the section may open. */
export class SectionEntryError extends NamedError {
  constructor(readonly problems: readonly string[]) {
    super(`access.config.ts: ${problems.join('\n')}`)
  }
}

/**
 * What is wrong with each section's entry page, in the sections' order: one that is no page of
 * `routes`, or one a finer rule keeps from some of the section's readers (their tab and home card
 * would open another page, without the section's description).
 */
export function sectionEntryProblems(access: CompiledAccess, routes: readonly string[]): string[] {
  // Pages only: a tab that opened a PDF would be no section's.
  const pages = new Set(routes.filter(isPageRoute))
  return access.sections.flatMap((section) => {
    if (!pages.has(section.entry)) {
      return [`section "${section.id}": its entry ${section.entry} is no page of the site, so its navbar tab and home card would open a page that does not exist. Set entry to one of its pages (under content/docs/${section.id}/).`]
    }
    // Decided by the section's own rule alone: its folder's words, which no finer rule of a page takes.
    const readers = folderWordsPath(sectionPrefix(section.id))
    if (readersOfMayOpen(access, readers, section.entry)) return []
    return [
      `section "${section.id}": its entry ${section.entry} needs "${requirementFor(access, section.entry)}" (${describeRule(governingRuleOf(access, section.entry))}), and the rules do not give it to every reader of the section ("${requirementFor(access, readers)}"; the check reads the rules, not today's lists, which change without a build), so a reader's tab and home card could open another page. Set entry to a page all of them may open, or let them open this one.`,
    ]
  })
}

export class PublicPathError extends NamedError {
  constructor(readonly problems: readonly string[]) {
    super(`access.config.ts: ${problems.join('\n')}`)
  }
}

/**
 * The site's own pages, which are code (pages/ beside this project's code: sign-in, no access, not
 * found…), by route; not Next's own files (`_app`), nor the docs route (`[[...slug]]`).
 */
export function codePageRoutes(pagesDir = path.resolve(__dirname, '../../pages')): string[] {
  return fs
    .readdirSync(pagesDir, { recursive: true, encoding: 'utf8' })
    .map((file) => file.split(path.sep).join('/'))
    .filter((file) => /\.tsx?$/.test(file) && !/(^|\/)[_[]/.test(file))
    .map((file) => `/${file.replace(/\.tsx?$/, '')}`.replace(/\/index$/, '') || '/')
    .sort()
}

/**
 * Each entry of publicPaths that names nothing the site serves: no page of its own (`codePages`)
 * and no file of `routes`. A typo (`/unauthorised`) opens nothing and would pass unseen.
 */
export function publicPathProblems(access: CompiledAccess, routes: readonly string[], codePages: readonly string[]): string[] {
  const served = new Set([...codePages, ...routes])
  return [...access.publicPaths]
    .filter((path) => !served.has(path))
    .map((path) => `publicPaths holds "${path}", which names no page of the site (its own: ${codePages.join(', ')}) and no file under public/. Correct it or remove it.`)
}

export class PageFilesError extends NamedError {
  constructor(readonly problems: readonly string[]) {
    super(`access.config.ts: ${problems.join('\n')}`)
  }
}

/** A page's route (no dot in its last segment), as against a public file's, which has its extension. */
const isPageRoute = (route: string) => !route.slice(route.lastIndexOf('/')).includes('.')

/**
 * Each file of public/ under a page that an exact rule restricts, and that more readers may fetch
 * than may open the page: an exact rule decides the page alone, so the page's own images go to the
 * readers of the rule above it. Only under a page with no pages below it: a folder's index page
 * shares its folder with its pages, whose readers its files may be for.
 */
export function pageFilesProblems(access: CompiledAccess, routes: readonly string[]): string[] {
  const pages = routes.filter(isPageRoute)
  return access.rules.flatMap((rule, index) => {
    if (rule.match !== 'exact' || rule.path === '/' || pages.some((page) => page.startsWith(`${rule.path}/`))) return []
    return routes
      .filter((route) => !isPageRoute(route) && route.startsWith(`${rule.path}/`) && !readersOfMayOpen(access, route, rule.path))
      .map(
        (file) =>
          `public${file}: it sits under the page ${rule.path}, which the rule "${describeRule({ kind: 'rule', index, rule })}" keeps to its readers, but an exact rule decides the page alone: this file is served by "${describeRule(governingRuleOf(access, file))}", to readers who may not open the page. Make the rule match: 'prefix' (the page and every file under it), or move the file where its readers may open it.`
      )
  })
}

/** Fails with every section whose entry is no page, then every rule that would restrict nothing, every page's file an exact rule leaves out, then every public path that names nothing. */
export function assertRulesDecide(access: CompiledAccess, routes: readonly string[], codePages: readonly string[]): void {
  const entries = sectionEntryProblems(access, routes)
  if (entries.length > 0) throw new SectionEntryError(entries)
  const problems = ruleProblems(access, routes)
  if (problems.length > 0) throw new RuleCoverageError(problems)
  const pageFiles = pageFilesProblems(access, routes)
  if (pageFiles.length > 0) throw new PageFilesError(pageFiles)
  const publicPaths = publicPathProblems(access, routes, codePages)
  if (publicPaths.length > 0) throw new PublicPathError(publicPaths)
}
