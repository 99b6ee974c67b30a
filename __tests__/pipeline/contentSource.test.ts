/** @jest-environment node */
/**
 * The one content source (pipeline/content/contentSource.ts): the page map it makes is the one
 * Nextra's collector makes of the same folders (an untitled page titled by the site's one rule), each page's file is read once however many steps
 * take the page, and the build's steps read no page's MDX themselves.
 */
import { execFileSync } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import { access } from '../../lib/access'
import { searchDataOf } from '../../pipeline/compile/readDocuments'
import { BODY_CACHE_DIR, scanContent } from '../../pipeline/content/contentSource'
import { slugTitle } from '../../lib/navigation/slugTitle'
import { isFolder, isPage, type RawFolder, type RawItem } from '../../lib/navigation/shapePageMap'
import { pageMapInputs } from '../../pipeline/pageMaps'
import { openNavigation } from '../../pipeline/navigationRecord'
import { writePageProps } from '../../pipeline/render/pageProps'
import { markdownFileMap } from './helpers/markdownFiles'
import { readStore } from '../../pipeline/store/pageStore'
import { planFor } from '../../pipeline/steps/contentSteps'
import { checkAndCompile } from '../../pipeline/steps/checkContent'
import { assertLinks } from '../../pipeline/steps/checkLinks'
import { tempSite } from '../fixtures/tempSite'

const ROOT = path.resolve(__dirname, '../..')
const site = (files: Record<string, string>) => tempSite('content-source-', files)

/**
 * Nextra's own page map of `root`/content/ (its collector is an ES module, which jest cannot
 * import: so in a child process). `_meta` files are named by Nextra's import names there and by
 * their paths here; both are replaced by their folder's data (lib/navigation/navigationTree.ts), so they are compared as "meta".
 */
function nextraPageMap(root: string): unknown {
  const script = [
    `import path from 'node:path'`,
    `import { pathToFileURL } from 'node:url'`,
    `const file = path.join(path.dirname(require.resolve('nextra/package.json')), 'dist/server/page-map.js')`,
    `import(pathToFileURL(file).href).then(({ collectPageMap }) => collectPageMap({ dir: ${JSON.stringify(path.join(root, 'content'))}, route: '/', locale: '', transformPageMap: (map) => (process.stdout.write(JSON.stringify(map)), map) }))`,
  ].join('\n')
  return JSON.parse(execFileSync(process.execPath, [path.join(ROOT, 'node_modules/tsx/dist/cli.mjs'), '-e', script], { cwd: ROOT, encoding: 'utf8' }))
}
const metasAsOne = (map: unknown) => JSON.parse(JSON.stringify(map, (key, value: unknown) => (key === 'data' && typeof value === 'string' ? 'meta' : value)))

/** Nextra's page map with each page's front matter cut to what the navigation reads, as ours carries it. */
const NAVIGATION_FIELDS = ['title', 'sidebarTitle', 'display', 'theme']
const navigationOnly = (map: unknown) =>
  JSON.parse(JSON.stringify(map, (key, value: unknown) => (key === 'frontMatter' ? Object.fromEntries(Object.entries(value as object).filter(([field]) => NAVIGATION_FIELDS.includes(field))) : value)))

/**
 * Nextra's page map with an untitled page's sidebar title by the site's one rule
 * (lib/navigation/slugTitle.ts), not by Nextra's `title` package: the browser titles a folder by
 * that rule, and the package would weigh on the sign-in page. (No page here has a sidebar title
 * of its own without a title.)
 */
const withSlugTitles = (map: unknown) =>
  JSON.parse(JSON.stringify(map, (_key, value: { name?: string; frontMatter?: Record<string, unknown> }) => (value && typeof value === 'object' && value.frontMatter && !value.frontMatter.title && value.name ? { ...value, frontMatter: { ...value.frontMatter, sidebarTitle: slugTitle(value.name) } } : value)))

jest.setTimeout(180_000)

