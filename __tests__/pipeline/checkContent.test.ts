/** @jest-environment node */
import { scanContent } from '../../pipeline/content/contentSource'
import { spawnSync } from 'node:child_process'
import path from 'node:path'
import fs from 'node:fs'
import { PageStore } from '../../pipeline/store/pageStore'
import { BadContentError, BadSlugError, checkAndCompile, MAX_SLUG_LENGTH, checkContent, DuplicatePageError, slugFor, StrayContentFolderError, StrayContentPageError, UndeclaredSectionError } from '../../pipeline/steps/checkContent'
import { BadFrontMatterError } from '../../pipeline/content/frontMatter'
import { UnknownMetaKeyError } from '../../pipeline/steps/checkMetaFiles'
import { PageSettingsError } from '../../pipeline/content/pageSettings'
import { MAX_NESTING } from '../../pipeline/content/nesting'
import { tempSite, writeFiles } from '../fixtures/tempSite'

// One test compiles pages in worker threads, which start Nextra's compiler: seconds on a busy machine.
jest.setTimeout(120_000)

const SECTIONS = ['leads', 'internal', 'support-twilio']
/** A tiny site on disk (a path ending in / is an empty folder): the check reads it as the build does. */
function site(files: string[]): string {
  const text = (file: string) => (/\.mdx?$/.test(file) ? '---\ntitle: T\ndescription: D\n---\n# T\n' : 'export default {}\n')
  return tempSite('content-', Object.fromEntries(['content/docs/index.mdx', 'content/docs/leads/intro.mdx', ...files, 'pages/'].map((file) => [file, text(file)])))
}

const messages = (root: string) => checkContent(scanContent(root), SECTIONS).map((problem) => problem.message)

test('the shipped content passes', () => {
  expect(checkContent(scanContent(path.resolve(__dirname, '../..')))).toEqual([])
})

test('section folders, _meta files, the /docs index page and hidden files may be directly under content/docs/', () => {
  expect(checkContent(scanContent(site(['content/docs/_meta.ts', 'content/docs/.DS_Store', 'content/docs/internal/intro.mdx', 'content/docs/support-twilio/_meta.ts'])), SECTIONS)).toEqual([])
})

test('a folder at the top of content/ other than docs/ fails, naming where its pages belong', () => {
  const root = site(['content/leads/rates.mdx'])
  const [problem, ...rest] = checkContent(scanContent(root), SECTIONS)
  expect(rest).toEqual([])
  expect(problem).toBeInstanceOf(StrayContentFolderError)
  expect(problem.message).toBe(
    "content/leads/: the top of content/ holds the home page and content/docs/ only. Pages in this folder would be served at /leads/… to the fallback rule's readers only (`fallback` in access.config.ts), with no tab or sidebar. Move them into a section's folder (content/docs/leads/, content/docs/internal/, content/docs/support-twilio/)."
  )
})

test("a page at the top of content/ other than the home page fails: it would replace the site's own sign-in, no-access or /docs page", () => {
  const root = site(['content/index.mdx', 'content/_meta.ts', 'content/login.mdx', 'content/unauthorized.md', 'content/docs.mdx', 'content/handbook.mdx'])
  const problems = checkContent(scanContent(root), SECTIONS)
  expect(problems.map((problem) => problem.path)).toEqual(['content/docs.mdx', 'content/handbook.mdx', 'content/login.mdx', 'content/unauthorized.md'])
  for (const problem of problems) expect(problem).toBeInstanceOf(StrayContentPageError)
  expect(problems[2].message).toBe(
    "content/login.mdx: the top of content/ holds the home page (index.mdx) and content/docs/ only. This page would be served at /login, in place of a page of the site's own (sign-in, no access, /docs) or to the fallback rule's readers only (`fallback` in access.config.ts), with no tab. Move it into a section's folder (content/docs/leads/, content/docs/internal/, content/docs/support-twilio/)."
  )
})

test("a folder of public/docs/ no section declares, or a file directly in public/docs/, fails: its files would be served to the fallback's readers (a review's image left behind by a renamed section was open to every signed-in reader under a signedIn fallback)", () => {
  const root = site(['content/docs/leads/intro.mdx', 'public/docs/sales/images/margins.png', 'public/docs/sales/price-list.txt', 'public/docs/stray.png', 'public/docs/leads/images/flow.png'])
  const problems = checkContent(scanContent(root), SECTIONS)
  expect(problems.map((problem) => [problem.constructor.name, problem.path])).toEqual([
    ['UndeclaredPublicFolderError', 'public/docs/sales/'],
    ['UndeclaredPublicFolderError', 'public/docs/stray.png'],
  ])
  expect(problems[0].message).toBe(
    "public/docs/sales/: no section in access.config.ts declares this folder, so its files would be served to the fallback rule's readers (`fallback` in access.config.ts), not a section's; move them into a declared section's folder (public/docs/leads/, public/docs/internal/, public/docs/support-twilio/), or declare the section (docs/access.md, \"Add a section\")."
  )
})

test("a file of public/ is checked as the edge decides it, in lower case and composed accents: public/Docs/ is public/docs/, and two files the edge reads as one fail (a review's capital twin of a public file was public too)", () => {
  const files = ['public/Docs/old-section/stray.png', 'public/brand/logo.png', 'public/brand/LOGO.png', 'public/docs/internal/\u00e9quipe/plan.txt', 'public/docs/internal/e\u0301quipe/plan.txt', 'public/docs/Leads/images/flow.png']
  const problems = checkContent(scanContent(site(files)), SECTIONS)
  expect(problems.map((problem) => [problem.constructor.name, problem.path])).toEqual([
    ['UndeclaredPublicFolderError', 'public/Docs/old-section/'],
    ['PublicFileTwinsError', 'public/brand/logo.png'],
    ['PublicFileTwinsError', 'public/docs/internal/\u00e9quipe/plan.txt'],
  ])
  expect(problems[1].message).toBe(
    'public/brand/logo.png: the site reads its path as that of public/brand/LOGO.png (it compares paths in lower case, accents composed), so one rule decides both, whichever of them it was written for, and a disk that ignores case keeps only one. Rename one of them.'
  )
})

