/** @jest-environment node */
/**
 * The content scan across builds (pipeline/content/scanRecord.ts): a page unchanged since the last
 * build is taken from the page store's record, not read; a page changed in a way its stamp could
 * hide (same size, same second) is read; and whatever an unchanged page is replaced with, a link
 * or a special file, is refused as on a first scan.
 */
import { execFileSync } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import { NotAFileError, PageChangedError, scanContent, type ContentSource } from '../../pipeline/content/contentSource'
import { SCAN_PARSER_FILES, scanParsers } from '../../pipeline/content/scanRecord'
import { readStore } from '../../pipeline/store/pageStore'
import { tempSite } from '../fixtures/tempSite'

const PROJECT = path.resolve(__dirname, '../..')
const INTRO = 'content/docs/leads/intro.mdx'
const OTHER = 'content/docs/leads/other.mdx'
const META = 'content/docs/leads/_meta.ts'
const files = {
  [INTRO]: '---\ntitle: Intro\ndescription: The start\n---\n\n# Intro\n\nSee [the other page](./other) and ![a flow](/docs/leads/images/flow.png).\n\n```ts\nconst a = 1\n```\n',
  [OTHER]: '# Other\n\nBack to [the intro](/docs/leads/intro).\n',
  'public/docs/leads/images/flow.png': 'png',
  [META]: "export default {\n  intro: 'Introduction',\n  site: { title: 'Site', href: '/docs/leads/intro' },\n}\n",
}

/** A site whose pages were written a minute ago: long enough before a scan for it to be kept. */
function settledSite(): string {
  const root = tempSite('scan-record-', files)
  const past = new Date(Date.now() - 60_000)
  for (const file of [INTRO, OTHER, META]) fs.utimesSync(path.join(root, file), past, past)
  return root
}

/** What every step takes of each page once its MDX is released. */
const seen = (source: ContentSource) => source.pages.map((page) => ({ file: page.file, digest: page.digest, frontMatter: page.frontMatter, body: page.body, bodyBytes: page.bodyBytes, links: page.links, codeLanguages: page.codeLanguages }))

/** A build's scan: every page's MDX had by the checks, then released, and the scan recorded in the store as the build does (pipeline/steps/contentSteps.ts). */
function buildScan(root: string): ContentSource {
  const store = readStore(root)
  const source = scanContent(root, undefined, store.scan)
  for (const page of source.pages) void page.links
  for (const meta of source.metas) void [meta.data, meta.links]
  source.releaseTexts()
  store.recordScan(source.scanRecord())
  store.save()
  return source
}

test('a page unchanged since the last build is not read again: the next build takes its digest, front matter, body, links and code languages from the store', () => {
  const root = settledSite()
  const first = buildScan(root)
  expect(Object.fromEntries(first.reads)).toEqual({ [INTRO]: 1, [OTHER]: 1 })
  const second = buildScan(root)
  expect(seen(second)).toEqual(seen(first))
  expect(second.byFile(INTRO)?.codeLanguages).toEqual(['ts'])
  expect(Object.fromEntries(second.reads)).toEqual({})
})

test('a page edited since the last build is read again, and only that one', () => {
  const root = settledSite()
  buildScan(root)
  fs.writeFileSync(path.join(root, OTHER), '# Other, edited\n\nBack to [a page that is gone](/docs/leads/gone).\n')
  const second = buildScan(root)
  expect(Object.fromEntries(second.reads)).toEqual({ [OTHER]: 1 })
  expect(second.byFile(OTHER)?.links).toEqual([[3, '/docs/leads/gone']])
  expect(second.byFile(OTHER)?.body).toBe('# Other, edited\n\nBack to [a page that is gone](/docs/leads/gone).\n')
})