test("the page map is Nextra's, less the front matter the navigation does not read, for the real content and for untitled pages, index pages and folders with nothing in them", () => {
  const fixture = site({
    'content/index.mdx': '# Home\n',
    'content/_meta.ts': 'export default {}\n',
    'content/docs/leads/getting-started_now.mdx': 'No front matter at all.\n',
    'content/docs/leads/api-and-sdk-for-ssr.md': '---\ndescription: Untitled.\n---\n\nText.\n',
    'content/docs/leads/endpoints/index.mdx': '---\ntitle: Endpoints\nsidebarTitle: Calls\n---\n',
    'content/docs/leads/endpoints/Zeta.mdx': '---\ntitle: Zeta\nowner: team-z\ndisplay: hidden\ntheme:\n  toc: false\n---\n',
    'content/docs/leads/images/logo.svg': '<svg/>',
    'content/docs/empty/.gitkeep': '',
  })
  for (const root of [ROOT, fixture]) expect(metasAsOne(scanContent(root).pageMap())).toEqual(withSlugTitles(navigationOnly(metasAsOne(nextraPageMap(root)))))
  // Where the rules differ, for an untitled page: Nextra's would say "API and SDK for SSR".
  const folder = (items: readonly RawItem[], name: string) => items.find((item): item is RawFolder => isFolder(item) && item.name === name)?.children ?? []
  const leads = folder(folder(scanContent(fixture).pageMap(), 'docs'), 'leads')
  expect(leads.filter(isPage).filter((item) => !item.frontMatter?.title).map((item) => item.frontMatter?.sidebarTitle)).toEqual(['Api And Sdk For Ssr', 'Getting Started Now'])
  // Every page's props and route manifest carry the page map: a description or a writer's own field is not in it.
  const ours = JSON.stringify(scanContent(fixture).pageMap())
  expect([ours.includes('Untitled.'), ours.includes('team-z'), ours.includes('"display":"hidden"'), ours.includes('"toc":false')]).toEqual([false, false, true, true])
})

test('a page is read when a step first needs it, and once, however many steps take it', () => {
  const root = site({ 'content/docs/leads/intro.mdx': '---\ntitle: Intro\n---\n\n# Intro\n', 'content/docs/leads/other.mdx': '# Other\n' })
  const source = scanContent(root)
  expect(source.pages.map((page) => [page.file, page.route])).toEqual([
    ['content/docs/leads/intro.mdx', '/docs/leads/intro'],
    ['content/docs/leads/other.mdx', '/docs/leads/other'],
  ])
  expect([...source.reads]).toEqual([])
  const intro = source.byRoute('/docs/leads/intro')!
  expect([intro.frontMatter, intro.body, intro.digest.length]).toEqual([{ title: 'Intro' }, '# Intro\n', 64])
  source.pageMap()
  expect(intro.text).toContain('# Intro')
  expect(Object.fromEntries(source.reads)).toEqual({ 'content/docs/leads/intro.mdx': 1, 'content/docs/leads/other.mdx': 1 })
})

test('in `npm run dev`, a new scan reads again only the pages that changed', () => {
  const root = site({ 'content/docs/leads/intro.mdx': '# Intro\n', 'content/docs/leads/other.mdx': '# Other\n' })
  // Written long enough before the scan for its reading to be kept (pipeline/content/scanRecord.ts).
  for (const name of ['intro', 'other']) fs.utimesSync(path.join(root, `content/docs/leads/${name}.mdx`), new Date(Date.now() - 60_000), new Date(Date.now() - 60_000))
  const first = scanContent(root)
  first.pages.forEach((page) => page.text)
  fs.writeFileSync(path.join(root, 'content/docs/leads/other.mdx'), '# Other, edited\n')
  const second = scanContent(root, first)
  expect(second.pages.map((page) => page.text)).toEqual(['# Intro\n', '# Other, edited\n'])
  expect(Object.fromEntries(second.reads)).toEqual({ 'content/docs/leads/other.mdx': 1 })
})

