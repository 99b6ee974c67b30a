/** @jest-environment node */
import { scanContent } from '../../pipeline/content/contentSource'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import shipped from '../../access.config'
import { compileAccess } from '../../lib/access/compileAccess'
import { builtRulesDigest } from '../../pipeline/steps/audiencesFile'
import type { PathRule } from '../../lib/access/types'
import { assertRulesDecide, codePageRoutes, PageFilesError, pageFilesProblems, publicFileRoute, PublicPathError, publicFileRoutes, RuleCoverageError, ruleProblems, SectionEntryError, siteRoutes } from '../../pipeline/steps/checkRules'

const root = path.resolve(__dirname, '../..')
const routes = siteRoutes(scanContent(root))
const codePages = codePageRoutes()
const withRules = (rules: PathRule[]) =>
  compileAccess({ ...shipped, lists: { ...shipped.lists, financeUsers: 'support1' }, rules: [...rules, ...shipped.rules] }, {})

test('every rule of the shipped configuration decides a page or file of this site', () => {
  expect(ruleProblems(compileAccess(shipped, {}), routes)).toEqual([])
})

test('a folder rule, a page rule and a rule for a file under public/ each decide something', () => {
  const access = withRules([
    { path: '/docs/internal/to-be-refined/finance', match: 'prefix', require: 'financeUsers' },
    { path: '/docs/internal/guidelines/secrets-management', match: 'exact', require: 'fullAccessUsers' },
    { path: '/docs/internal/images/data-lake-overview.svg', match: 'exact', require: 'fullAccessUsers' },
  ])
  expect(() => assertRulesDecide(access, routes, codePages)).not.toThrow()
})

test('a rule whose path has a typo fails the build, naming the rule and what to check', () => {
  const access = withRules([{ path: '/docs/internal/to-be-refind/finance', match: 'prefix', require: 'financeUsers' }])
  expect(() => assertRulesDecide(access, routes, codePages)).toThrow(RuleCoverageError)
  expect(() => assertRulesDecide(access, routes, codePages)).toThrow(
    'rule "prefix /docs/internal/to-be-refind/finance -> financeUsers" matches no page or file: none is at or under /docs/internal/to-be-refind/finance'
  )
})

test("a section whose entry is no page fails the build, naming the section: its tab and home card would open a page that does not exist", () => {
  const sections = shipped.sections.map((section) => (section.id === 'leads' ? { ...section, entry: '/docs/leads/nope' } : section))
  const access = compileAccess({ ...shipped, sections }, {})
  expect(() => assertRulesDecide(access, routes, codePages)).toThrow(SectionEntryError)
  expect(() => assertRulesDecide(access, routes, codePages)).toThrow(
    'access.config.ts: section "leads": its entry /docs/leads/nope is no page of the site, so its navbar tab and home card would open a page that does not exist. Set entry to one of its pages (under content/docs/leads/).'
  )
  expect(() => assertRulesDecide(compileAccess(shipped, {}), routes, codePages)).not.toThrow()
  // A public file is no page: a review's section with no content folder, its entry a PDF, built.
  const image = routes.find((route) => route.startsWith('/docs/leads/') && route.includes('.'))!
  expect(image).toBeDefined()
  const onFile = shipped.sections.map((section) => (section.id === 'leads' ? { ...section, entry: image } : section))
  expect(() => assertRulesDecide(compileAccess({ ...shipped, sections: onFile }, {}), routes, codePages)).toThrow(`section "leads": its entry ${image} is no page of the site`)
})

test("a section whose entry a finer rule keeps from some of its readers fails the build, naming the rule: their tab and home card would open another page; one opened wider, or to signed-in readers, passes", () => {
  const leadsIntro = (require: string) => withRules([{ path: '/docs/leads/intro', match: 'exact', require }])
  expect(() => assertRulesDecide(leadsIntro('financeUsers'), routes, codePages)).toThrow(SectionEntryError)
  expect(() => assertRulesDecide(leadsIntro('financeUsers'), routes, codePages)).toThrow(
    'access.config.ts: section "leads": its entry /docs/leads/intro needs "financeUsers" (exact /docs/leads/intro -> financeUsers), and the rules do not give it to every reader of the section ("leadsUsers"; the check reads the rules, not today\'s lists, which change without a build), so a reader\'s tab and home card could open another page. Set entry to a page all of them may open, or let them open this one.'
  )
  expect(() => assertRulesDecide(leadsIntro('fullAccessUsers'), routes, codePages)).toThrow(SectionEntryError)
  expect(() => assertRulesDecide(leadsIntro('signedIn'), routes, codePages)).not.toThrow()
  expect(() => assertRulesDecide(leadsIntro('leadsUsers'), routes, codePages)).not.toThrow()
  // A prefix rule over the whole section is the section's readers.
  expect(() => assertRulesDecide(withRules([{ path: '/docs/leads', match: 'prefix', require: 'financeUsers' }]), routes, codePages)).not.toThrow()
})

