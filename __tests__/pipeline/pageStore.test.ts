/** @jest-environment node */
/**
 * The page store (pipeline/store/pageStore.ts): a rebuild's cost follows what changed. After an
 * edit of one page's text, the content, page and Markdown steps open that page's compiled document
 * alone, not every page's; and `npm run dev`'s check (scripts/server/contentWatch.ts) is the build's own
 * path, leaving the same store and props as the build's steps do.
 */
import { execFileSync } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import { scanContent } from '../../pipeline/content/contentSource'
import { markdownFileMap } from './helpers/markdownFiles'
import { runContentSteps } from '../../pipeline/steps/contentSteps'
import { checkAndCompile } from '../../pipeline/steps/checkContent'
import { readStore, STORE_FILE } from '../../pipeline/store/pageStore'
import { CACHE_PATHS } from '../../pipeline/steps/paths'
import { CACHE_DIR } from '../../pipeline/compile/compilePages'
import { PROPS_DIR, PROPS_INDEX } from '../../lib/render/propsFiles'
import { access } from '../../lib/access'
import { checkContentOnce, watchContent, type ContentCheckResult } from '../../scripts/server/contentWatch'
import { aiToolsSettings } from '../../mcp/oauth/aiToolsSettings'
import { tempSite } from '../fixtures/tempSite'

jest.setTimeout(300_000)

const ROOT = path.resolve(__dirname, '../..')
const EDITED = 'content/docs/leads/intro.mdx'

/** The project's content in a folder of its own, with the project's compile cache (its entries are named by a page's path and bytes, not the folder). */
function site(): string {
  const root = tempSite('page-store-')
  fs.cpSync(path.join(ROOT, 'content'), path.join(root, 'content'), { recursive: true })
  fs.cpSync(path.join(ROOT, 'public'), path.join(root, 'public'), { recursive: true })
  if (fs.existsSync(path.join(ROOT, CACHE_DIR))) fs.cpSync(path.join(ROOT, CACHE_DIR), path.join(root, CACHE_DIR), { recursive: true })
  return root
}

/** The build's content, page and Markdown steps, as pipeline/steps/buildSite.ts runs them. */
async function buildSteps(root: string) {
  const { source, store, compile: report, plan, navigation, props, lastUpdated } = await runContentSteps(root, { access })
  const markdown = markdownFileMap(source, store.pages, plan, { pageMaps: navigation.fragments(), lastUpdated })
  return { report, props, markdown }
}

const edit = (root: string, text: string) => fs.appendFileSync(path.join(root, EDITED), `\n${text}\n`)

test("after a one-page edit, the content, page and Markdown steps open that page's compiled documents alone (its last, for its coloured code blocks, and its new one)", async () => {
  const root = site()
  const first = await buildSteps(root)
  expect(first.report.pages).toBeGreaterThan(50)
  const last = readStore(root).pages['/docs/leads/intro'].entry
  edit(root, 'One more sentence, for the store.')

  const opened: string[] = []
  const cache = path.join(root, CACHE_DIR) + path.sep
  const original = fs.readFileSync
  const spy = jest.spyOn(fs, 'readFileSync').mockImplementation(((file: fs.PathOrFileDescriptor, ...rest: unknown[]) => {
    if (typeof file === 'string' && file.startsWith(cache)) opened.push(path.basename(file))
    return (original as (...args: unknown[]) => unknown)(file, ...rest)
  }) as typeof fs.readFileSync)
  let second: Awaited<ReturnType<typeof buildSteps>>
  try {
    second = await buildSteps(root)
  } finally {
    spy.mockRestore()
  }
  expect(second.report).toMatchObject({ pages: first.report.pages, compiled: 1, fromCache: first.report.pages - 1 })
  expect(second.props.changed).toEqual(['/docs/leads/intro'])
  const record = readStore(root).pages['/docs/leads/intro']
  expect(opened).toEqual([path.basename(last), path.basename(record.entry)])
  expect(record).toMatchObject({ file: EDITED, problem: null, title: 'Leads API introduction' })
  // The llms file names the page by the title and description its record keeps.
  expect(second.markdown.get('/docs/leads/llms.txt')).toContain(`- [Leads API introduction](/docs/leads/intro.md): ${record.description}`)
})

test('a props index damaged by hand does not stop the pages step: it writes the index again', async () => {
  const root = site()
  const first = await buildSteps(root)
  fs.writeFileSync(path.join(root, PROPS_INDEX), '{"/docs/leads/intro": "ab')
  const again = await buildSteps(root)
  expect(again.props.index).toEqual(first.props.index)
  expect(JSON.parse(fs.readFileSync(path.join(root, PROPS_INDEX), 'utf8'))).toEqual(first.props.index)
})

