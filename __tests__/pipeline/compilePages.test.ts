/**
 * @jest-environment node
 *
 * Every page's MDX is compiled with Nextra's compiler before anything is bundled
 * (pipeline/compile/): a page that does not compile is named as `file:line:column: <message>`, with
 * no stack, and an unchanged page is never compiled twice. The compile runs in worker threads
 * (plain ESM, outside Jest's module system) with this project's compiler, against small sites.
 */
import { PageChangedError, scanContent } from '../../pipeline/content/contentSource'
import { spawnSync } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { CACHE_DIR, CompileWorkerError, compilePages, MDX_FIX_HINT, MdxCompileError, readEntry } from '../../pipeline/compile/compilePages'
import { writeChecked } from '../../pipeline/files'
import { CompileWorkers, highlighterModule } from '../../pipeline/compile/compileWorkers'
import { compilerPackages, INSTALL_RECORD, installedCompilerPackages } from '../../pipeline/compile/fingerprint'
import { CompiledPageError, readCompiledPage } from '../../pipeline/compile/readDocuments'
import { PageStore, readStore } from '../../pipeline/store/pageStore'
import { BadContentError, checkAndCompile } from '../../pipeline/steps/checkContent'
import { copyProject } from '../../scripts/audit/copyProject'
import { tempSite } from '../fixtures/tempSite'
import type { TreeNode } from '../../lib/render/pageDocument'

jest.setTimeout(120_000)

const project = path.resolve(__dirname, '../..')

const page = (title: string, body: string) => `---\ntitle: ${title}\ndescription: D\n---\n\n# ${title}\n\n${body}\n`

/** A site on disk with these pages and the project's next.config.ts. */
function site(pages: Record<string, string>): string {
  const nextConfig = fs.readFileSync(path.join(project, 'next.config.ts'))
  return tempSite('compile-', { 'next.config.ts': nextConfig, 'pages/': '', 'content/docs/index.mdx': page('Docs', 'Start here.'), ...pages })
}

const VALID = {
  'content/docs/leads/intro.mdx': page('Intro', 'Some `code`, a [link](/docs/leads/setup), and a <Callout type="info">callout</Callout>.\n\n```js\nconst quote = { id: 42 }\n```'),
  'content/docs/leads/setup.mdx': page('Setup', 'Costs are 2 pounds, and {/* a comment */} is dropped.'),
}

/** The problems a failing check names, line by line. */
async function failure(root: string): Promise<string[]> {
  const thrown = await checkAndCompile(scanContent(root)).then(
    () => null,
    (error: unknown) => error
  )
  expect(thrown).toBeInstanceOf(BadContentError)
  return (thrown as BadContentError).message.split('\n')
}

test('a page with an unclosed JSX tag or an unclosed { expression fails the check at its line and column, with the compiler’s message and no stack', async () => {
  const root = site({
    ...VALID,
    // Line 8 (after four lines of front matter, a blank line, the heading and one more) opens the tag; the page ends without closing it.
    'content/docs/leads/callout.mdx': page('Callout', '<Callout type="info">\n\nNever closed.'),
    // Line 10: the paragraph ends (column 32) inside the expression that opens at column 15.
    'content/docs/leads/pricing.mdx': page('Pricing', 'Prices below.\n\nCost is about {price per month.\n\nMore text.'),
  })
  expect(await failure(root)).toEqual([
    'content/docs/leads/callout.mdx:8:1: Expected a closing tag for `<Callout>` (8:1-8:22)',
    'content/docs/leads/pricing.mdx:10:32: Unexpected end of file in expression, expected a corresponding closing brace for `{`',
    MDX_FIX_HINT,
    'checkContent: 2 problem(s) under content/docs/; fix them before building',
  ])
})

test('a page whose expression is not JavaScript is named at the expression, with the parser’s reason', async () => {
  const root = site({ 'content/docs/leads/intro.mdx': page('Intro', 'The fee is {amount pounds} a month.') })
  const [line] = await failure(root)
  expect(line).toBe('content/docs/leads/intro.mdx:8:19: Could not parse expression with acorn: Unexpected content after expression')
})