test('a page edited with the same size within the same second as the build that read it is read again (racy rule)', () => {
  const root = tempSite('scan-record-', files)
  // A clock that ticks once a second (as some file systems' do): the page's time is this second's.
  const written = Math.floor(Date.now() / 1000)
  fs.utimesSync(path.join(root, OTHER), written, written)
  buildScan(root)
  // Same size, and the time the clock's tick leaves it: only the racy rule tells the two versions apart.
  fs.writeFileSync(path.join(root, OTHER), files[OTHER].replace('Other', 'OTHER'))
  fs.utimesSync(path.join(root, OTHER), written, written)
  const second = buildScan(root)
  expect(second.byFile(OTHER)?.body).toMatch(/^# OTHER\n/)
  expect(Object.fromEntries(second.reads)).toMatchObject({ [OTHER]: 1 })
})

test('a page replaced by a file with another inode, same size and time, is read again', () => {
  const root = settledSite()
  buildScan(root)
  const stat = fs.statSync(path.join(root, OTHER))
  fs.writeFileSync(path.join(root, `${OTHER}.new`), files[OTHER].replace('Other', 'OTHER'))
  fs.utimesSync(path.join(root, `${OTHER}.new`), stat.atime, stat.mtime)
  fs.renameSync(path.join(root, `${OTHER}.new`), path.join(root, OTHER))
  expect(buildScan(root).byFile(OTHER)?.body).toMatch(/^# OTHER\n/)
})

test('an unchanged page replaced by a symbolic link, or by a special file, is refused, not taken from the record', () => {
  const root = settledSite()
  buildScan(root)
  fs.rmSync(path.join(root, OTHER))
  fs.writeFileSync(path.join(root, 'secret.txt'), files[OTHER])
  fs.symlinkSync(path.join(root, 'secret.txt'), path.join(root, OTHER))
  const linked = buildScan(root)
  expect(linked.byFile(OTHER)).toBeUndefined()
  expect(linked.problems).toEqual([expect.any(NotAFileError)])
  expect(linked.problems[0].message).toMatch(/other\.mdx: is a symbolic link/)
  fs.rmSync(path.join(root, OTHER))
  execFileSync('mkfifo', [path.join(root, OTHER)])
  const special = buildScan(root)
  expect(special.byFile(OTHER)).toBeUndefined()
  expect(special.problems[0].message).toMatch(/other\.mdx: is neither a file nor a folder/)
})

test('the store keeps the scan record across runs, and a record made by other parsers (another digest of their code) is not used: every page and `_meta` file is read again', () => {
  const root = settledSite()
  buildScan(root)
  expect(Object.keys(readStore(root).scan?.pages ?? {}).sort()).toEqual([INTRO, OTHER])
  const store = readStore(root)
  expect(store.scan?.parsers).toBe(scanParsers())
  // As an older parser would have recorded it: a `_meta` file read with another title, a page with other front matter.
  const older = { ...store.scan!, parsers: 'an older parser', pages: { ...store.scan!.pages, [INTRO]: { ...store.scan!.pages[INTRO], frontMatter: { title: 'As the old parser read it' } } }, metas: { [META]: { ...store.scan!.metas![META], data: { intro: 'As the old parser read it' } } } }
  store.recordScan(older)
  store.save()
  const again = buildScan(root)
  expect(Object.fromEntries(again.reads)).toEqual({ [INTRO]: 1, [OTHER]: 1 })
  expect(again.byFile(INTRO)?.frontMatter).toEqual({ title: 'Intro', description: 'The start' })
  expect(again.metas[0].data).toEqual({ intro: 'Introduction', site: { title: 'Site', href: '/docs/leads/intro' } })
})

test('the parser digest covers every module of the project the parsers import, so a change in any of them is seen', () => {
  const listed = new Set<string>(SCAN_PARSER_FILES)
  const imported = SCAN_PARSER_FILES.flatMap((file) =>
    [...fs.readFileSync(path.join(PROJECT, file), 'utf8').matchAll(/^import\s+(?!type\b)[^'"]*['"](\.[^'"]+)['"]/gm)].map((match) => path.relative(PROJECT, path.resolve(PROJECT, path.dirname(file), match[1])) + (/\.m?js$/.test(match[1]) ? '' : '.ts'))
  )
  expect(imported.length).toBeGreaterThan(0)
  expect(imported.filter((file) => !listed.has(file))).toEqual([])
})

test("a `_meta` file unchanged since the last build (by its stamp) is not read: its data and links come from the record; an edited one is read and parsed again", () => {
  const root = settledSite()
  const first = buildScan(root)
  expect(first.metas.map((meta) => [meta.data, meta.links])).toEqual([[{ intro: 'Introduction', site: { title: 'Site', href: '/docs/leads/intro' } }, [[3, '/docs/leads/intro']]]])
  // Rewritten in place with the same size and time (the same stamp): only a scan that reads it sees the change.
  const written = fs.readFileSync(path.join(root, META), 'utf8')
  const { mtime } = fs.statSync(path.join(root, META))
  fs.writeFileSync(path.join(root, META), written.replace("'Introduction'", "'INTRODUCTION'"))
  fs.utimesSync(path.join(root, META), mtime, mtime)
  const second = scanContent(root, undefined, readStore(root).scan)
  expect(second.metas.map((meta) => [meta.data, meta.links])).toEqual(first.metas.map((meta) => [meta.data, meta.links]))
  fs.writeFileSync(path.join(root, META), written.replace("'Introduction'", "'Start here'"))
  const third = scanContent(root, undefined, readStore(root).scan)
  expect(third.metas[0].data).toEqual({ intro: 'Start here', site: { title: 'Site', href: '/docs/leads/intro' } })
})

test('a page taken from the record and written again before a step reads its text fails that read, naming the file: no step mixes two versions of it', () => {
  const root = settledSite()
  buildScan(root)
  const source = scanContent(root, undefined, readStore(root).scan)
  expect(source.byFile(OTHER)?.digest).toBeDefined()
  // Written after the scan took the page from the record, before the compile asks for its text.
  fs.writeFileSync(path.join(root, OTHER), '# Other, written during the build\n')
  expect(() => source.byFile(OTHER)?.text).toThrow(PageChangedError)
  expect(() => source.byFile(OTHER)?.text).toThrow(`${OTHER}: changed during the build (it no longer holds the text the build scanned); run the build again.`)
  // Unchanged since the scan: its text is had, as the record's version.
  expect(source.byFile(INTRO)?.text).toBe(files[INTRO])
})