test("`npm run dev`'s check after an edit leaves the store and props a build's steps leave, and names a broken page with its place", async () => {
  const dev = site()
  expect(await checkContentOnce(dev, access)).toMatchObject({ ok: true })
  edit(dev, 'Edited while the dev server runs.')
  const result = await checkContentOnce(dev, access)
  expect(result).toMatchObject({ ok: true, report: { compiled: 1 }, props: { changed: ['/docs/leads/intro'] } })

  // The same sources, built from nothing by the build's steps.
  const built = site()
  fs.rmSync(path.join(built, 'content'), { recursive: true })
  fs.cpSync(path.join(dev, 'content'), path.join(built, 'content'), { recursive: true })
  await buildSteps(built)
  const read = (root: string, file: string) => JSON.parse(fs.readFileSync(path.join(root, file), 'utf8')) as unknown
  // The scan's record holds each copy's own file stamps (inodes, times): the rest is the same.
  const withoutScan = (root: string) => {
    const { pages, render } = readStore(root)
    return { pages, render }
  }
  expect(withoutScan(dev)).toEqual(withoutScan(built))
  expect(read(dev, PROPS_INDEX)).toEqual(read(built, PROPS_INDEX))
  expect(fs.readdirSync(path.join(dev, PROPS_DIR)).sort()).toEqual(fs.readdirSync(path.join(built, PROPS_DIR)).sort())

  // The link check is the build's, in dev too.
  fs.appendFileSync(path.join(dev, EDITED), '\nSee [the missing page](/docs/leads/nowhere).\n')
  const unlinked = await checkContentOnce(dev, access)
  expect(unlinked.ok ? '' : unlinked.message).toMatch(/^content\/docs\/leads\/intro\.mdx:\d+: \/docs\/leads\/nowhere: broken link/m)

  fs.appendFileSync(path.join(dev, EDITED), '\n<Callout type="info">\n\nNever closed.\n')
  const broken = await checkContentOnce(dev, access)
  expect(broken.ok).toBe(false)
  expect(broken.ok ? '' : broken.message).toMatch(/^content\/docs\/leads\/intro\.mdx:\d+:1: Expected a closing tag for `<Callout>`/m)
})

test("`npm run dev`'s check reports a page written while it ran (after the scan took it from the store), and does not stop", async () => {
  const dev = site()
  const past = new Date(Date.now() - 60_000)
  fs.utimesSync(path.join(dev, EDITED), past, past)
  await buildSteps(dev)
  // No cached document: the check's compile reads the page's text after the scan.
  fs.rmSync(path.join(dev, CACHE_DIR), { recursive: true })
  // Written as the scan could not see (same size, its time put back): the compile's read finds other bytes.
  const text = fs.readFileSync(path.join(dev, EDITED), 'utf8')
  fs.writeFileSync(path.join(dev, EDITED), text.replace(/[a-z](?=[^a-z]*$)/, (letter) => letter.toUpperCase()))
  fs.utimesSync(path.join(dev, EDITED), past, past)
  const result = await checkContentOnce(dev, access)
  const message = `${EDITED}: changed during the build (it no longer holds the text the build scanned); run the build again.`
  expect(result).toEqual({ ok: false, message, problems: [{ route: '/docs/leads/intro', message }] })
})