test("a rule on one of the site's public pages decides nothing, and says so", () => {
  expect(ruleProblems(withRules([{ path: '/login', match: 'exact', require: 'leadsUsers' }]), routes)).toEqual([
    'rule "exact /login -> leadsUsers" decides nothing: /login is in publicPaths (the site\'s own pages, which anyone may read). Remove the rule, or the path from publicPaths.',
  ])
})

test("a file at the root of public/ is a writer's, which a rule decides as any other: the site's logo and icon are its code, no file", () => {
  expect(routes).not.toContain('/logo.svg')
  expect(ruleProblems(withRules([{ path: '/logo.svg', match: 'exact', require: 'leadsUsers' }]), routes)).toEqual([expect.stringContaining('matches no page or file')])
  expect(ruleProblems(withRules([{ path: '/org-chart.png', match: 'exact', require: 'leadsUsers' }]), [...routes, '/org-chart.png'])).toEqual([])
})

test("a public path that names nothing the site serves (a typo) fails the build, naming it and the site's own pages", () => {
  expect(codePages).toEqual(expect.arrayContaining(['/login', '/unauthorized', '/404', '/session-too-large']))
  expect(codePages).not.toContain('/_app')
  // Read as Next routes them: an index page is its folder's route; Next's own files and dynamic routes are no page of the site's own.
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'code-pages-'))
  for (const file of ['index.tsx', 'oauth/callback.tsx', 'oauth/index.tsx', '_app.tsx', '[[...slug]].tsx', 'docs/[id].tsx']) {
    fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true })
    fs.writeFileSync(path.join(dir, file), '')
  }
  expect(codePageRoutes(dir)).toEqual(['/', '/oauth', '/oauth/callback'])
  fs.rmSync(dir, { recursive: true })
  const typo = compileAccess({ ...shipped, publicPaths: [...shipped.publicPaths, '/unauthorised'] }, {})
  expect(() => assertRulesDecide(typo, routes, codePages)).toThrow(PublicPathError)
  expect(() => assertRulesDecide(typo, routes, codePages)).toThrow(`access.config.ts: publicPaths holds "/unauthorised", which names no page of the site (its own: ${codePages.join(', ')}) and no file under public/. Correct it or remove it.`)
  // A file under public/ may be public.
  expect(() => assertRulesDecide(compileAccess({ ...shipped, publicPaths: [...shipped.publicPaths, '/brand-guide.pdf'] }, {}), [...routes, '/brand-guide.pdf'], codePages)).not.toThrow()
})

test("a file under a page that an exact rule restricts, which the rule does not reach, fails the build naming both: the page's own diagram would go to readers refused the page (a review); a folder's index page keeps its folder's files", () => {
  const secret = '/docs/internal/guidelines/secrets-management'
  const files = [`${secret}/images/key-rotation.png`, `${secret}/keys.txt`]
  const access = withRules([
    { path: secret, match: 'exact', require: 'fullAccessUsers' },
    { path: '/docs/internal/data-lake', match: 'exact', require: 'fullAccessUsers' },
  ])
  const withFiles = [...routes, ...files, '/docs/internal/data-lake/images/shared.png']
  expect(routes).toContain('/docs/internal/data-lake/overview')
  expect(() => assertRulesDecide(access, withFiles, codePages)).toThrow(PageFilesError)
  expect(pageFilesProblems(access, withFiles)).toEqual(
    files.map(
      (file) =>
        `public${file}: it sits under the page ${secret}, which the rule "exact ${secret} -> fullAccessUsers" keeps to its readers, but an exact rule decides the page alone: this file is served by "prefix /docs/internal -> internalUsers", to readers who may not open the page. Make the rule match: 'prefix' (the page and every file under it), or move the file where its readers may open it.`
    )
  )
  // The rule written as a prefix reaches them.
  expect(pageFilesProblems(withRules([{ path: secret, match: 'prefix', require: 'fullAccessUsers' }]), withFiles)).toEqual([])
})

test('an exact rule on a page that does not exist matches nothing', () => {
  const problems = ruleProblems(withRules([{ path: '/docs/internal/guidelines/secret-management', match: 'exact', require: 'fullAccessUsers' }]), routes)
  expect(problems).toEqual([expect.stringContaining('rule "exact /docs/internal/guidelines/secret-management -> fullAccessUsers" matches no page or file: none is at /docs/internal/guidelines/secret-management.')])
})

test('a finer rule put after a broader one is shadowed: the build names both and says to reorder', () => {
  const access = withRules([
    { path: '/docs/internal', match: 'prefix', require: 'internalUsers' },
    { path: '/docs/internal/to-be-refined/finance', match: 'prefix', require: 'financeUsers' },
  ])
  expect(ruleProblems(access, routes)).toEqual([
    'rule "prefix /docs/internal/to-be-refined/finance -> financeUsers" is shadowed: earlier rules decide every page it matches ("prefix /docs/internal -> internalUsers"), and the first rule that matches decides. Put it before them in `rules`, or remove it.',
  ])
})

test('a rule that gives a whole section to another list is the admin\'s choice: the section\'s own rule it shadows is no problem', () => {
  expect(ruleProblems(withRules([{ path: '/docs/leads', match: 'prefix', require: 'internalUsers' }]), routes)).toEqual([])
})