test('a folder no section declares fails, naming the folder and how to declare it', () => {
  const root = site(['content/docs/sales/intro.mdx', 'content/docs/sales/pricing.mdx', 'content/docs/sales/_meta.ts'])
  const [problem, ...rest] = checkContent(scanContent(root), SECTIONS)
  expect(rest).toEqual([])
  expect(problem).toBeInstanceOf(UndeclaredSectionError)
  expect(problem.path).toBe('content/docs/sales/')
  expect(problem.message).toBe(
    [
      'content/docs/sales/: no section in access.config.ts declares this folder, so its pages would be readable by the fallback rule\'s readers only (`fallback` in access.config.ts), with no tab.',
      '  To make it a section, declare it in `sections` of access.config.ts, with a list of its readers in `lists` (docs/access.md, "Add a section"):',
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
      "  Move it into a declared section's folder (content/docs/leads/, content/docs/internal/, content/docs/support-twilio/), or make a section for it: a folder content/docs/pricing/ with this page in it, declared in `sections` of access.config.ts (docs/access.md, \"Add a section\").",
    ].join('\n'),
  ])
})

test('a page whose name is not a slug fails, naming the file and what to call it', () => {
  const root = site(['content/docs/leads/NewPage.mdx'])
  const [problem, ...rest] = checkContent(scanContent(root), SECTIONS)
  expect(rest).toEqual([])
  expect(problem).toBeInstanceOf(BadSlugError)
  expect(problem).toMatchObject({ path: 'content/docs/leads/NewPage.mdx', suggestion: 'content/docs/leads/new-page.mdx' })
  expect(problem.message).toBe(
    'content/docs/leads/NewPage.mdx: "NewPage.mdx" is not a valid page name (slugs are lowercase letters, digits, hyphens and underscores, not starting with an underscore, with no dot but the extension); rename it to content/docs/leads/new-page.mdx, and change the links and the _meta.ts key that name it.'
  )
})

test('a page or folder name longer than the build can name its files after fails, naming its length and a shorter name; one at the limit passes', () => {
  const long = 'n'.repeat(MAX_SLUG_LENGTH + 51)
  const atLimit = 'm'.repeat(MAX_SLUG_LENGTH)
  const root = site([`content/docs/leads/${long}.mdx`, `content/docs/leads/${long}/page.mdx`, `content/docs/leads/${atLimit}.mdx`, `content/docs/leads/${atLimit}/page.mdx`])
  const problems = checkContent(scanContent(root), SECTIONS)
  expect(problems.map((problem) => [problem.constructor.name, (problem as BadSlugError).suggestion])).toEqual([
    ['BadSlugError', `content/docs/leads/${'n'.repeat(MAX_SLUG_LENGTH)}/`],
    ['BadSlugError', `content/docs/leads/${'n'.repeat(MAX_SLUG_LENGTH)}.mdx`],
  ])
  expect(problems[1].message).toContain(`is not a valid page name (it is ${MAX_SLUG_LENGTH + 51} characters long, and names are at most ${MAX_SLUG_LENGTH}: the build names files after it`)
})

test('a name whose slug another page already has is not suggested: the message says it exists', () => {
  const root = site(['content/docs/leads/a-b.mdx', 'content/docs/leads/A b.mdx'])
  const [problem, ...rest] = checkContent(scanContent(root), SECTIONS)
  expect(rest).toEqual([])
  expect(problem).toMatchObject({ path: 'content/docs/leads/A b.mdx', suggestion: '' })
  expect(problem.message).toContain('give it a name of lowercase letters, digits, hyphens or underscores (not content/docs/leads/a-b.mdx, which exists).')
})

test('a description written as YAML binary is named as such, not as a mapping', () => {
  const root = siteWith({ 'content/docs/leads/intro.mdx': page('title: Intro\ndescription: !!binary aGVsbG8=') })
  expect(messages(root).join('\n')).toContain('`description` is binary data (!!binary), and the page shows it as text')
})

test("a page or folder whose name starts with an underscore fails: its route would be one no rule may name, where a folder's own words are decided", () => {
  const root = site(['content/docs/leads/_draft.mdx', 'content/docs/leads/_wip/page.mdx'])
  expect(checkContent(scanContent(root), SECTIONS).map((problem) => [problem.constructor.name, (problem as BadSlugError).suggestion])).toEqual([
    ['BadSlugError', 'content/docs/leads/draft.mdx'],
    ['BadSlugError', 'content/docs/leads/wip/'],
  ])
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
  expect(checkContent(scanContent(root), SECTIONS).map((problem) => [problem.constructor.name, problem.path, (problem as BadSlugError).suggestion])).toEqual([
    ['BadSlugError', 'content/docs/internal/a/b/Release Notes v2.1.md', 'content/docs/internal/a/b/release-notes-v2-1.md'],
    ['BadSlugError', 'content/docs/internal/release.notes.mdx', 'content/docs/internal/release-notes.mdx'],
    // No page: the rule for files that are none (NotContentFileError), not a slug's.
    ['NotContentFileError', 'content/docs/leads/images/Flow.svg', undefined],
    ['BadSlugError', 'content/docs/support-twilio/SQL Queries/', 'content/docs/support-twilio/sql-queries/'],
    ['BadSlugError', 'content/docs/support-twilio/v1.2/', 'content/docs/support-twilio/v1-2/'],
  ])
  expect(messages(root)[3]).toBe(
    'content/docs/support-twilio/SQL Queries/: "SQL Queries" is not a valid folder name (slugs are lowercase letters, digits, hyphens and underscores, not starting with an underscore, with no dot but the extension); rename it to content/docs/support-twilio/sql-queries/, and change the links and the _meta.ts key that name it.'
  )
})

test('slugFor suggests a lowercase slug', () => {
  expect(['NewPage', 'APIGuide', 'Café au lait', 'v2.1', 'snake_Case', '--x--'].map(slugFor)).toEqual(['new-page', 'api-guide', 'cafe-au-lait', 'v2-1', 'snake_case', 'x'])
})

