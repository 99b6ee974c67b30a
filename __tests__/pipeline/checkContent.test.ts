/** @jest-environment node */
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { BadContentError, BadSlugError, checkContent, slugFor, UndeclaredSectionError } from '../../pipeline/steps/checkContent'
import { assertLinks } from '../../pipeline/steps/checkLinks'

const SECTIONS = ['leads', 'internal', 'support-twilio']
const roots: string[] = []
afterAll(() => roots.forEach((root) => fs.rmSync(root, { recursive: true, force: true })))

/** A tiny site on disk (a path ending in / is an empty folder): the check reads it as the build does. */
function site(files: string[]): string {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'content-'))
  roots.push(root)
  for (const file of ['content/docs/index.mdx', 'content/docs/leads/intro.mdx', ...files]) {
    if (file.endsWith('/')) {
      fs.mkdirSync(path.join(root, file), { recursive: true })
      continue
    }
    fs.mkdirSync(path.dirname(path.join(root, file)), { recursive: true })
    fs.writeFileSync(path.join(root, file), /\.mdx?$/.test(file) ? '---\ntitle: T\ndescription: D\n---\n# T\n' : 'export default {}\n')
  }
  fs.mkdirSync(path.join(root, 'pages'), { recursive: true })
  return root
}

const messages = (root: string) => checkContent(root, SECTIONS).map((problem) => problem.message)

test('the shipped content passes', () => {
  expect(checkContent(path.resolve(__dirname, '../..'))).toEqual([])
})

test('section folders, _meta files, the /docs index page and hidden files may be directly under content/docs/', () => {
  expect(checkContent(site(['content/docs/_meta.ts', 'content/docs/.DS_Store', 'content/docs/internal/intro.mdx', 'content/docs/support-twilio/_meta.ts']), SECTIONS)).toEqual([])
})

test('a folder no section declares fails, naming the folder and how to declare it', () => {
  const root = site(['content/docs/sales/intro.mdx', 'content/docs/sales/pricing.mdx', 'content/docs/sales/_meta.ts'])
  const [problem, ...rest] = checkContent(root, SECTIONS)
  expect(rest).toEqual([])
  expect(problem).toBeInstanceOf(UndeclaredSectionError)
  expect(problem.path).toBe('content/docs/sales/')
  expect(problem.message).toBe(
    [
      'content/docs/sales/: no section in access.config.ts declares this folder, so its pages would be readable by full-access readers only (the fallback rule), with no tab.',
      '  To make it a section, declare it in `sections` of access.config.ts, with a list of its readers in `lists` (README, "Writing docs"):',
      "    lists: { …, salesUsers: 'user1, group:sales' },",
      "    sections: [ …, { id: 'sales', title: 'Sales', description: '…', entry: '/docs/sales/intro', readers: 'salesUsers' } ],",
      "  or move its pages into a declared section's folder (content/docs/leads/, content/docs/internal/, content/docs/support-twilio/).",
    ].join('\n')
  )
})

test("an undeclared folder's example names its own first page, and a section id it may have", () => {
  const [message] = messages(site(['content/docs/Partner_Portal/getting-started.mdx', 'content/docs/Partner_Portal/api.mdx']))
  expect(message).toContain('content/docs/Partner_Portal/: no section')
  expect(message).toContain('(and rename the folder to content/docs/partner-portal/: a section id is a lowercase slug)')
  expect(message).toContain("{ id: 'partner-portal', title: 'Partner Portal', description: '…', entry: '/docs/partner-portal/api', readers: 'partnerPortalUsers' }")
  // Its pages are not reported again: the folder is the one problem.
  expect(messages(site(['content/docs/Sales/NewPage.mdx']))).toHaveLength(1)
})