test("a page refused as data is named with its own fix, not the MDX syntax hint, also when it comes from the cache", async () => {
  const root = site({ 'content/docs/leads/intro.mdx': page('Intro', '<div onClick="alert(1)">Click</div>') })
  for (const run of ['compiled', 'from the cache']) {
    const lines = await failure(root)
    expect([run, lines[0]]).toEqual([run, expect.stringMatching(/^content\/docs\/leads\/intro\.mdx:8:\d+: `<div onClick>`: event handlers run code in the reader's browser; pages cannot hold them$/)])
    expect(lines).not.toContain(MDX_FIX_HINT)
  }
  // With a page that does not parse beside it, the hint is given, for that page.
  fs.writeFileSync(path.join(root, 'content/docs/leads/other.mdx'), page('Other', '<Callout type="info">\n\nNever closed.'))
  expect(await failure(root)).toContain(MDX_FIX_HINT)
})

test('a page whose front matter the content check refuses is reported once, by that check, not compiled', async () => {
  const root = site({ 'content/docs/leads/intro.mdx': '---\ntitle: [Leads\n---\n\n# Intro\n' })
  const lines = await failure(root)
  expect(lines.filter((line) => line.startsWith('content/docs/leads/intro.mdx'))).toHaveLength(1)
  expect(lines[0]).toMatch(/^content\/docs\/leads\/intro\.mdx:2: the front matter is not valid/)
  expect(lines).not.toContain(MDX_FIX_HINT)
})

test('a valid site passes; a second run compiles nothing, and a changed page or compiler input compiles again', async () => {
  const root = site(VALID)
  const first = await checkAndCompile(scanContent(root))
  expect(first).toMatchObject({ pages: 3, compiled: 3, fromCache: 0 })
  expect(first.problems).toEqual([])
  // Each success is kept as the page's data (lib/render/pageDocument.ts), not as a JS module.
  const entries = fs.readdirSync(path.join(root, '.cache/mdx')).filter((name) => name.endsWith('.json')).map((name) => readEntry(path.join(root, '.cache/mdx', name)) as { output: { filePath: string; tree: unknown } })
  expect(entries.map((entry) => entry.output.filePath).sort()).toEqual(['content/docs/index.mdx', 'content/docs/leads/intro.mdx', 'content/docs/leads/setup.mdx'])
  for (const entry of entries) {
    expect(entry.output).not.toHaveProperty('result')
    expect(Array.isArray(entry.output.tree)).toBe(true)
  }

  expect(await checkAndCompile(scanContent(root))).toMatchObject({ pages: 3, compiled: 0, fromCache: 3 })

  fs.appendFileSync(path.join(root, 'content/docs/leads/setup.mdx'), '\nOne more line.\n')
  expect(await checkAndCompile(scanContent(root))).toMatchObject({ compiled: 1, fromCache: 2 })

  // The compile reads none of next.config.ts (its options are pipeline/compile/nextraPageOptions.json): an edit compiles nothing.
  fs.appendFileSync(path.join(root, 'next.config.ts'), '\n// an edit\n')
  expect(await checkAndCompile(scanContent(root))).toMatchObject({ compiled: 0, fromCache: 3 })
  // One entry per page: the entry of the page's earlier version is gone.
  expect(fs.readdirSync(path.join(root, '.cache/mdx')).filter((name) => name.endsWith('.json'))).toHaveLength(3)
})

test("an edit of a page's text colours none of its code blocks again: its new cache entry takes them from its last, and a changed block is coloured anew", async () => {
  const root = site(VALID)
  const file = path.join(root, 'content/docs/leads/intro.mdx')
  const store = readStore(root)
  const entry = () => {
    const name = store.pages['/docs/leads/intro'].entry
    return { name, data: readEntry(path.join(root, name)) as unknown as { highlights: Record<string, string>; output: { tree: unknown } } }
  }
  await checkAndCompile(scanContent(root), store)
  const first = entry()
  const keys = Object.keys(first.data.highlights)
  expect(keys).toHaveLength(1)
  expect(first.data.highlights[keys[0]]).toContain('quote')
  // What the block's colouring gave, marked: a compile that takes the block from the entry shows the mark.
  const marked = first.data.highlights[keys[0]].replace('quote', 'kept')
  writeChecked(path.join(root, first.name), JSON.stringify({ ...first.data, highlights: { [keys[0]]: marked } }))

  fs.appendFileSync(file, '\nOne more line.\n')
  expect(await checkAndCompile(scanContent(root), store)).toMatchObject({ compiled: 1 })
  const second = entry()
  expect(second.name).not.toBe(first.name)
  expect(second.data.highlights).toEqual({ [keys[0]]: marked })
  expect(JSON.stringify(second.data.output.tree)).toContain('kept')

  fs.writeFileSync(file, fs.readFileSync(file, 'utf8').replace('id: 42', 'id: 43'))
  expect(await checkAndCompile(scanContent(root), store)).toMatchObject({ compiled: 1 })
  const third = entry()
  expect(Object.keys(third.data.highlights)).toHaveLength(1)
  expect(Object.keys(third.data.highlights)).not.toEqual(keys)
  const tree = JSON.stringify(third.data.output.tree)
  expect(tree).toContain('quote')
  expect(tree).not.toContain('kept')
})

test('the fingerprint holds the installed version of the compiler, its plugins and the highlighter, so an upgrade of any compiles every page again', () => {
  const installed = (name: string) => `${name}@${JSON.parse(fs.readFileSync(path.join(project, 'node_modules', name, 'package.json'), 'utf8')).version}`
  const packages = compilerPackages(project).map((entry) => entry.split(' ')[0])
  for (const name of ['nextra', '@mdx-js/mdx', 'micromark', 'remark-gfm', 'rehype-pretty-code', 'shiki', '@shikijs/twoslash']) expect(packages).toContain(installed(name))
})

test("the compiler's packages are walked again when an install rewrites node_modules' record, and kept under its stamp until then", () => {
  const pkg = (name: string, version: string, dependencies: Record<string, string> = {}) => [`node_modules/${name}/package.json`, JSON.stringify({ name, version, dependencies })]
  const root = tempSite('packages-', Object.fromEntries([pkg('nextra', '3.0.0', { 'remark-gfm': '*' }), pkg('@mdx-js/mdx', '3.0.0'), pkg('shiki', '1.0.0'), pkg('hast-util-sanitize', '5.0.0'), pkg('remark-gfm', '4.0.0'), [INSTALL_RECORD, '{"one":1}']]))
  const record = path.join(root, INSTALL_RECORD)
  const settle = () => fs.utimesSync(record, new Date(Date.now() - 60_000), new Date(Date.now() - 60_000))
  const upgrade = (version: string) => fs.writeFileSync(path.join(root, 'node_modules/remark-gfm/package.json'), JSON.stringify({ name: 'remark-gfm', version }))
  settle()
  expect(installedCompilerPackages(root)).toContain('remark-gfm@4.0.0 node_modules/remark-gfm')
  // Changed behind npm's back: the kept list stands, as the record says nothing was installed.
  upgrade('4.0.1')
  expect(installedCompilerPackages(root)).toContain('remark-gfm@4.0.0 node_modules/remark-gfm')
  // An install rewrites the record: the packages are walked again.
  fs.writeFileSync(record, '{"two":"2"}')
  settle()
  expect(installedCompilerPackages(root)).toContain('remark-gfm@4.0.1 node_modules/remark-gfm')
  // Without npm's record, every call walks them.
  fs.rmSync(record)
  upgrade('4.0.2')
  expect(installedCompilerPackages(root)).toContain('remark-gfm@4.0.2 node_modules/remark-gfm')
})

test('a cached failure is still reported, and the page compiles again once fixed', async () => {
  const root = site({ 'content/docs/leads/intro.mdx': page('Intro', '<Steps>\n\nUnclosed.') })
  const report = await compilePages(scanContent(root))
  expect(report.problems.map((problem) => problem.message)).toEqual(['content/docs/leads/intro.mdx:8:1: Expected a closing tag for `<Steps>` (8:1-8:8)'])
  expect(report.problems[0]).toBeInstanceOf(MdxCompileError)
  const again = await compilePages(scanContent(root))
  expect(again).toMatchObject({ compiled: 0, fromCache: 2 })
  expect(again.problems.map((problem) => problem.message)).toEqual(report.problems.map((problem) => problem.message))

  fs.writeFileSync(path.join(root, 'content/docs/leads/intro.mdx'), page('Intro', '<Steps>\n\nClosed.\n\n</Steps>'))
  expect(await compilePages(scanContent(root))).toMatchObject({ compiled: 1, fromCache: 1, problems: [] })
})

test('`npm run build` fails on a page that does not compile before `next build` starts, naming the place, with no stack', () => {
  const dir = tempSite('compile-build-')
  copyProject(project, dir)
  fs.writeFileSync(path.join(dir, 'content/docs/leads/broken.mdx'), page('Broken', 'Fees are {amount.'))
  const build = spawnSync(process.execPath, ['--import', 'tsx', 'pipeline/steps/buildSite.ts'], { cwd: dir, encoding: 'utf8', env: { ...process.env, NEXT_TELEMETRY_DISABLED: '1' } })
  expect(build.status).toBe(1)
  expect(build.stderr).toContain('content/docs/leads/broken.mdx:8:18: Unexpected end of file in expression, expected a corresponding closing brace for `{`')
  expect(build.stderr).toContain(MDX_FIX_HINT)
  expect(build.stderr).not.toMatch(/^\s+at /m)
  expect(build.stdout).toMatch(/^build: content: \d+ pages to check, \d+ to compile, \d+ from cache$/m)
  expect(build.stdout).not.toContain('build: render')
  expect(fs.existsSync(path.join(dir, '.next'))).toBe(false)
  // The build still says where its time went.
  expect(build.stdout).toMatch(/^build: time per step\n {2}content +\d+\.\d s/m)
})

test("npm run dev's kept worker compiles each edit without loading the compiler again, and one that failed a page goes on", async () => {
  const root = site(VALID)
  const kept = new CompileWorkers()
  try {
    // Warmed before any edit: the first check takes that worker.
    await kept.warm()
    const first = await checkAndCompile(scanContent(root), undefined, { kept, workers: 1 })
    expect(first).toMatchObject({ compiled: 3, problems: [] })
    expect(kept.started).toBe(1)
    const setup = path.join(root, 'content/docs/leads/setup.mdx')
    fs.writeFileSync(setup, page('Setup', 'Broken {expression.'))
    const broken = await compilePages(scanContent(root), undefined, { kept })
    expect(broken.problems.map((problem) => problem.message)).toEqual([expect.stringContaining('content/docs/leads/setup.mdx:8:')])
    fs.writeFileSync(setup, page('Setup', 'Fixed.'))
    expect(await compilePages(scanContent(root), undefined, { kept })).toMatchObject({ compiled: 1, problems: [] })
    expect(kept.started).toBe(1)
  } finally {
    await kept.close()
  }
  // Closed, a run starts its own worker and keeps none: it ends with the run, and Jest's process can end.
  fs.appendFileSync(path.join(root, 'content/docs/leads/intro.mdx'), '\nOne more line.\n')
  expect(await compilePages(scanContent(root), undefined, { kept })).toMatchObject({ compiled: 1, problems: [] })
  expect(kept.started).toBe(2)
})

test("npm run dev's worker, warmed with the site's code languages (an unknown one too), is the one its first check takes", async () => {
  const root = site(VALID)
  const kept = new CompileWorkers()
  try {
    await kept.warm(['ts', 'no-such-language'])
    expect(await checkAndCompile(scanContent(root), undefined, { kept, workers: 1 })).toMatchObject({ compiled: 3, problems: [] })
    expect(kept.started).toBe(1)
  } finally {
    await kept.close()
  }
})

test("npm run dev's kept worker rehearses the site's code languages once, and a check that asks for it meanwhile waits rather than start another", async () => {
  const root = site(VALID)
  const kept = new CompileWorkers()
  try {
    await kept.warm()
    const rehearsing = kept.warm(['ts', 'json'])
    expect(await checkAndCompile(scanContent(root), undefined, { kept, workers: 1 })).toMatchObject({ compiled: 3, problems: [] })
    await rehearsing
    await kept.warm(['ts', 'json'])
    expect(kept.started).toBe(1)
  } finally {
    await kept.close()
  }
})

/** How many of this process's threads run at a lower priority than the process (Linux names each thread under /proc). */
const lowerPriorityThreads = () => fs.readdirSync('/proc/self/task').filter((thread) => os.getPriority(Number(thread)) > os.getPriority()).length

test("npm run dev's worker warmed with code languages runs at the lowest priority, beside Next's start and the first page; a build's at the process's", async () => {
  // A test process at the lowest priority already has no lower one to show.
  if (os.getPriority() === 19) return
  const before = lowerPriorityThreads()
  const build = new CompileWorkers()
  try {
    await build.warm()
    expect(lowerPriorityThreads()).toBe(before)
  } finally {
    await build.close()
  }
  const dev = new CompileWorkers()
  try {
    await dev.warm(['ts'])
    expect(lowerPriorityThreads()).toBeGreaterThan(before)
  } finally {
    await dev.close()
  }
})

test('a build with nothing to compile ends the worker it warmed without waiting for it to load, and a later run starts its own', async () => {
  const root = site(VALID)
  await checkAndCompile(scanContent(root))
  const kept = new CompileWorkers()
  const warming = kept.warm()
  expect(await checkAndCompile(scanContent(root), undefined, { kept })).toMatchObject({ compiled: 0 })
  await kept.close()
  // Ended, not kept: the warming is over (a worker left loading would hold the build's process open).
  await warming
  fs.appendFileSync(path.join(root, 'content/docs/leads/intro.mdx'), '\nOne more line.\n')
  expect(await compilePages(scanContent(root), undefined, { kept })).toMatchObject({ compiled: 1, problems: [] })
  expect(kept.started).toBe(2)
})

test("a build's warming worker is taken as it loads: the first page is posted before it has loaded, and compiled once it has", async () => {
  const root = site(VALID)
  const kept = new CompileWorkers()
  try {
    const warming = kept.warm()
    // Taken at once: had the run waited for the warming to end, the worker's `ready` would have gone to the warming, not to the run.
    const worker = await kept.take(highlighterModule())
    const heard: string[] = []
    const compiled = new Promise<void>((resolve) => {
      worker.on('message', (message: { ready?: true; ok?: boolean }) => {
        heard.push(message.ready ? 'ready' : `ok ${message.ok}`)
        if (!message.ready) resolve()
      })
    })
    const file = 'content/docs/leads/intro.mdx'
    worker.postMessage({ id: 0, file: path.join(root, file), filePath: file, route: '/docs/leads/intro', source: VALID[file] })
    await compiled
    expect(heard).toEqual(['ready', 'ok true'])
    await warming
    expect(kept.started).toBe(1)
    await worker.terminate()
  } finally {
    await kept.close()
  }
})

test("the compile takes the content source's one parse of the front matter, and never parses the YAML itself", async () => {
  const root = site({ 'content/docs/leads/intro.mdx': '---\ntitle: Written title\norder: -1\n---\n\nNo heading.\n' })
  const source = scanContent(root)
  const intro = source.byFile('content/docs/leads/intro.mdx')!
  // A source whose parse says something else than the YAML: the document must say what the source does.
  const told = Object.create(intro, { frontMatter: { value: { title: 'The source says', order: -1 } } }) as typeof intro
  const store = new PageStore(null)
  expect((await compilePages({ ...source, pages: source.pages.map((page) => (page === intro ? told : page)) }, store, { workers: 1 })).problems).toEqual([])
  const doc = readCompiledPage(root, store.pages, '/docs/leads/intro')
  expect(doc.title).toBe('The source says')
  expect(doc.frontMatter).toEqual({ title: 'The source says', order: -1 })
})

test.each([
  ['cut short', '{"ok": tr'],
  ['JSON null', 'null'],
  ['an object of another shape', '{"ok": true}'],
  ['an entry with no document', '{"ok": true, "output": null}'],
  ['changed where it still parses as a document', (kept: string) => kept.replace('Intro', 'Changed').replace('Other', 'Changed')],
])("compiled documents damaged by hand (%s) are named and removed at the first read of one, and the next compile makes them again; one removed, the same", async (_name, damage) => {
  const damaged = (file: string) => (typeof damage === 'string' ? damage : damage(fs.readFileSync(file, 'utf8')))
  const root = site({ 'content/docs/leads/intro.mdx': '---\ntitle: Intro\n---\n\nText.\n', 'content/docs/leads/other.mdx': '# Other\n' })
  const store = new PageStore(null)
  expect((await compilePages(scanContent(root), store, { workers: 1 })).problems).toEqual([])
  const entry = store.pages['/docs/leads/intro'].entry
  const other = store.pages['/docs/leads/other'].entry
  for (const file of [entry, other]) fs.writeFileSync(path.join(root, file), damaged(path.join(root, file)))
  expect(() => readCompiledPage(root, store.pages, '/docs/leads/intro')).toThrow(
    new CompiledPageError(`content/docs/leads/intro.mdx: its compiled document (${entry}) was damaged, and is removed; 1 other damaged document is removed too; build again, and the page is compiled again`)
  )
  expect([entry, other].filter((file) => fs.existsSync(path.join(root, file)))).toEqual([])
  expect(() => readCompiledPage(root, store.pages, '/docs/leads/intro')).toThrow(`its compiled document (${entry}) is missing; build again, and the page is compiled again`)
  expect(await compilePages(scanContent(root), store, { workers: 1 })).toMatchObject({ compiled: 2, problems: [] })
  expect(readCompiledPage(root, store.pages, '/docs/leads/intro').title).toBe('Intro')
  expect(readCompiledPage(root, store.pages, '/docs/leads/other').title).toBe('Other')
  // Damaged where the compile reads it (its record is not of this version): compiled again, not taken.
  fs.writeFileSync(path.join(root, entry), damaged(path.join(root, entry)))
  const fresh = new PageStore(null)
  expect(await compilePages(scanContent(root), fresh, { workers: 1 })).toMatchObject({ compiled: 1, problems: [] })
  expect(readCompiledPage(root, fresh.pages, '/docs/leads/intro').title).toBe('Intro')
})

test('a page written after the scan took it from the store, before the compile read its text, fails the build naming the file, and nothing is compiled from the new text', async () => {
  const root = site(VALID)
  const past = new Date(Date.now() - 60_000)
  for (const file of Object.keys(VALID)) fs.utimesSync(path.join(root, file), past, past)
  const first = scanContent(root, undefined, readStore(root).scan)
  const store = readStore(root)
  await checkAndCompile(first, store)
  store.recordScan(first.scanRecord())
  store.save()
  // The compile cache gone (as after an upgrade of the compiler): the next build compiles every page, reading its text.
  fs.rmSync(path.join(root, CACHE_DIR), { recursive: true })
  const next = readStore(root)
  const source = scanContent(root, undefined, next.scan)
  expect(source.reads.size).toBe(0)
  const changed = 'content/docs/leads/setup.mdx'
  fs.writeFileSync(path.join(root, changed), page('Setup', 'Written while the build ran.'))
  const thrown = await checkAndCompile(source, next).then(() => null, (error: unknown) => error)
  expect(thrown).toBeInstanceOf(PageChangedError)
  expect((thrown as Error).message).toBe(`${changed}: changed during the build (it no longer holds the text the build scanned); run the build again.`)
  const entries = fs.existsSync(path.join(root, CACHE_DIR)) ? fs.readdirSync(path.join(root, CACHE_DIR)).map((name) => fs.readFileSync(path.join(root, CACHE_DIR, name), 'utf8')) : []
  expect(entries.filter((entry) => entry.includes('Written while the build ran'))).toEqual([])
})

test('a page whose compiled tree nests too deep to be read back (1,400 elements over lines) fails, named, instead of holding the run for ever', async () => {
  // The content check refuses this page first (pipeline/content/nesting.ts); this is the compile's own answer to it.
  const root = site({ 'content/docs/leads/deep.mdx': page('Deep', `${'<div\n>\n'.repeat(1400)}x\n${'</div>\n'.repeat(1400)}`) })
  const report = await compilePages(scanContent(root), undefined, { workers: 1 })
  expect(report.problems.map((problem) => problem.message)).toEqual([
    expect.stringMatching(/^content\/docs\/leads\/deep\.mdx: its compiled page could not be read back from the compile worker \(.+\); a page nested this deep cannot be rendered: flatten it$/),
  ])
  // Not the page's own answer (the worker's stack, not its text): compiled again next time.
  expect(await compilePages(scanContent(root), undefined, { workers: 1 })).toMatchObject({ compiled: 1 })
})

test('a page that holds its compile past the limit fails the run, naming it', async () => {
  // 400 code blocks to colour: far longer than 0.05 s (the worker's loading is not counted).
  const blocks = Array.from({ length: 400 }, (_, i) => `\`\`\`ts\nconst value${i}: number = ${i} // ${i}\n\`\`\``).join('\n\n')
  const root = site({ 'content/docs/leads/long.mdx': page('Long', blocks) })
  const thrown = await compilePages(scanContent(root), undefined, { skip: new Set(['content/docs/index.mdx']), workers: 1, pageTimeoutMs: 50 }).catch((error: unknown) => error)
  expect(thrown).toBeInstanceOf(CompileWorkerError)
  expect((thrown as Error).message).toBe('the MDX compile worker stopped: content/docs/leads/long.mdx did not finish compiling in 0.05 s: a page this slow is too large (a code block of tens of thousands of lines takes minutes), or the compiler loops on something in it; split it into pages, or take parts out to find what')
})

test("a relative link ships as the site path the link check judged: Next's router would resolve it against its route pattern, and `../intro` went out as `/intro`; a query alone names the page itself", async () => {
  const rel = '/docs/leads/endpoints/rel'
  const root = site({
    'content/docs/leads/intro.mdx': page('Intro', 'Text.'),
    'content/docs/leads/endpoints/other.mdx': page('Other', '## Part\n\nText.'),
    'content/docs/leads/endpoints/rel.mdx': page('Rel', 'Go [up](../intro), [beside](other#part), [here](./other?tab=1), [by reference][ref], <a href="../intro">a tag</a>, [away](https://example.com/x), [top](#rel), [tab](?tab=2) and [site](/docs/leads/intro).\n\n[ref]: ../endpoints/other'),
  })
  const store = new PageStore(null)
  expect((await compilePages(scanContent(root), store, { workers: 1 })).problems).toEqual([])
  const hrefs: unknown[] = []
  const visit = (nodes: TreeNode[]) => {
    for (const node of nodes) if (node.type === 'element') {
      if ('href' in node.properties) hrefs.push(node.properties.href)
      visit(node.children)
    }
  }
  visit(readCompiledPage(root, store.pages, rel).tree)
  expect(hrefs).toEqual(['/docs/leads/intro', '/docs/leads/endpoints/other#part', '/docs/leads/endpoints/other?tab=1', '/docs/leads/endpoints/other', '/docs/leads/intro', 'https://example.com/x', '#rel', '/docs/leads/endpoints/rel?tab=2', '/docs/leads/intro'])
})