test("the build's first step throws one BadContentError naming every problem before it reads a link", async () => {
  const root = site(['content/docs/sales/intro.mdx', 'content/docs/leads/NewPage.mdx'])
  let thrown: unknown
  try {
    await checkAndCompile(scanContent(root))
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

/** A tiny site with these files of this text (a path ending in / is an empty folder). */
function siteWith(files: Record<string, string>): string {
  const root = site([])
  writeFiles(root, files)
  return root
}

const page = (frontMatter: string) => `---\n${frontMatter}\n---\n# Page\n`

test('front matter that is not YAML fails, naming the file, the line and how to write it', () => {
  const root = siteWith({ 'content/docs/leads/environments.mdx': page('title: [unclosed\ndescription: Sandbox and production') })
  const [problem, ...rest] = checkContent(scanContent(root), SECTIONS)
  expect(rest).toEqual([])
  expect(problem).toBeInstanceOf(BadFrontMatterError)
  expect(problem.path).toBe('content/docs/leads/environments.mdx')
  expect(problem.message).toBe(
    'content/docs/leads/environments.mdx:2: the front matter is not valid: the value of `title` starts with [, so YAML reads a list, and it is not closed on its line. ' +
      'Front matter is `key: value` lines between two `---` lines; quote a value that holds ": " or starts with [, {, \' or " (title: "Leads: the API").'
  )
  expect(problem.message).not.toMatch(/YAMLException|\n\s+at /)
})

test("front matter fails where either of Nextra's YAML readers stops, at the parser's line and column", () => {
  const root = siteWith({
    'content/docs/leads/a.mdx': page('title: A\ntitle: again'),
    'content/docs/leads/b.mdx': page('title: Leads: the API'),
    'content/docs/leads/c.mdx': page('title: "unclosed'),
    'content/docs/leads/d.mdx': page('- a list'),
    'content/docs/leads/e.mdx': '---\ntitle: E\n\n# E, and no closing line\n',
    'content/docs/index.mdx': page('title: Docs: home'),
    // Valid: quoted colons, an empty block, a body with rules of its own, no front matter at all.
    'content/docs/leads/f.mdx': page('title: "Leads: the API"\ndescription: \'[draft]\''),
    'content/docs/leads/g.mdx': '---\n---\n# G\n\n---\n\nmore\n',
    'content/docs/leads/h.mdx': '# H\n\n---\ntitle: [not front matter\n---\n',
  })
  expect(messages(root).map((message) => message.split(' Front matter is')[0])).toEqual([
    'content/docs/index.mdx:2:8: the front matter is not valid: Nested mappings are not allowed in compact mappings.',
    'content/docs/leads/a.mdx:3:1: the front matter is not valid: Map keys must be unique.',
    'content/docs/leads/b.mdx:2:8: the front matter is not valid: Nested mappings are not allowed in compact mappings.',
    'content/docs/leads/c.mdx:2: the front matter is not valid: the value of `title` starts with ", so YAML reads a quoted text, and it is not closed on its line.',
    'content/docs/leads/d.mdx:2: the front matter is not valid: it is a list or a single value, not `key: value` lines.',
    'content/docs/leads/e.mdx:1: the front matter is not valid: it has no closing `---` line, so the whole page would be read as front matter.',
  ])
})

test("a _meta key that names no page or folder fails, naming the file, the key's line and what the folder holds", () => {
  const root = siteWith({
    'content/docs/leads/environments.mdx': page('title: Environments'),
    'content/docs/leads/endpoints/create-quote.mdx': page('title: Create quote'),
    'content/docs/leads/images/': '',
    'content/docs/leads/_meta.ts': "export default {\n  intro: 'Introduction',\n  environments: 'Environments',\n  endpoints: 'Endpoints',\n  ghost: 'Ghost page'\n}\n",
  })
  const [problem, ...rest] = checkContent(scanContent(root), SECTIONS)
  expect(rest).toEqual([])
  expect(problem).toBeInstanceOf(UnknownMetaKeyError)
  expect(problem).toMatchObject({ path: 'content/docs/leads/_meta.ts', key: 'ghost' })
  expect(problem.message).toBe(
    'content/docs/leads/_meta.ts:5:3: the key "ghost" names no page or folder in content/docs/leads/ (it holds endpoints/, environments.mdx, intro.mdx). ' +
      "Make the key a page's file name without its extension, or a folder's name, or remove it; an entry that is not a page needs type: 'separator', type: 'menu' or an href."
  )
})

test("a folder's _meta key index fails at its line, naming where the folder's page is titled: Nextra failed the render on it, naming no file", () => {
  const root = siteWith({
    'content/docs/leads/data/index.mdx': page('title: Data'),
    'content/docs/leads/data/lake.mdx': page('title: Lake'),
    'content/docs/leads/data/_meta.ts': "export default {\n  index: 'Data home',\n  lake: 'Lake',\n}\n",
  })
  expect(messages(root)).toEqual([
    'content/docs/leads/data/_meta.ts:2:3: the key "index" titles content/docs/leads/data/index, which the sidebar shows as the folder itself, titled by the folder\'s entry in the _meta above it or by the page\'s own front matter (title:): remove this key.',
  ])
})

test('a _meta entry may be a page (not the folder\'s index), a folder with pages, a separator, a menu, a link or the defaults; a menu item names a page of its folder', () => {
  const meta = [
    'export default {',
    "  '*': { theme: { toc: true } },",
    "  index: 'Overview',",
    "  'intro': { title: 'Introduction', display: 'hidden' },",
    "  endpoints: { title: 'Endpoints', type: 'menu', items: { 'create-quote': { title: 'Create' }, status: { title: 'Status', href: 'https://status.example.com' }, gone: { title: 'Gone' } } },",
    "  '---': { type: 'separator' },",
    "  github: { title: 'GitHub', href: 'https://github.com' },",
    "  empty: 'Empty folder',",
    '}',
  ].join('\n')
  const root = siteWith({
    'content/docs/leads/index.mdx': page('title: Leads'),
    'content/docs/leads/endpoints/create-quote.mdx': page('title: Create quote'),
    'content/docs/leads/empty/.gitkeep': '',
    'content/docs/leads/_meta.ts': meta,
  })
  expect(checkContent(scanContent(root), SECTIONS).map((problem) => [problem.constructor.name, (problem as UnknownMetaKeyError).key, problem.message.split(':').slice(0, 3).join(':')])).toEqual([
    ['IndexMetaKeyError', undefined, 'content/docs/leads/_meta.ts:3:3'],
    ['UnknownMetaKeyError', 'endpoints.items.gone', 'content/docs/leads/_meta.ts:5:161'],
    ['UnknownMetaKeyError', 'empty', 'content/docs/leads/_meta.ts:8:3'],
  ])
  expect(messages(root)[1]).toContain('the key "endpoints.items.gone" names no page or folder in the folder content/docs/leads/endpoints/ (it holds create-quote.mdx)')
})

test("a page lays out its own page, never the site's chrome: front matter or _meta that hides the navbar or the footer, or draws the page raw, fails at its line", () => {
  const root = siteWith({
    'content/docs/leads/raw.mdx': page('title: Raw\ntheme:\n  layout: raw'),
    'content/docs/leads/bare.mdx': page('title: Bare\ndescription: D\ntheme: {navbar: false, sidebar: false}'),
    'content/docs/leads/odd.mdx': page('title: Odd\ndisplay: 42'),
    'content/docs/leads/wide.mdx': page('title: Wide\ntheme: {layout: full, toc: false, sidebar: false, breadcrumb: false, pagination: false, timestamp: false, typesetting: article}'),
    'content/docs/leads/_meta.ts': ["export default {", "  '*': { theme: { footer: false } },", '  wide: { theme: { toc: false } },', "  raw: { theme: { layout: 'raw', navbar: false } },", "  bare: { display: 'hidden', theme: { banner: true } },", '}', ''].join('\n'),
  })
  const problems = checkContent(scanContent(root), SECTIONS)
  for (const problem of problems) expect(problem).toBeInstanceOf(PageSettingsError)
  expect(problems.map((problem) => problem.message)).toEqual([
    "content/docs/leads/_meta.ts:2:3: *.theme.footer: false would remove the site's footer from the page, and a page may not change the site's chrome; remove it (docs/writing.md, \"Page settings\").",
    "content/docs/leads/_meta.ts:4:3: raw.theme.layout: \"raw\" would remove the site's navbar, sidebar and footer (layout: 'raw') from the page, and a page may not change the site's chrome; remove it (docs/writing.md, \"Page settings\").",
    'content/docs/leads/_meta.ts:5:3: bare.theme.banner is not a setting a page may give: they are breadcrumb, collapsed, pagination, sidebar, timestamp, toc, layout, typesetting, navbar, footer (docs/writing.md, "Page settings").',
    "content/docs/leads/bare.mdx:4: theme.navbar: false would remove the site's navbar (sign-out, the section tabs and search) from the page, and a page may not change the site's chrome; remove it (docs/writing.md, \"Page settings\").",
    'content/docs/leads/odd.mdx:3: display is 42: it is one of \'normal\', \'hidden\', \'children\' (docs/writing.md, "Page settings").',
    "content/docs/leads/raw.mdx:3: theme.layout: \"raw\" would remove the site's navbar, sidebar and footer (layout: 'raw') from the page, and a page may not change the site's chrome; remove it (docs/writing.md, \"Page settings\").",
  ])
})

test("a page or _meta file that is not UTF-8, or holds a control character, fails, naming it; a byte-order mark before the front matter is read past", () => {
  const root = site([])
  writeFiles(root, {
    'content/docs/leads/latin.mdx': Buffer.from('---\ntitle: Caf\xe9\n---\n# Caf\xe9\n', 'latin1'),
    'content/docs/leads/_meta.ts': Buffer.from("export default { intro: 'Caf\xe9' }\n", 'latin1'),
    'content/docs/leads/bom.mdx': '\ufeff---\ntitle: Bom page\ndescription: With a mark\n---\n# Bom page\n',
    // A NUL shipped as it is in the page's Markdown and llms-full.txt (a writers' probe); tabs and line breaks are text.
    'content/docs/leads/nul.mdx': '---\ntitle: Nul\n---\n# Nul\n\nA\tB\r\nC\u0000D\n',
  })
  const source = scanContent(root)
  const problems = checkContent(source, SECTIONS)
  expect(problems.map((problem) => [problem.constructor.name, problem.message])).toEqual([
    ['NotUtf8Error', "content/docs/leads/_meta.ts: the file is not UTF-8 text (it holds bytes of another encoding, such as Latin-1's é); save it as UTF-8."],
    ['NotUtf8Error', "content/docs/leads/latin.mdx: the file is not UTF-8 text (it holds bytes of another encoding, such as Latin-1's é); save it as UTF-8."],
    ['ControlCharacterError', 'content/docs/leads/nul.mdx:7:2: the file holds the control character U+0000, which is not text (only tabs and line breaks are); remove it.'],
  ])
  expect(source.byFile('content/docs/leads/bom.mdx')!.frontMatter).toEqual({ title: 'Bom page', description: 'With a mark' })
})

test('a folder with two _meta files: the second by name is refused, naming the first; a _meta file in another folder is no twin', () => {
  const root = siteWith({
    'content/docs/leads/intro.mdx': page('title: Intro'),
    'content/docs/leads/guides/setup.mdx': page('title: Setup'),
    'content/docs/leads/_meta.js': "export default { intro: 'Intro' }\n",
    'content/docs/leads/_meta.ts': "export default { intro: 'Introduction' }\n",
    'content/docs/leads/guides/_meta.ts': "export default { setup: 'Setup' }\n",
  })
  expect(messages(root)).toEqual(["content/docs/leads/_meta.ts: content/docs/leads/_meta.js is this folder's _meta file already; keep one of the two."])
})

test("a _meta entry for a page that a finer rule hides from some readers stays valid: the check reads the folder, not a reader's view", () => {
  // The shipped content has such entries (the internal section's to-be-refined/finance folder under
  // the leak audit's finance profile); the check takes no rules at all.
  const root = siteWith({
    'content/docs/internal/to-be-refined/finance/budget.mdx': page('title: Budget'),
    'content/docs/internal/to-be-refined/_meta.ts': "export default { finance: 'Finance' }\n",
  })
  expect(checkContent(scanContent(root), SECTIONS)).toEqual([])
})

test('a _meta file that does not compile, exports no plain data, or is JSON fails, naming the file', () => {
  const root = siteWith({
    'content/docs/leads/_meta.ts': "export default {\n  intro: 'Introduction'\n  ghost: 'Ghost'\n}\n",
    'content/docs/internal/intro.mdx': page('title: Internal'),
    'content/docs/internal/_meta.tsx': "export default { intro: { title: () => 'Intro' } }\n",
    'content/docs/support-twilio/intro.mdx': page('title: Twilio'),
    'content/docs/support-twilio/_meta.json': '{ "intro": "Introduction" }\n',
  })
  const problems = checkContent(scanContent(root), SECTIONS)
  expect(problems.map((problem) => problem.constructor.name)).toEqual(['BadMetaFileError', 'BadMetaFileError', 'MetaJsonError'])
  expect(problems.map((problem) => problem.message)).toEqual([
    "content/docs/internal/_meta.tsx:1:34: a function is code. A _meta file holds one `export default { … }`: each key a page or folder name, each value a title or an object of settings, written as strings, numbers, booleans, null, lists and objects. It is read as data, never run: no import, call, name, spread, computed key, `${…}` or JSX.",
    "content/docs/leads/_meta.ts:3:3: this _meta file is not valid syntax: ',' expected. It should read `export default { intro: 'Introduction', … }`.",
    'content/docs/support-twilio/_meta.json: Nextra 3 does not read _meta.json; move its entries to content/docs/support-twilio/_meta.ts as `export default { … }`, and delete this file.',
  ])
})

test('the home page written twice (index.md beside index.mdx) fails, naming both: one would silently replace the other', () => {
  const root = siteWith({ 'content/index.mdx': page('title: Home'), 'content/index.md': page('title: Home from md') })
  expect(checkContent(scanContent(root), SECTIONS).map((problem) => problem.message)).toEqual([
    'content/index.mdx: content/index.md is served at the same route, /, and only one of them can be; merge the two pages, or rename one (and the links and the _meta.ts key that name it).',
  ])
})

test('two pages of one route fail, naming both', () => {
  const root = siteWith({
    'content/docs/leads/environments.md': page('title: Environments'),
    'content/docs/leads/environments.mdx': page('title: Environments'),
    'content/docs/internal/api.mdx': page('title: API'),
    'content/docs/internal/api/index.mdx': page('title: API'),
    'content/docs/internal/api/v1.mdx': page('title: v1'),
  })
  const problems = checkContent(scanContent(root), SECTIONS)
  expect(problems.every((problem) => problem instanceof DuplicatePageError)).toBe(true)
  expect(problems.map((problem) => problem.message)).toEqual([
    'content/docs/internal/api/index.mdx: content/docs/internal/api.mdx is served at the same route, /docs/internal/api, and only one of them can be; merge the two pages, or rename one (and the links and the _meta.ts key that name it).',
    'content/docs/leads/environments.mdx: content/docs/leads/environments.md is served at the same route, /docs/leads/environments, and only one of them can be; merge the two pages, or rename one (and the links and the _meta.ts key that name it).',
  ])
})

test('`npm run build` prints each content problem as its message alone, with no stack', () => {
  const root = siteWith({ 'content/docs/leads/environments.mdx': page('title: [unclosed\ndescription: D') })
  const project = path.resolve(__dirname, '../..')
  const build = spawnSync(process.execPath, [path.join(project, 'node_modules/tsx/dist/cli.mjs'), path.join(project, 'pipeline/steps/buildSite.ts')], { cwd: root, encoding: 'utf8' })
  expect(build.status).toBe(1)
  expect(build.stderr).toBe(
    [
      'content/docs/leads/environments.mdx:2: the front matter is not valid: the value of `title` starts with [, so YAML reads a list, and it is not closed on its line. Front matter is `key: value` lines between two `---` lines; quote a value that holds ": " or starts with [, {, \' or " (title: "Leads: the API").',
      'checkContent: 1 problem(s) under content/docs/; fix them before building',
      '',
    ].join('\n')
  )
})

test("the top _meta draws nothing in the navbar (a writer's link or menu would be in every reader's navbar), and type: 'page' below it fails instead of hiding the page", () => {
  const root = siteWith({
    'content/index.mdx': page('title: Home\ndisplay: normal'),
    'content/docs/index.mdx': page('title: Docs\ndisplay: normal'),
    'content/docs/leads/intro.mdx': page('title: Intro'),
    'content/docs/leads/environments.mdx': page('title: Environments\ndisplay: normal'),
    'content/docs/leads/_meta.ts': "export default {\n  intro: { title: 'Introduction', type: 'page' },\n  environments: 'Environments',\n}\n",
    'content/_meta.ts': [
      'export default {',
      "  index: { title: 'Home', type: 'page', display: 'hidden' },",
      "  docs: { title: 'Sign in again', type: 'page' },",
      "  evilTab: { title: 'Sign in again', type: 'page', href: 'https://evil.example.com/login' },",
      "  evilMenu: { title: 'Account', type: 'menu', items: { reset: { title: 'Reset password', href: 'https://evil.example.com/reset' } } },",
      "  line: { type: 'separator' },",
      '}',
      '',
    ].join('\n'),
  })
  expect(checkContent(scanContent(root), SECTIONS).filter((problem) => !problem.message.includes("front matter's display")).map((problem) => [problem.constructor.name, problem.message.split(': the entry')[0]]).sort()).toEqual([
    ['NavbarEntryError', 'content/_meta.ts:3:3'],
    ['NavbarEntryError', 'content/_meta.ts:4:3'],
    ['NavbarEntryError', 'content/_meta.ts:5:3'],
    ['NavbarEntryError', 'content/_meta.ts:6:3'],
    ['NestedPageTypeError', 'content/docs/leads/_meta.ts:2:3'],
  ])
  // The home page's and /docs's front matter may not show them in the navbar either (it overrides the _meta's hidden).
  expect(messages(root).filter((message) => message.includes("front matter's display")).map((message) => message.split(':')[0]).sort()).toEqual(['content/docs/index.mdx', 'content/index.mdx'])
})

test('a title, sidebar title or description that is not text fails at its line, naming the file, instead of failing the render on another page or shipping two titles', () => {
  const root = siteWith({
    'content/docs/leads/intro.mdx': page('title: Intro'),
    'content/docs/leads/listed.mdx': page('title: [Alpha, Beta]'),
    'content/docs/leads/mapped.mdx': page('title: Mapped\nsidebarTitle: {x: 1}'),
    'content/docs/leads/nested.mdx': page('title: Nested\ndescription: {nested: object}'),
    'content/docs/leads/numbered.mdx': page('title: "2024"'),
    'content/docs/leads/_meta.ts': "export default {\n  intro: { title: { a: 1 } },\n  listed: 42,\n  menu: { type: 'menu', title: 'More', items: { a: { title: ['x'], href: 'https://example.com' } } },\n}\n",
  })
  expect(messages(root).map((message) => message.split(' is ')[0]).sort()).toEqual([
    'content/docs/leads/_meta.ts:2:3: the title of "intro"',
    'content/docs/leads/_meta.ts:3:3: the entry "listed"',
    'content/docs/leads/_meta.ts:4:3: the title of "menu.items.a"',
    'content/docs/leads/listed.mdx:2: the front matter',
    'content/docs/leads/mapped.mdx:3: the front matter',
    'content/docs/leads/nested.mdx:3: the front matter',
  ])
  expect(messages(root).find((message) => message.startsWith('content/docs/leads/listed.mdx'))).toContain('`title` is a list, and the page shows it as text; quote it')
})

test("a _meta link that is not text, or a newWindow that is not true or false, fails at its line: a list as href would reach the sidebar's link unchecked (a review's probe, javascript: in a list)", () => {
  const root = siteWith({
    'content/docs/leads/intro.mdx': page('title: Intro'),
    'content/docs/leads/_meta.ts': [
      'export default {',
      "  intro: 'Intro',",
      "  support: { title: 'Contact support', href: ['javascript:alert(document.cookie)'], newWindow: true },",
      "  more: { type: 'menu', title: 'More', items: { a: { title: 'A', href: { url: '/docs/internal/intro' } } } },",
      "  site: { title: 'Site', href: 'https://example.com', newWindow: 'yes' },",
      "  fine: { title: 'Fine', href: 'https://example.com', newWindow: false },",
      '}',
      '',
    ].join('\n'),
  })
  expect(messages(root).sort()).toEqual([
    'content/docs/leads/_meta.ts:3:3: the link of "support" is a list; a link is an address in quotes (\'https://…\' or \'/docs/…\').',
    'content/docs/leads/_meta.ts:4:3: the link of "more.items.a" is a mapping; a link is an address in quotes (\'https://…\' or \'/docs/…\').',
    'content/docs/leads/_meta.ts:5:3: the newWindow of "site" is a string; it is true or false.',
  ])
})

test("a _meta entry or menu item with a field Nextra does not document fails at its line: Nextra spreads an entry into its sidebar item, so a review's `route` became an unchecked link and `frontMatter.theme` stripped a page's navbar", () => {
  const root = siteWith({
    'content/docs/leads/intro.mdx': page('title: Intro'),
    'content/docs/leads/environments.mdx': page('title: Environments'),
    'content/docs/leads/_meta.ts': [
      'export default {',
      "  intro: 'Intro',",
      "  help: { title: 'Account help', href: 'https://example.com/', children: [{ name: 'reset', route: 'javascript:alert(1)' }] },",
      "  ghost: { type: 'separator', route: '/docs/leads/environments', frontMatter: { theme: { layout: 'raw', navbar: false } } },",
      "  account: { title: 'Account', type: 'menu', items: { reset: { title: 'Reset', route: 'javascript:alert(1)' } } },",
      "  listed: { title: 'Listed', items: { a: { title: 'A', href: 'https://example.com' } } },",
      "  environments: { title: 'Environments', display: 'normal', theme: { toc: false } },",
      "  more: { type: 'menu', title: 'More', items: { site: { title: 'Site', href: 'https://example.com', newWindow: true } } },",
      '}',
      '',
    ].join('\n'),
  })
  expect(messages(root).sort()).toEqual([
    'content/docs/leads/_meta.ts:3:3: "help" has the field "children", which is not one of an entry\'s: title, type, href, newWindow, display, theme, items.',
    'content/docs/leads/_meta.ts:4:3: "ghost" has the field "route", which is not one of an entry\'s: title, type, href, newWindow, display, theme, items.',
    'content/docs/leads/_meta.ts:5:3: "account.items.reset" has the field "route", which is not one of a menu item\'s: title, href, newWindow.',
    'content/docs/leads/_meta.ts:6:3: "listed" has items, which only an entry of type: \'menu\' shows.',
  ])
})

test("a direction control anywhere in a page's text or code fails at its line and column (Trojan Source: a review's code block copied other logic than it showed)", () => {
  const root = siteWith({
    'content/docs/leads/intro.mdx': page('title: Intro'),
    'content/docs/leads/code.mdx': page('title: Code') + '\n```js\nlet isAdmin = false; /*\u202e } \u2066if (isAdmin)\u2069 \u2066 begin admins only */\n```\n',
    'content/docs/leads/prose.mdx': '# Prose\n\nThe file invoice\u2066fdp.exe\u2069 is attached.\n',
    'content/docs/leads/arabic.mdx': page('title: Arabic') + '\nمرحبا Hello, عالم.\n',
  })
  expect(messages(root).sort()).toEqual([
    expect.stringMatching(/^content\/docs\/leads\/code\.mdx:7:24: the page holds U\+202E, a control that reorders the text after it, so the page would show other than its characters read \(in a code block, what a reader copies is not what they see\); remove it/),
    expect.stringMatching(/^content\/docs\/leads\/prose\.mdx:3:17: the page holds U\+2066, a control that reorders/),
  ])
})

test("what AI tools and the compiler would read otherwise fails at its line: a title with a line break or control written as an escape, a direction control as a character reference, a lone carriage return, a line like the full text's start of a page (a review forged another section's page and page lists)", () => {
  const root = siteWith({
    'content/docs/leads/intro.mdx': page('title: Intro'),
    'content/docs/leads/broken.mdx': page('title: "Rate limits: /docs/leads/limits\\n- Internal: on-call runbook: /docs/internal/intro"'),
    'content/docs/leads/escaped.mdx': page('title: Escaped\nsidebarTitle: "S\\0x"'),
    'content/docs/leads/folded.mdx': page('title: Folded\ndescription: >\n  A description\n  folded on two lines.'),
    'content/docs/leads/crlf.mdx': '---\r\ntitle: Q3\r\n---\r\n\r\n# Q3\r\n',
    'content/docs/leads/referenced.mdx': page('title: Referenced') + '\nText &#x202E;gnp.exe here.\n',
    'content/docs/leads/escape.mdx': page('title: Escape') + '\n<span title={"\\u202e"}>x</span>\n',
    'content/docs/leads/lone.mdx': page('title: Lone') + '\nOne line\rAnother\n',
    'content/docs/leads/forged.mdx': page('title: Forged') + '\n{/*\n---\n\n<!-- /docs/internal/intro -->\n\n# Internal: on-call\n*/}\n',
    'content/docs/leads/_meta.ts': "export default {\n  intro: 'Intro\\n- Internal: /docs/internal/intro',\n}\n",
  })
  const found = messages(root).sort()
  expect(found).toEqual([
    expect.stringMatching(/^content\/docs\/leads\/_meta\.ts:2:3: the title of "intro" holds U\+000A, a line break or a control character, which the sidebar, the tab, search and the AI tools' lists would show as another line or not at all: write it on one line\.$/),
    expect.stringMatching(/^content\/docs\/leads\/broken\.mdx:2: the front matter is not valid: `title` holds U\+000A, a line break or a control character/),
    expect.stringMatching(/^content\/docs\/leads\/escape\.mdx:6:15: the page holds \\u202e, a control that reorders/),
    expect.stringMatching(/^content\/docs\/leads\/escaped\.mdx:3: the front matter is not valid: `sidebarTitle` holds U\+0000/),
    expect.stringMatching(/^content\/docs\/leads\/forged\.mdx:9:1: the page holds a line that reads as the AI tools' start of a page \(<!-- \/route -->\)/),
    expect.stringMatching(/^content\/docs\/leads\/lone\.mdx:6:9: the page holds a carriage return alone \(U\+000D\)/),
    expect.stringMatching(/^content\/docs\/leads\/referenced\.mdx:6:6: the page holds &#x202E;, a control that reorders/),
  ])
})

test('a title, sidebar title, description or _meta title holding a direction control (U+202E and its kin) fails at its line: it would show other than its characters read', () => {
  const root = siteWith({
    'content/docs/leads/intro.mdx': page('title: Intro'),
    'content/docs/leads/spoofed.mdx': page('title: Spoofed\nsidebarTitle: "\\u202egnihtemos"'),
    'content/docs/leads/described.mdx': page('title: Described\ndescription: "invoice\\u2066fdp.exe\\u2069"'),
    'content/docs/leads/arabic.mdx': page('title: "مرحبا Hello"'),
    'content/docs/leads/_meta.ts': "export default {\n  intro: '\\u202dIntro',\n  spoofed: { title: 'Fine' },\n}\n",
  })
  expect(messages(root).sort()).toEqual([
    'content/docs/leads/_meta.ts:2:3: the title of "intro" holds U+202D, a control that reorders the text after it, so it would show other than its characters read (in the sidebar, the tab and search); remove it (right-to-left words need none: browsers order them).',
    expect.stringMatching(/^content\/docs\/leads\/described\.mdx:3: the front matter is not valid: `description` holds U\+2066, a control that reorders/),
    expect.stringMatching(/^content\/docs\/leads\/spoofed\.mdx:3: the front matter is not valid: `sidebarTitle` holds U\+202E, a control that reorders/),
  ])
})

test('a title, sidebar title or _meta title over 300 characters, or a description over 2,000, fails at its line (a block pasted into the field); one at the limit passes', () => {
  const root = siteWith({
    'content/docs/leads/intro.mdx': page(`title: ${'t'.repeat(300)}\ndescription: ${'d'.repeat(2000)}`),
    'content/docs/leads/pasted.mdx': page(`title: Pasted\nsidebarTitle: ${'w '.repeat(10000)}`),
    'content/docs/leads/described.mdx': page(`title: Described\ndescription: ${'d'.repeat(2001)}`),
    // Characters as a reader counts them: 300 emoji are 600 UTF-16 units, and pass.
    'content/docs/leads/emoji.mdx': page(`title: ${'😀'.repeat(300)}`),
    'content/docs/leads/_meta.ts': `export default {\n  intro: 'Intro',\n  pasted: { title: '${'x'.repeat(301)}' },\n}\n`,
  })
  expect(messages(root).sort()).toEqual([
    'content/docs/leads/_meta.ts:3:3: the title of "pasted" is 301 characters long; a title holds at most 300: shorten it.',
    expect.stringMatching(/^content\/docs\/leads\/described\.mdx:3: the front matter is not valid: `description` is 2,001 characters long; a description holds at most 2,000: shorten it/),
    expect.stringMatching(/^content\/docs\/leads\/pasted\.mdx:3: the front matter is not valid: `sidebarTitle` is 19,999 characters long; a title holds at most 300: shorten it/),
  ])
})

test("a page that nests past what the compiler can walk is refused at its line before it is compiled (1,400 elements hung the build); code blocks and autolinks are no nesting", () => {
  const page = (body: string) => `---\ntitle: Deep\n---\n\n# Deep\n\n${body}\n`
  const messages = (body: string) => checkContent(scanContent(siteWith({ 'content/docs/leads/deep.mdx': page(body) })), SECTIONS).map((problem) => problem.message)
  expect(messages(`${'<div>'.repeat(1400)}x${'</div>'.repeat(1400)}`)).toEqual([
    `content/docs/leads/deep.mdx:7: elements nest more than ${MAX_NESTING} levels deep, past what the site's compiler can walk; flatten them`,
  ])
  // A tag whose attributes run over lines is an element all the same (1,400 of them hung the compile).
  expect(messages(`${'<div\n  className="x"\n>\n'.repeat(1400)}x\n${'</div>\n'.repeat(1400)}`)).toEqual([
    `content/docs/leads/deep.mdx:${7 + 3 * MAX_NESTING}: elements nest more than ${MAX_NESTING} levels deep, past what the site's compiler can walk; flatten them`,
  ])
  expect(messages(`${'> '.repeat(3000)}quoted`)).toEqual([`content/docs/leads/deep.mdx:7: quotes nest more than ${MAX_NESTING} levels deep, past what the site's compiler can walk; flatten them`])
  const list = Array.from({ length: 150 }, (_, level) => `${'  '.repeat(level)}- item ${level}`).join('\n')
  expect(messages(list)).toEqual([`content/docs/leads/deep.mdx:${7 + MAX_NESTING + 1}: lists or indented blocks nest more than ${MAX_NESTING} levels deep, past what the site's compiler can walk; flatten them`])
  // As deep as allowed, or deep only inside code, or many links: nothing to say.
  expect(messages(`${'<div>'.repeat(MAX_NESTING)}x${'</div>'.repeat(MAX_NESTING)}`)).toEqual([])
  expect(messages(`${'<div\n>\n'.repeat(MAX_NESTING)}x\n${'</div>\n'.repeat(MAX_NESTING)}`)).toEqual([])
  expect(messages(`\`\`\`html\n${'<div>'.repeat(500)}\n\`\`\`\n\n\`${'<b>'.repeat(200)}\``)).toEqual([])
  expect(messages(Array.from({ length: 200 }, (_, i) => `<https://example.com/${i}> and <Callout>x</Callout>`).join('\n'))).toEqual([])
  // An escaped \< opens nothing, however far the next > is.
  expect(messages(Array.from({ length: 120 }, (_, i) => `A \\<T${i} type.\n\n> a quote`).join('\n\n'))).toEqual([])
  // An element whose attribute holds a URL or an address is an element, not an autolink, and stray end tags hide nothing.
  expect(messages(`${'</div>'.repeat(50)}\n${'<Card\n  href="https://example.com/a@b"\n>\n'.repeat(150)}x`)).toEqual([
    `content/docs/leads/deep.mdx:${8 + 3 * MAX_NESTING}: elements nest more than ${MAX_NESTING} levels deep, past what the site's compiler can walk; flatten them`,
  ])
})

test('a _meta value nested past what its parser can read is named with its file, not a bare stack overflow', () => {
  const deep = `${'{ a: '.repeat(3000)}1${' }'.repeat(3000)}`
  const root = siteWith({ 'content/docs/leads/_meta.ts': `export default {\n  intro: 'Intro',\n  deep: { type: 'separator', title: 'Deep', x: ${deep} },\n}\n` })
  const messages = checkContent(scanContent(root), SECTIONS).map((problem) => problem.message)
  expect(messages).toHaveLength(1)
  expect(messages[0]).toMatch(/^content\/docs\/leads\/_meta\.ts: this _meta file nests its values too deep to read \(Maximum call stack size exceeded\); a sidebar entry needs a few levels at most$/)
})

test('a file under content/ that is no page and no _meta file fails, naming it and where it belongs: nothing reads it, and it went missing with nothing said', () => {
  const root = siteWith({
    'content/docs/leads/intro.mdx': page('title: Intro'),
    'content/docs/leads/Setup.MDX': page('title: Setup'),
    'content/docs/leads/flows/quote-flow.png': 'PNG',
    'content/docs/leads/notes.docx': 'doc',
    'content/docs/leads/_meta.yaml': 'intro: Intro\n',
    'content/docs/_meta.yml': 'leads: Leads\n',
    'content/notes.txt': 'notes',
    // An editor's or the system's, not a writer's.
    'content/docs/leads/.DS_Store': '',
    'content/.gitkeep': '',
    'content/docs/leads/intro.mdx~': '',
    'content/docs/leads/#intro.mdx#': '',
    'content/docs/leads/4913': '',
    'content/docs/leads/Thumbs.db': '',
  })
  expect(checkContent(scanContent(root), SECTIONS).map((problem) => [problem.constructor.name, problem.message])).toEqual([
    ['NotContentFileError', 'content/docs/_meta.yml: content/ holds pages (.mdx, .md) and _meta files only, and nothing reads this file, so no reader would see it; a _meta file is _meta.ts (or .tsx, .js, .jsx, .mjs): rename it.'],
    ['NotContentFileError', 'content/docs/leads/_meta.yaml: content/ holds pages (.mdx, .md) and _meta files only, and nothing reads this file, so no reader would see it; a _meta file is _meta.ts (or .tsx, .js, .jsx, .mjs): rename it.'],
    ['NotContentFileError', 'content/docs/leads/flows/quote-flow.png: content/ holds pages (.mdx, .md) and _meta files only, and nothing reads this file, so no reader would see it; images and downloads live under public/: move it to public/docs/leads/flows/quote-flow.png and link it as /docs/leads/flows/quote-flow.png.'],
    ['NotContentFileError', 'content/docs/leads/notes.docx: content/ holds pages (.mdx, .md) and _meta files only, and nothing reads this file, so no reader would see it; move it out of content/, or delete it.'],
    ['NotContentFileError', 'content/docs/leads/Setup.MDX: content/ holds pages (.mdx, .md) and _meta files only, and nothing reads this file, so no reader would see it; a page\'s name is a lowercase slug: rename it to content/docs/leads/setup.mdx.'],
    ['NotContentFileError', 'content/notes.txt: content/ holds pages (.mdx, .md) and _meta files only, and nothing reads this file, so no reader would see it; images and downloads live under public/: move it to public/notes.txt and link it as /notes.txt.'],
  ])
})

test("content/docs/_meta.ts naming a section fails at its key: the section's tab, title and place are access.config.ts's, and the entry changed nothing", () => {
  const root = siteWith({
    'content/docs/leads/intro.mdx': page('title: Intro'),
    'content/docs/internal/intro.mdx': page('title: Internal'),
    'content/docs/_meta.ts': "export default {\n  leads: 'Leads renamed',\n  internal: { title: 'Internal renamed', display: 'hidden' },\n}\n",
  })
  expect(messages(root)).toEqual([
    'content/docs/_meta.ts:2:3: the key "leads" names a section, whose tab, title and place are its entry in access.config.ts (`sections`, an admin\'s); this entry changes nothing: remove it.',
    'content/docs/_meta.ts:3:3: the key "internal" names a section, whose tab, title and place are its entry in access.config.ts (`sections`, an admin\'s); this entry changes nothing: remove it.',
  ])
})

test("after an upgrade of the content rules (the scan's parsers changed), pages the store saw pass are checked again, so a page the new rules refuse is named with the others", async () => {
  const root = siteWith({ 'content/docs/leads/intro.mdx': page('title: Intro'), 'content/docs/leads/other.mdx': page('title: Other') })
  const store = new PageStore(null)
  await checkAndCompile(scanContent(root), store)
  // The same bytes as a page the store recorded as passing, under rules that now refuse it.
  fs.writeFileSync(path.join(root, 'content/docs/leads/intro.mdx'), page(`title: ${'t'.repeat(301)}`))
  const source = scanContent(root)
  const long = source.byRoute('/docs/leads/intro')!
  store.recordCompile({ ...store.pages, '/docs/leads/intro': { ...store.pages['/docs/leads/intro'], digest: long.digest } })
  store.recordScan({ parsers: 'the parsers of an older version', pages: {} })
  const thrown = await checkAndCompile(source, store).then(() => null, (error: unknown) => error)
  expect(thrown).toBeInstanceOf(BadContentError)
  expect((thrown as BadContentError).message).toMatch(/content\/docs\/leads\/intro\.mdx:2: the front matter is not valid: `title` is 301 characters long/)
})