test("`npm run dev`'s watcher saves each check's store, and a commit made while it runs reaches the page's date", async () => {
  const root = site()
  const commit = (date: string, ...args: string[]) => execFileSync('git', ['-c', 'user.email=t@t', '-c', 'user.name=t', ...args], { cwd: root, stdio: 'pipe', env: { ...process.env, GIT_AUTHOR_DATE: date, GIT_COMMITTER_DATE: date } })
  commit('2025-01-02T03:04:05Z', 'init', '-q')
  commit('2025-01-02T03:04:05Z', 'add', 'content')
  commit('2025-01-02T03:04:05Z', 'commit', '-qm', 'first')
  const dateOf = () => {
    const index = JSON.parse(fs.readFileSync(path.join(root, PROPS_INDEX), 'utf8')) as Record<string, string>
    return (JSON.parse(fs.readFileSync(path.join(root, PROPS_DIR, index['/docs/leads/intro']), 'utf8')) as { timestamp: number | null }).timestamp
  }
  const storedDigest = () => readStore(root).pages['/docs/leads/intro']?.digest
  const pageDigest = () => scanContent(root).pages.find((page) => page.route === '/docs/leads/intro')!.digest
  const until = async (done: () => boolean) => {
    for (const deadline = Date.now() + 60_000; !done() && Date.now() < deadline; ) await new Promise((resolve) => setTimeout(resolve, 100))
  }
  const results: ContentCheckResult[] = []
  const watch = watchContent(root, { served: { access, aiTools: aiToolsSettings(undefined) }, apply: async () => {} }, (result) => results.push(result))
  try {
    expect(await watch.first).toMatchObject({ ok: true })
    expect(dateOf()).toBe(Date.parse('2025-01-02T03:04:05Z'))
    // Saved after the open pages were told, for a restart to find.
    await until(() => storedDigest() === pageDigest())
    expect(storedDigest()).toBe(pageDigest())

    // An edit, committed at once: its check may take the dates read before the commit; the next one writes the commit's.
    edit(root, 'Edited and committed while the dev server runs.')
    commit('2025-03-04T05:06:07Z', 'commit', '-qam', 'second')
    await until(() => dateOf() === Date.parse('2025-03-04T05:06:07Z') && storedDigest() === pageDigest())
    expect(dateOf()).toBe(Date.parse('2025-03-04T05:06:07Z'))
    expect(storedDigest()).toBe(pageDigest())
    expect(results.length).toBeGreaterThan(1)
    expect(results.every((result) => result.ok)).toBe(true)
  } finally {
    await watch.stop()
  }
})