test('released, a page keeps its digest and front matter, its body comes from the body cache, and its MDX is gone', () => {
  const root = site({ 'content/docs/leads/intro.mdx': '---\ntitle: Intro\n---\n\n# Intro\n', 'content/docs/leads/other.mdx': '# Other\n' })
  const first = scanContent(root)
  first.pages.forEach((page) => page.text)
  fs.mkdirSync(path.join(root, BODY_CACHE_DIR), { recursive: true })
  fs.writeFileSync(path.join(root, BODY_CACHE_DIR, 'gone.md'), 'a body no page has')
  first.releaseTexts()
  const intro = first.byRoute('/docs/leads/intro')!
  expect(() => intro.text).toThrow(/content\/docs\/leads\/intro\.mdx: a step asked for the MDX after the build released it/)
  expect([intro.frontMatter, intro.body, intro.digest.length]).toEqual([{ title: 'Intro' }, '# Intro\n', 64])
  expect(fs.readdirSync(path.join(root, BODY_CACHE_DIR)).sort()).toEqual(first.pages.map((page) => `${page.digest}.md`).sort())
  expect(Object.fromEntries(first.reads)).toEqual({ 'content/docs/leads/intro.mdx': 1, 'content/docs/leads/other.mdx': 1 })
  // After an edit, the next build writes the new version's body and removes the old one's.
  fs.writeFileSync(path.join(root, 'content/docs/leads/other.mdx'), '# Other, edited\n')
  const second = scanContent(root)
  second.pages.forEach((page) => page.text)
  second.releaseTexts()
  expect(second.pages.map((page) => page.body)).toEqual(['# Intro\n', '# Other, edited\n'])
  expect(fs.readdirSync(path.join(root, BODY_CACHE_DIR))).toHaveLength(2)
})

/** Two pages last written a minute ago (so the scan records them), scanned, read and released. */
function releasedSettledSite() {
  const root = site({ 'content/docs/leads/intro.mdx': '---\ntitle: Intro\n---\n\n# Intro\n', 'content/docs/leads/other.mdx': '# Other\n' })
  const past = new Date(Date.now() - 60_000)
  for (const file of ['intro', 'other']) fs.utimesSync(path.join(root, `content/docs/leads/${file}.mdx`), past, past)
  const first = scanContent(root)
  first.pages.forEach((page) => page.text)
  first.releaseTexts()
  return { root, first }
}

test("a page taken from the store's record is read again at its release only when its kept body is gone", () => {
  const { root, first } = releasedSettledSite()
  // Nothing changed and every body is kept: no page is read.
  const second = scanContent(root, undefined, first.scanRecord())
  second.releaseTexts()
  expect(Object.fromEntries(second.reads)).toEqual({})
  expect(second.pages.map((page) => page.body)).toEqual(['# Intro\n', '# Other\n'])
  // The kept bodies removed: each page is read once more, for its body.
  fs.rmSync(path.join(root, BODY_CACHE_DIR), { recursive: true })
  const third = scanContent(root, undefined, second.scanRecord())
  third.releaseTexts()
  expect(Object.fromEntries(third.reads)).toEqual({ 'content/docs/leads/intro.mdx': 1, 'content/docs/leads/other.mdx': 1 })
  expect(fs.readdirSync(path.join(root, BODY_CACHE_DIR)).sort()).toEqual(third.pages.map((page) => `${page.digest}.md`).sort())
  expect(third.pages.map((page) => page.body)).toEqual(['# Intro\n', '# Other\n'])
})

test('a kept body damaged (cut short, or the same length) is never taken: the page is read again for it, and its body kept again', () => {
  const { root, first } = releasedSettledSite()
  const kept = (page: { digest: string }) => path.join(root, BODY_CACHE_DIR, `${page.digest}.md`)
  const [intro, other] = first.pages
  fs.writeFileSync(kept(intro), fs.readFileSync(kept(intro), 'utf8').slice(0, -3))
  fs.writeFileSync(kept(other), fs.readFileSync(kept(other), 'utf8').replace('Other', 'Whose'))
  const second = scanContent(root, undefined, first.scanRecord())
  second.releaseTexts()
  expect(Object.fromEntries(second.reads)).toEqual({})
  expect(second.pages.map((page) => page.body)).toEqual(['# Intro\n', '# Other\n'])
  expect(Object.fromEntries(second.reads)).toEqual({ 'content/docs/leads/intro.mdx': 1, 'content/docs/leads/other.mdx': 1 })
  // Kept again whole: the next reading takes them without reading a page.
  const third = scanContent(root, undefined, second.scanRecord())
  third.releaseTexts()
  expect(third.pages.map((page) => page.body)).toEqual(['# Intro\n', '# Other\n'])
  expect(Object.fromEntries(third.reads)).toEqual({})
})