test('a page or other file directly under content/docs/ fails, naming it', () => {
  expect(messages(site(['content/docs/pricing.mdx', 'content/docs/notes.txt']))).toEqual([
    "content/docs/notes.txt: only section folders (content/docs/leads/, content/docs/internal/, content/docs/support-twilio/), _meta.ts and index.mdx may be directly under content/docs/; move this file into a section's folder or delete it.",
    [
      'content/docs/pricing.mdx: a page directly under content/docs/ belongs to no section (only index.mdx, the /docs page, may be there).',
      "  Move it into a declared section's folder (content/docs/leads/, content/docs/internal/, content/docs/support-twilio/), or make a section for it: a folder content/docs/pricing/ with this page in it, declared in `sections` of access.config.ts (README, \"Writing docs\").",
    ].join('\n'),
  ])
})

test('a page whose name is not a slug fails, naming the file and what to call it', () => {
  const root = site(['content/docs/leads/NewPage.mdx'])
  const [problem, ...rest] = checkContent(root, SECTIONS)
  expect(rest).toEqual([])
  expect(problem).toBeInstanceOf(BadSlugError)
  expect(problem).toMatchObject({ path: 'content/docs/leads/NewPage.mdx', suggestion: 'content/docs/leads/new-page.mdx' })
  expect(problem.message).toBe(
    'content/docs/leads/NewPage.mdx: "NewPage.mdx" is not a valid page name (slugs are lowercase letters, digits, hyphens and underscores, with no dot but the extension); rename it to content/docs/leads/new-page.mdx, and change the links and the _meta.ts key that name it.'
  )
})

test('dots, spaces and capitals fail in pages and folders at any depth; underscores, hyphens and digits pass', () => {
  const root = site([
    'content/docs/internal/guidelines/new-data-source_integration-guide.mdx',
    'content/docs/internal/ring-central/webhook_configure.mdx',
    'content/docs/internal/twilio-phase-2/index.mdx',
    'content/docs/internal/release.notes.mdx',
    'content/docs/internal/a/b/Release Notes v2.1.md',
    'content/docs/support-twilio/SQL Queries/index.mdx',
    'content/docs/support-twilio/v1.2/',
    'content/docs/leads/images/Flow.svg',
  ])
  expect(checkContent(root, SECTIONS).map((problem) => [problem.constructor.name, problem.path, (problem as BadSlugError).suggestion])).toEqual([
    ['BadSlugError', 'content/docs/internal/a/b/Release Notes v2.1.md', 'content/docs/internal/a/b/release-notes-v2-1.md'],
    ['BadSlugError', 'content/docs/internal/release.notes.mdx', 'content/docs/internal/release-notes.mdx'],
    ['BadSlugError', 'content/docs/support-twilio/SQL Queries/', 'content/docs/support-twilio/sql-queries/'],
    ['BadSlugError', 'content/docs/support-twilio/v1.2/', 'content/docs/support-twilio/v1-2/'],
  ])
  expect(messages(root)[2]).toBe(
    'content/docs/support-twilio/SQL Queries/: "SQL Queries" is not a valid folder name (slugs are lowercase letters, digits, hyphens and underscores, with no dot but the extension); rename it to content/docs/support-twilio/sql-queries/, and change the links and the _meta.ts key that name it.'
  )
})

test('slugFor suggests a lowercase slug', () => {
  expect(['NewPage', 'APIGuide', 'Café au lait', 'v2.1', 'snake_Case', '--x--'].map(slugFor)).toEqual(['new-page', 'api-guide', 'cafe-au-lait', 'v2-1', 'snake_case', 'x'])
})

test("the build's first step throws one BadContentError naming every problem before it reads a link", () => {
  const root = site(['content/docs/sales/intro.mdx', 'content/docs/leads/NewPage.mdx'])
  let thrown: unknown
  try {
    assertLinks(root)
  } catch (error) {
    thrown = error
  }
  expect(thrown).toBeInstanceOf(BadContentError)
  const error = thrown as BadContentError
  expect(error.problems.map((problem) => problem.path)).toEqual(['content/docs/leads/NewPage.mdx', 'content/docs/sales/'])
  expect(error.message).toMatch(/^content\/docs\/leads\/NewPage\.mdx: .*rename it to content\/docs\/leads\/new-page\.mdx/)
  expect(error.message).toContain('content/docs/sales/: no section in access.config.ts declares this folder')
  expect(error.message.split('\n').at(-1)).toBe('checkContent: 2 problem(s) under content/docs/; fix them before building')
})