describe('the store has one owner: it is changed only through its methods, and saved as what changed', () => {
  const record = { file: 'content/docs/leads/intro.mdx', digest: 'd', entry: '.cache/mdx/e.json', problem: null, title: 'Intro', description: null }

  test('a step that writes into a record or the store fails instead of being lost', () => {
    const store = readStore(tempSite('store-owner-'))
    store.recordCompile({ '/docs/leads/intro': record })
    expect(() => {
      ;(store.pages['/docs/leads/intro'] as { title: string }).title = 'Changed behind its back'
    }).toThrow(TypeError)
    expect(() => {
      ;(store as unknown as { pages: unknown }).pages = {}
    }).toThrow(TypeError)
    expect(store.pages['/docs/leads/intro'].title).toBe('Intro')
  })

  test("a save, and the render's end, write every change so far: a new process reads what the steps recorded", () => {
    const root = tempSite('store-owner-')
    const store = readStore(root)
    store.recordCompile({ '/docs/leads/intro': record, '/docs/leads/gone': { ...record, file: 'content/docs/leads/gone.mdx' } })
    store.recordProps({ '/docs/leads/intro': { inputs: 'i', name: 'p.json' } })
    // Not written per step: the file holds every page, and a run writes it once.
    expect(readStore(root).pages).toEqual({})
    store.save()
    expect(readStore(root).pages['/docs/leads/intro'].props).toEqual({ inputs: 'i', name: 'p.json' })
    store.recordProps({ '/docs/leads/intro': { inputs: 'j', name: 'q.json' } })
    store.startRender()
    store.finishRender({ '/docs/leads/intro': 'p.json' }, { buildId: 'B1', nextFiles: {} })
    expect(readStore(root)).toMatchObject({ render: { buildId: 'B1' }, pages: { '/docs/leads/intro': { props: { inputs: 'j', name: 'q.json' }, rendered: 'p.json' } } })
    // The compile's records replace the old ones: a page the site no longer has is forgotten.
    store.recordCompile({ '/docs/leads/intro': record })
    store.save()
    expect(Object.keys(readStore(root).pages)).toEqual(['/docs/leads/intro'])
  })

  test('a render under way, or cut short, leaves a store that trusts no record of out/; the next one to end trusts its own', () => {
    const root = tempSite('store-render-')
    const first = readStore(root)
    first.recordCompile({ '/docs/leads/intro': record })
    first.startRender()
    first.finishRender({ '/docs/leads/intro': 'p.json' }, { buildId: 'B1', nextFiles: {} })
    const second = readStore(root)
    expect(second.render).toMatchObject({ buildId: 'B1' })
    second.startRender()
    // Read while out/ changes, or after the process died here: out/ is no longer what B1 left.
    expect(readStore(root).render).toBeNull()
    expect(readStore(root).pages['/docs/leads/intro'].rendered).toBe('p.json')
    // A run that renders nothing saves what it read: still not trusted.
    const cut = readStore(root)
    cut.save()
    expect(readStore(root).render).toBeNull()
    cut.startRender()
    cut.finishRender({ '/docs/leads/intro': 'q.json' }, { buildId: 'B2', nextFiles: {} })
    expect(readStore(root).render).toMatchObject({ buildId: 'B2' })
  })

  test("a render's outcome recorded before it ends is saved, but trusted only once the render has ended", () => {
    const root = tempSite('store-recorded-')
    const store = readStore(root)
    store.recordCompile({ '/docs/leads/intro': record })
    store.startRender()
    store.recordRender({ '/docs/leads/intro': 'p.json' }, { buildId: 'B1', nextFiles: {} })
    // Written while Next renders; a process that dies now leaves out/ half made.
    const meanwhile = readStore(root)
    expect(meanwhile.render).toBeNull()
    expect(meanwhile.pages['/docs/leads/intro'].rendered).toBe('p.json')
    store.endRender()
    expect(readStore(root).render).toMatchObject({ buildId: 'B1' })
  })

  test("`npm run dev`'s next check takes the last check's store while its file is unchanged, and reads the file once anything else wrote it", () => {
    const root = tempSite('store-kept-')
    const last = readStore(root)
    // Never read or written whole: not the file.
    expect(readStore(root, last)).not.toBe(last)
    last.recordCompile({ '/docs/leads/intro': record })
    last.save()
    expect(readStore(root, last)).toBe(last)
    // Read whole from the file: that store is the file too.
    const read = readStore(root)
    expect(readStore(root, read)).toBe(read)
    // A build (another process) writes the file: its records, not the kept store's.
    read.recordProps({ '/docs/leads/intro': { inputs: 'b', name: 'b.json' } })
    read.save()
    const after = readStore(root, last)
    expect(after).not.toBe(last)
    expect(after.pages['/docs/leads/intro'].props).toEqual({ inputs: 'b', name: 'b.json' })
    // A render under way elsewhere: the file is read again, and trusts no record of out/.
    read.startRender()
    read.finishRender({ '/docs/leads/intro': 'b.json' }, { buildId: 'B1', nextFiles: {} })
    const rendered = readStore(root)
    expect(readStore(root, rendered)).toBe(rendered)
    read.startRender()
    const meanwhile = readStore(root, rendered)
    expect(meanwhile).not.toBe(rendered)
    expect(meanwhile.render).toBeNull()
    expect(readStore(root, meanwhile)).not.toBe(meanwhile)
    // Another project's store is never taken.
    expect(readStore(tempSite('store-other-'), rendered).pages).toEqual({})
  })

  test('a save after a few changes writes those alone; many changes, or changes to another whole write, leave the file whole', () => {
    const root = tempSite('store-changes-')
    const file = path.join(root, STORE_FILE)
    const changesFile = path.join(root, CACHE_PATHS.storeChanges)
    const pages = Object.fromEntries(Array.from({ length: 2000 }, (_, i) => [`/docs/leads/page-${i}`, { ...record, file: `content/docs/leads/page-${i}.mdx`, digest: `d${i}` }]))
    const scanned = (i: number, digest = `d${i}`) => ({ size: 1, mtimeMs: 1, dev: 1, ino: i, digest, frontMatter: {}, bodyBytes: 1, links: [], codeLanguages: [] })
    const scan = { parsers: 'p', pages: Object.fromEntries(Array.from({ length: 2000 }, (_, i) => [`content/docs/leads/page-${i}.mdx`, scanned(i)])), metas: {} }
    const first = readStore(root)
    first.recordCompile(pages)
    first.recordScan(scan)
    first.startRender()
    first.finishRender({ '/docs/leads/page-0': 'p.json' }, { buildId: 'B1', nextFiles: {}, routes: Object.keys(pages) })
    const wholeBytes = fs.statSync(file).size
    const noChanges = { generation: expect.any(String), pages: {}, scanPages: {}, scanMetas: {} }
    expect(JSON.parse(fs.readFileSync(changesFile, 'utf8'))).toEqual(noChanges)

    // An edit of one page: its record and its scan entry change, and the render ends as it was.
    const second = readStore(root)
    const edited = { ...second.pages['/docs/leads/page-7'], digest: 'edited' }
    second.recordCompile({ ...second.pages, '/docs/leads/page-7': edited })
    second.recordScan({ ...scan, pages: { ...second.scan!.pages, 'content/docs/leads/page-7.mdx': scanned(7, 'edited') } })
    const wholeStamp = fs.statSync(file)
    second.startRender()
    second.finishRender({ '/docs/leads/page-0': 'p.json' }, { buildId: 'B1', nextFiles: {}, routes: Object.keys(pages) })
    expect(fs.statSync(file).mtimeMs).toBe(wholeStamp.mtimeMs)
    expect(fs.statSync(file).ino).toBe(wholeStamp.ino)
    const changesBytes = fs.statSync(changesFile).size
    expect(changesBytes).toBeLessThan(wholeBytes / 100)
    const third = readStore(root)
    expect(third.pages).toEqual(second.pages)
    expect(third.scan).toEqual(second.scan)
    expect(third.render).toEqual(second.render)
    expect(third.pages['/docs/leads/page-7'].digest).toBe('edited')
    expect(third.scan!.pages['content/docs/leads/page-7.mdx'].digest).toBe('edited')

    // A page removed, and another render: both among the changes, on the same whole file.
    const { ['/docs/leads/page-9']: removed, ...rest } = third.pages
    expect(removed).toBeDefined()
    third.recordCompile(rest)
    third.startRender()
    third.finishRender({}, { buildId: 'B2', nextFiles: {}, routes: Object.keys(rest) })
    expect(fs.statSync(file).ino).toBe(wholeStamp.ino)
    const fourth = readStore(root)
    expect(fourth.pages['/docs/leads/page-9']).toBeUndefined()
    expect(fourth.pages['/docs/leads/page-7'].digest).toBe('edited')
    expect(fourth.render).toMatchObject({ buildId: 'B2' })
    const olderChanges = fs.readFileSync(changesFile)

    // Many changes: the file is written whole, and the changes go.
    fourth.recordCompile(Object.fromEntries(Object.entries(fourth.pages).map(([route, page]) => [route, { ...page, digest: `${page.digest}+` }])))
    fourth.save()
    expect(JSON.parse(fs.readFileSync(changesFile, 'utf8'))).toEqual(noChanges)
    expect(fs.statSync(file).ino).not.toBe(wholeStamp.ino)
    expect(readStore(root).pages['/docs/leads/page-7'].digest).toBe('edited+')
    // Changes made against the older whole file (a run that stopped between the two writes) are not
    // applied to the new one, and the store is not as that run left it: its record of out/ is not trusted.
    fs.writeFileSync(changesFile, olderChanges)
    const fifth = readStore(root)
    expect(fifth.pages['/docs/leads/page-9']).toBeUndefined()
    expect(fifth.pages['/docs/leads/page-7'].digest).toBe('edited+')
    expect(fifth.render).toBeNull()
  })

  test("a changes file removed or damaged: the store reads its whole file, and trusts none of its record of out/, which may be an older build's (every page is rendered again)", () => {
    const root = tempSite('store-changes-gone-')
    const changesFile = path.join(root, CACHE_PATHS.storeChanges)
    const first = readStore(root)
    first.recordCompile({ '/docs/leads/a': record })
    first.startRender()
    first.finishRender({ '/docs/leads/a': 'a1.json' }, { buildId: 'B1', nextFiles: {}, routes: ['/docs/leads/a'] })
    // A later build renders the page from other props: only the changes file says so.
    const second = readStore(root)
    second.recordProps({ '/docs/leads/a': { inputs: 'i2', name: 'a2.json' } })
    second.startRender()
    second.finishRender({ '/docs/leads/a': 'a2.json' }, { buildId: 'B1', nextFiles: {}, routes: ['/docs/leads/a'] })
    expect(readStore(root).render).toMatchObject({ buildId: 'B1' })
    expect(readStore(root).pages['/docs/leads/a'].rendered).toBe('a2.json')
    const written = fs.readFileSync(changesFile)
    for (const damage of [() => fs.rmSync(changesFile), () => fs.writeFileSync(changesFile, written.subarray(0, 40))]) {
      damage()
      const read = readStore(root)
      expect(read.pages['/docs/leads/a'].rendered).toBe('a1.json')
      expect(read.render).toBeNull()
    }
  })

  test('no module but the store writes its file', () => {
    const files = execFileSync('git', ['ls-files', 'pipeline', 'scripts', 'bench', 'mcp', 'lib'], { cwd: ROOT, encoding: 'utf8' }).split('\n').filter((file) => /\.(ts|mjs|cjs)$/.test(file))
    const naming = files.filter((file) => /STORE_FILE|store\.json|storeChanges|store\.changes/.test(fs.readFileSync(path.join(ROOT, file), 'utf8')))
    expect(naming.sort()).toEqual(['pipeline/compile/readDocuments.ts', 'pipeline/steps/paths.ts', 'pipeline/store/pageStore.ts'])
    for (const other of ['pipeline/compile/readDocuments.ts', 'pipeline/steps/paths.ts']) expect(fs.readFileSync(path.join(ROOT, other), 'utf8')).not.toMatch(/writeFileSync|writeAtomically/)
  })
})