test("a broader rule that takes every section whole fails the build: `prefix /docs` where `exact /docs` was meant", () => {
  const problems = ruleProblems(withRules([{ path: '/docs', match: 'prefix', require: 'signedIn' }]), routes)
  expect(problems).toHaveLength(shipped.sections.length)
  expect(problems[0]).toBe(
    `rule "prefix /docs/leads -> leadsUsers", a section's rule, decides nothing: broader rules decide every page of the section ("prefix /docs -> signedIn"), and the first rule that matches decides. A rule meant for one page is written match: 'exact'; one that gives the section other readers names its folder (/docs/leads).`
  )
  expect(ruleProblems(withRules([{ path: '/docs', match: 'exact', require: 'signedIn' }]), routes)).toEqual([])
})

test('a rule shadowed by one that requires the same changes nothing it meant to, and is no problem', () => {
  const access = withRules([
    { path: '/docs/internal', match: 'prefix', require: 'internalUsers' },
    { path: '/docs/internal/intro', match: 'exact', require: 'internalUsers' },
  ])
  expect(ruleProblems(access, routes)).toEqual([])
})

test('a rule that decides only some of the pages it matches is fine', () => {
  const access = withRules([
    { path: '/docs/internal/to-be-refined/finance/quill-crm-api', match: 'exact', require: 'fullAccessUsers' },
    { path: '/docs/internal/to-be-refined', match: 'prefix', require: 'financeUsers' },
  ])
  expect(ruleProblems(access, routes)).toEqual([])
})

test('files under public/ are named by their routes; one whose path cannot be served fails, naming it', () => {
  expect(publicFileRoutes(scanContent(root))).toEqual(expect.arrayContaining(['/docs/internal/images/data-lake-overview.svg']))
  expect(() => publicFileRoute('docs/leads/images/100%.svg')).toThrow("public/docs/leads/images/100%.svg: this file's path cannot be served")
  // Names a request cannot spell: `%41` is read as `A`, `#` and `?` end the path.
  for (const name of ['pct%41.svg', 'hash#x.svg', 'q?x.svg', 'a%2Fb.svg']) expect(() => publicFileRoute(`docs/leads/images/${name}`)).toThrow(`public/docs/leads/images/${name}: this file's path cannot be served`)
  for (const name of ['Big Name.svg', 'café.svg', 'UPPER.svg']) expect(publicFileRoute(`docs/leads/images/${name}`)).toMatch(/^\/docs\/leads\/images\//)
})

test('a rule shadowed by several earlier rules names each of them', () => {
  const finance = '/docs/internal/to-be-refined/finance'
  const access = withRules([
    { path: finance, match: 'exact', require: 'internalUsers' },
    { path: `${finance}/quill-authentication`, match: 'exact', require: 'signedIn' },
    { path: `${finance}/quill-crm-api`, match: 'exact', require: 'signedIn' },
    { path: `${finance}/quill-money-api`, match: 'exact', require: 'signedIn' },
    { path: finance, match: 'prefix', require: 'financeUsers' },
  ])
  expect(ruleProblems(access, routes)).toEqual([
    `rule "prefix ${finance} -> financeUsers" is shadowed: earlier rules decide every page it matches ("exact ${finance} -> internalUsers", "exact ${finance}/quill-authentication -> signedIn", "exact ${finance}/quill-crm-api -> signedIn", "exact ${finance}/quill-money-api -> signedIn"), and the first rule that matches decides. Put it before them in \`rules\`, or remove it.`,
  ])
})

test('a rule on a public page decides nothing, and says so', () => {
  // A page of the site's own outside the docs (a docs page cannot be public: compileAccess refuses it).
  const access = compileAccess({ ...shipped, publicPaths: [...shipped.publicPaths, '/status'], rules: [{ path: '/status', match: 'exact', require: 'fullAccessUsers' }, ...shipped.rules] }, {})
  expect(ruleProblems(access, [...routes, '/status'])).toEqual([
    'rule "exact /status -> fullAccessUsers" decides nothing: every path it matches is in publicPaths, which anyone may read. Remove it, or the path from publicPaths.',
  ])
})

test("the digest deploy:access compares the build's files by changes with a section's words: the llms files and search labels hold them (a review's retitled section passed with the old title in them)", () => {
  const retitled = shipped.sections.map((section) => (section.id === 'leads' ? { ...section, title: 'Lead sources' } : section))
  const described = shipped.sections.map((section) => (section.id === 'leads' ? { ...section, description: 'Another description.' } : section))
  const digest = builtRulesDigest(compileAccess(shipped, {}))
  expect(builtRulesDigest(compileAccess({ ...shipped, sections: retitled }, {}))).not.toBe(digest)
  expect(builtRulesDigest(compileAccess({ ...shipped, sections: described }, {}))).not.toBe(digest)
  // The lists' members are the authorizer's alone.
  expect(builtRulesDigest(compileAccess(shipped, { DOCS_LEADS_USERS: 'someone-else' }))).toBe(digest)
})
