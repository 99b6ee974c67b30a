/**
 * @jest-environment node
 *
 * The same pages compile to the same bytes, whatever the order they are compiled in, how many
 * workers share them and how busy the machine is. Two compiles of a set of the site's own pages
 * are compared page by page: one in a single worker, in path order, with the real clock; one in
 * two workers, the second half of the pages first, with a clock that runs fast in the workers
 * (./helpers/busyClock.cjs), as on a machine busy with other builds. A highlighter that gives up
 * on a line after some time, or colours a language differently after another was loaded, makes
 * the two differ.
 *
 * The set, rather than the whole site (about 100 pages, too slow for two compiles here): for each
 * language the site's code blocks use, the first page that uses it and the page with the most
 * blocks of it, so every grammar is loaded in a different order and by a different worker.
 */
import { scanContent } from '../../pipeline/content/contentSource'
import { spawnSync } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { CACHE_DIR, compilePages, type CacheEntry } from '../../pipeline/compile/compilePages'
import { readChecked } from '../../pipeline/files'

jest.setTimeout(120_000)

const project = path.resolve(__dirname, '../..')
const roots: string[] = []
afterAll(() => roots.forEach((root) => fs.rmSync(root, { recursive: true, force: true })))

/** The language of each fenced code block of a page. */
const FENCE = /^[ \t]*(?:```|~~~)[`~]*[ \t]*([\w+#-]+)/gm
const languagesOf = (text: string) => [...text.matchAll(FENCE)].map((match) => match[1])

/** For each language of the site's code blocks, its first page and the page with most blocks of it. */
function representativePages(): { files: string[]; languages: string[] } {
  const blocks = new Map<string, Map<string, number>>()
  for (const { file, text } of scanContent(project).pages) {
    for (const language of languagesOf(text)) {
      const pages = blocks.get(language) ?? new Map<string, number>()
      pages.set(file, (pages.get(file) ?? 0) + 1)
      blocks.set(language, pages)
    }
  }
  const files = new Set<string>()
  for (const pages of blocks.values()) {
    const [first] = pages.keys() // The source lists pages in path order.
    const most = [...pages].reduce((best, page) => (page[1] > best[1] ? page : best))[0]
    files.add(first).add(most)
  }
  return { files: [...files].sort(), languages: [...blocks.keys()].sort() }
}

/** A site on disk with these pages of the project and its next.config.ts (part of the compiler's fingerprint). */
function site(files: string[]): string {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'same-bytes-'))
  roots.push(root)
  fs.copyFileSync(path.join(project, 'next.config.ts'), path.join(root, 'next.config.ts'))
  for (const file of files) {
    fs.mkdirSync(path.dirname(path.join(root, file)), { recursive: true })
    fs.copyFileSync(path.join(project, file), path.join(root, file))
  }
  return root
}

/** Each page's cache entry as written, by the page's file: the compiled document, byte for byte. */
function documents(root: string): Map<string, string> {
  const dir = path.join(root, CACHE_DIR)
  return new Map(
    fs.readdirSync(dir).map((name) => {
      // Checked as written (pipeline/files.ts writeChecked): the comparison is of the document itself.
      const text = readChecked(path.join(dir, name)) ?? ''
      return [(JSON.parse(text) as { output?: { filePath: string } }).output?.filePath ?? name, text]
    })
  )
}

/** Where two texts first differ, with some text of each around it. */
function firstDifference(a: string, b: string): string {
  let at = 0
  while (at < a.length && a[at] === b[at]) at++
  return `at ${at}: …${a.slice(Math.max(0, at - 120), at + 80)}… then …${b.slice(Math.max(0, at - 120), at + 80)}…`
}

test('a set of the site’s pages compiles to the same documents in another order, in more workers, on a busy machine', async () => {
  const { files, languages } = representativePages()
  expect(languages.length).toBeGreaterThan(1)

  const calm = site(files)
  await compilePages(scanContent(calm), undefined, { workers: 1 })

  const busy = site(files)
  const half = Math.ceil(files.length / 2)
  const run = `(async () => {
    const { compilePages } = require('./pipeline/compile/compilePages')
    const { scanContent } = require('./pipeline/content/contentSource')
    // The second half first, then the rest (the second half then from the cache).
    await compilePages(scanContent(${JSON.stringify(busy)}), undefined, { workers: 2, skip: new Set(${JSON.stringify(files.slice(0, half))}) })
    await compilePages(scanContent(${JSON.stringify(busy)}), undefined, { workers: 2 })
  })().catch((error) => { console.error(error); process.exit(1) })`
  const busyClock = path.join(__dirname, 'helpers/busyClock.cjs')
  const child = spawnSync(process.execPath, ['--require', busyClock, '--require', 'tsx/cjs', '-e', run], { cwd: project, encoding: 'utf8' })
  expect(child.stderr).toBe('')
  expect(child.status).toBe(0)

  const before = documents(calm)
  const after = documents(busy)
  expect([...after.keys()].sort()).toEqual(files)
  // Each page compiled, with a block of each of its languages: the comparison is of highlighted code.
  const missing = files.flatMap((file) => {
    const document = before.get(file)!
    if (!(JSON.parse(document) as CacheEntry).ok) return [`${file} does not compile`]
    const blocks = new Set(languagesOf(fs.readFileSync(path.join(project, file), 'utf8')))
    return [...blocks].filter((language) => !document.includes(`"data-language":"${language}"`)).map((language) => `${file} has no ${language} block`)
  })
  expect(missing).toEqual([])
  expect(files.filter((file) => before.get(file)!.includes('--shiki-light')).length).toBeGreaterThan(1)
  const differing = files.filter((file) => before.get(file) !== after.get(file)).map((file) => `${file} ${firstDifference(before.get(file)!, after.get(file)!)}`)
  expect(differing).toEqual([])
})