test("a build's steps, from the content check to the Markdown and search data, read each page's MDX once", async () => {
  const reads = new Map<string, number>()
  const content = path.join(ROOT, 'content') + path.sep
  const count = (file: unknown) => {
    const absolute = path.resolve(ROOT, String(file))
    if (/\.mdx?$/.test(absolute) && absolute.startsWith(content)) reads.set(path.relative(ROOT, absolute), (reads.get(path.relative(ROOT, absolute)) ?? 0) + 1)
  }
  // Every way a step could open a page's file itself, counted.
  const spy = <T extends object, K extends keyof T>(owner: T, name: K) => {
    const original = owner[name] as (...args: unknown[]) => unknown
    return jest.spyOn(owner, name as never).mockImplementation(((file: unknown, ...rest: unknown[]) => (count(file), original.call(owner, file, ...rest))) as never)
  }
  const spies = [spy(fs, 'readFileSync'), spy(fs, 'openSync'), spy(fs, 'readFile'), spy(fs.promises, 'readFile'), spy(fs, 'createReadStream')]
  try {
    // The same calls, in the same order, as pipeline/steps/buildSite.ts makes before and after `next build`.
    const source = scanContent(ROOT)
    const store = readStore(ROOT)
    await checkAndCompile(source, store)
    const pages = assertLinks(source)
    source.releaseTexts()
    const plan = planFor(pages)
    const mapInputs = pageMapInputs(source)
    const pageMap = source.pageMap()
    const navigation = openNavigation(ROOT, source, pageMap, plan, mapInputs)
    writePageProps(ROOT, store, { audienceOf: plan.audienceOf, navigation, lastUpdated: {} })
    const search = searchDataOf(ROOT, store.pages)
    search.routes.forEach(search.read)
    markdownFileMap(source, store.pages, plan, { pageMaps: navigation.fragments(), lastUpdated: {} })
    const expected = Object.fromEntries(source.pages.map((page) => [page.file, 1]))
    expect(Object.fromEntries(reads)).toEqual(expected)
    expect(Object.fromEntries(source.reads)).toEqual(expected)
  } finally {
    spies.forEach((spy) => spy.mockRestore())
  }
})

test("a `_meta` file's relative hrefs, and those naming a page's .mdx, go to the sidebar as the site paths the link check judged, the same from every page of the folder; other links as written", () => {
  const root = site({
    'content/index.mdx': '# Home\n',
    'content/docs/leads/intro.mdx': '# Intro\n',
    'content/docs/leads/guides/index.mdx': '# Guides\n',
    'content/docs/leads/guides/setup.mdx': '# Setup\n',
    'content/docs/leads/guides/deep/step.mdx': '# Step\n',
    'content/docs/leads/guides/_meta.ts': [
      'export default {',
      "  index: 'Guides', setup: 'Setup', deep: 'Deep',",
      // Resolved as on the folder's own page (/docs/leads/guides): from /docs/leads/.
      "  back: { title: 'Back', href: 'intro' },",
      "  here: { title: 'Here', href: './guides/setup#install' },",
      "  status: { title: 'Status', href: 'https://status.example.com' },",
      "  file: { title: 'File', href: 'guides/setup.mdx#install' },",
      "  self: { title: 'Self', href: '' },",
      "  menu: { type: 'menu', title: 'More', items: { step: { title: 'Step', href: 'guides/deep/step?tab=1' }, top: { title: 'Top', href: '/docs/leads/intro' } } },",
      '}',
    ].join('\n'),
  })
  const source = scanContent(root)
  const pages = assertLinks(source)
  const data = source.metaOf('/docs/leads/guides') as Record<string, { href?: string; items?: Record<string, { href: string }> }>
  expect([data.back.href, data.here.href, data.status.href, data.file.href, data.self.href, data.menu.items!.step.href, data.menu.items!.top.href]).toEqual(['/docs/leads/intro', '/docs/leads/guides/setup#install', 'https://status.example.com', '/docs/leads/guides/setup#install', '/docs/leads/guides', '/docs/leads/guides/deep/step?tab=1', '/docs/leads/intro'])
  // What the leads readers' pages are given: no href left to each page's address to resolve.
  const plan = planFor(pages)
  const navigation = openNavigation(root, source, source.pageMap(), plan, pageMapInputs(source))
  const shipped = JSON.stringify([...navigation.fragments().values()])
  expect(shipped).toContain('"/docs/leads/guides/setup#install"')
  expect([...shipped.matchAll(/"href":"([^"]*)"/g)].map(([, href]) => href).filter((href) => !/^(\/|https:)/.test(href))).toEqual([])
})
