/**
 * @jest-environment node
 *
 * Rebuilds keep the pages whose props did not change (pipeline/render/renderPlan.ts), and when
 * the code is the same they render the others with the last `next build`'s server bundle, compiling
 * nothing (pipeline/render/reuseLastBuild.ts). What a reader sees after each rebuild must be what a
 * clean build of the same pages gives: an edited page shows its edit, an added page appears in its
 * section's sidebar, a removed page is gone.
 *
 * And two clean builds of the same sources write the same files, byte for byte (the build ID is a
 * hash of the inputs, pipeline/buildId.ts), so a deploy uploads only what changed.
 *
 * A writer's edit (a page's text, an added page, a retitled or removed page) leaves the edge
 * function and the AI tools' server as they were, byte for byte: they decide files by rules and
 * audiences' folders, not by names that change with the pages, so such a deploy publishes no new
 * Lambda@Edge version. A rule change may change them.
 */
import { spawn } from 'node:child_process'
import crypto from 'node:crypto'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { pageHtmlFile } from '../../lib/access/pageFiles'
import { copyProject } from '../../scripts/audit/copyProject'
import { readOutRecord } from '../../pipeline/steps/outRecord'
import { maskChunkHashes } from './helpers/maskChunkHashes'

jest.setTimeout(300_000)

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rebuild-'))
const page = (route: string) => fs.readFileSync(path.join(dir, 'out', `${route}.html`), 'utf8')

const buildId = () => fs.readFileSync(path.join(dir, '.next/BUILD_ID'), 'utf8').trim()

/** Every file under `folders` of the copy, by path relative to the copy, with its sha256. */
function filesUnder(folders: string[]): Record<string, string> {
  const files: Record<string, string> = {}
  for (const folder of folders) {
    for (const entry of fs.readdirSync(path.join(dir, folder), { recursive: true, withFileTypes: true })) {
      if (!entry.isFile()) continue
      const file = path.join(entry.parentPath, entry.name)
      files[path.relative(dir, file)] = crypto.createHash('sha256').update(fs.readFileSync(file)).digest('hex')
    }
  }
  return files
}
/** The build's record of out/ (pipeline/steps/outRecord.ts): what the deploy takes out/ to hold, each file's sha256 by its path in the copy. */
const recordedFiles = () => Object.fromEntries(Object.entries(readOutRecord(path.join(dir, 'out'))?.files ?? {}).map(([key, entry]) => [path.join('out', key), entry.sha256]))
/** Every file the build ships. */
const shippedFiles = () => filesUnder(['out', 'edge/dist', 'mcp/dist'])
let cleanBuild: { id: string; audiences: string } & Snapshot

/** Runs the build in the copy; resolves with what it printed. */
function build(): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn('npx', ['tsx', 'pipeline/steps/buildSite.ts'], { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, NEXT_TELEMETRY_DISABLED: '1' } })
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (chunk) => (stdout += chunk))
    child.stderr.on('data', (chunk) => (stderr = (stderr + chunk).slice(-4000)))
    child.on('exit', (code) => (code === 0 ? resolve(stdout) : reject(new Error(`build failed in ${dir}:\n${stderr}`))))
  })
}

/** The client's files (chunks, style sheets), named by their hashes. */
const clientFiles = (files: Record<string, string>) => Object.keys(files).filter((file) => file.startsWith('out/_next/static/chunks/') || file.startsWith('out/_next/static/css/')).sort()

/**
 * Rspack does not always give the same sources the same chunks: under load (CI, with other tests
 * building beside it) a build now and then fills and names a few chunks differently. The build
 * then renders every page again rather than keep pages that name chunks gone
 * (pipeline/render/renderPlan.ts keptPagesFit), and its files can only equal a clean build's with
 * the bundler's hashes set aside: every name and text is compared with `-<hash>.js` masked.
 */
function masked(files: Record<string, string>, read: (file: string) => string): Record<string, string> {
  const client = new Set(clientFiles(files))
  // The edge and AI tools' bundles bake the asset-route map in, sorted by the unmasked names: their
  // inputs are compared instead, the map with its keys masked, in any order.
  const bundled = (file: string) => file.startsWith('edge/dist/') || file.startsWith('mcp/dist/')
  const entries = Object.keys(files).map((file): [string, string] => [maskChunkHashes(file), client.has(file) || bundled(file) ? '' : /\.(html|json|js)$/.test(file) ? maskChunkHashes(read(file)) : files[file]])
  const routes = JSON.parse(read('.next/asset-routes.json')) as Record<string, string>
  entries.push(['asset routes', JSON.stringify(Object.entries(routes).map(([key, route]) => `${maskChunkHashes(key)} ${route}`).sort())])
  return Object.fromEntries(entries)
}

const read = (file: string) => fs.readFileSync(path.join(dir, file), 'utf8')

/** The edge and AI tools' bundles, by file, with their sha256. */
const bundles = (files: Record<string, string>) => Object.fromEntries(Object.entries(files).filter(([file]) => /^(edge|mcp)\/dist\//.test(file)))

/**
 * Whether the edge and AI tools' bundles of `snapshot` are those of the first clean build: byte for
 * byte; or, where the bundler named a few chunks differently (see masked()), the map they bake with
 * the bundler's hashes masked, and the audiences they bake, the same.
 */
function sameBundlesAsClean(snapshot: Snapshot & { audiences: string }): boolean {
  const sameClient = JSON.stringify(clientFiles(snapshot.files)) === JSON.stringify(clientFiles(cleanBuild.files))
  if (sameClient) return JSON.stringify(bundles(snapshot.files)) === JSON.stringify(bundles(cleanBuild.files))
  return snapshot.masked['asset routes'] === cleanBuild.masked['asset routes'] && snapshot.audiences === cleanBuild.audiences
}
const snapshotNow = () => {
  const files = shippedFiles()
  return { files, masked: masked(files, read), audiences: read('.next/audiences.json') }
}

/**
 * Two builds' files are the same: byte for byte, file by file (so a difference names the file);
 * or, when the bundler named a few chunks differently in one of them (see masked()), the same
 * with the bundler's hashes masked.
 */
type Snapshot = { files: Record<string, string>; masked: Record<string, string> }
function expectSameFiles(one: Snapshot, other: Snapshot, pick: (files: Record<string, string>) => Record<string, string> = (files) => files): void {
  const sameClient = JSON.stringify(clientFiles(one.files)) === JSON.stringify(clientFiles(other.files))
  const [a, b] = sameClient ? [pick(one.files), pick(other.files)] : [pick(one.masked), pick(other.masked)]
  expect(Object.keys(a).sort()).toEqual(Object.keys(b).sort())
  expect(Object.keys(a).filter((file) => a[file] !== b[file])).toEqual([])
}

beforeAll(async () => {
  copyProject(process.cwd(), dir)
  await build()
  cleanBuild = { id: buildId(), ...snapshotNow() }
  expect(Object.keys(bundles(cleanBuild.files))).toEqual(expect.arrayContaining(['edge/dist/index.js', 'mcp/dist/index.js']))
})
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }))

/**
 * `next build` renders the site's own pages and no docs page: its export would hold its compile's
 * memory and its worker processes at once (pipeline/steps/buildSteps.ts runNextBuild). The docs
 * pages are rendered after it exits, with its server bundle; the tests below compare them with a
 * rebuild's.
 */
test("a clean build's next build renders only the site's own pages, and the docs pages are rendered after it", () => {
  const sitePages = fs.readdirSync(path.join(dir, 'pages')).filter((name) => /^[a-z0-9-]+\.tsx$/.test(name))
  const byNextBuild = fs.readdirSync(path.join(dir, '.next/server/pages'), { recursive: true, encoding: 'utf8' }).filter((name) => name.endsWith('.html'))
  expect(byNextBuild.sort()).toEqual(sitePages.map((name) => name.replace(/\.tsx$/, '.html')).sort())
  const routes = Object.keys(JSON.parse(read('.cache/props.json')) as Record<string, string>)
  expect(routes).toEqual(expect.arrayContaining(['/', '/docs/leads/intro']))
  for (const route of routes) expect(fs.existsSync(path.join(dir, 'out', pageHtmlFile(route)))).toBe(true)
})

test('an edited page, an added page and a removed page are all current after each cached rebuild', async () => {
  const added = path.join(dir, 'content/docs/leads/added-page.mdx')
  fs.writeFileSync(added, '---\ntitle: Added page\n---\n\n# Added page\n\nFirst version.\n')
  await build()
  expect(page('/docs/leads/intro')).toContain('href="/docs/leads/added-page"')
  expect(page('/docs/leads/added-page')).toContain('First version.')
  const firstId = buildId()
  // The added page sorts first in its section: nothing the edge bakes may be named after it.
  expect(sameBundlesAsClean(snapshotNow())).toBe(true)

  fs.writeFileSync(added, '---\ntitle: Added page, renamed\n---\n\n# Added page\n\nSecond version.\n')
  await build()
  expect(page('/docs/leads/added-page')).toContain('Second version.')
  expect(page('/docs/leads/added-page')).not.toContain('First version.')
  expect(page('/docs/leads/intro')).toContain('Added page, renamed')
  expect(sameBundlesAsClean(snapshotNow())).toBe(true)
  // Pages are data: the build ID, and so every other section's pages and data, stay as they were.
  expect(new Set([cleanBuild.id, firstId, buildId()]).size).toBe(1)
  const files = shippedFiles()
  const otherSections = (all: Record<string, string>) => Object.fromEntries(Object.entries(all).filter(([file]) => /^out\/(docs\/internal|docs\/support-twilio|_next\/data\/[^/]+\/docs\/(internal|support-twilio))\//.test(file)))
  expect(Object.keys(otherSections(cleanBuild.files)).length).toBeGreaterThan(50)
  expectSameFiles({ files, masked: masked(files, read) }, cleanBuild, otherSections)

  fs.rmSync(added)
  await build()
  expect(fs.existsSync(path.join(dir, 'out/docs/leads/added-page.html'))).toBe(false)
  expect(page('/docs/leads/intro')).not.toContain('added-page')
})

test('a clean build of the same sources writes the same files, byte for byte, under the same build ID', async () => {
  fs.rmSync(path.join(dir, 'content/docs/leads/added-page.mdx'), { force: true })
  fs.rmSync(path.join(dir, '.next'), { recursive: true, force: true })
  fs.rmSync(path.join(dir, 'out'), { recursive: true, force: true })
  await build()
  expect(buildId()).toBe(cleanBuild.id)
  const files = shippedFiles()
  expectSameFiles({ files, masked: masked(files, read) }, cleanBuild)
})

/**
 * Builds and returns what the render step said: `[rendered, kept, why every page rendered, whether
 * next build ran, the build's output]` (without it, the last next build's server bundle rendered the pages).
 */
async function buildCounting(): Promise<[number, number, string | null, boolean, string]> {
  const log = await build()
  const match = /(\d+) pages rendered, (\d+) kept from the last build(?: \(all rendered: ([^)]*)\))?; (next build ran|nothing compiled)/.exec(log)
  if (!match) throw new Error(`the build printed no render counts:\n${log.slice(-2000)}`)
  return [Number(match[1]), Number(match[2]), match[3] ?? null, match[4] === 'next build ran', log]
}

describe('an incremental build writes exactly what a clean build of the same sources writes', () => {
  const intro = path.join(dir, 'content/docs/leads/intro.mdx')
  // The home page's search index lies in a folder of its own, whose files Pagefind names by their text.
  const home = path.join(dir, 'content/index.mdx')
  const added = path.join(dir, 'content/docs/support-twilio/added-for-incremental.mdx')
  const accessConfig = path.join(dir, 'access.config.ts')
  // What each change renders again: the edited page alone; an added, renamed or deleted page with
  // the pages whose navigation shows it (its section's, here: 9 pages); a rule change, everything.
  const cases: Array<[string, () => void, number | 'all']> = [
    // out/ stays in place between builds: what was removed from it by hand is put back as the build makes it.
    // What the build keeps in .cache/ and finds damaged (by hand, or a disk) is made again, never shipped or fatal.
    ['two edited pages, two Markdown files of out/ removed by hand, a file put there by hand, and kept files of .cache/ damaged', () => {
      for (const file of [intro, home]) fs.appendFileSync(file, '\nEdited for the incremental build.\n')
      fs.rmSync(path.join(dir, 'out/docs/leads/environments.md'))
      fs.rmSync(path.join(dir, 'out/docs/support-twilio/diagram.md'))
      fs.writeFileSync(path.join(dir, 'out/docs/leads/stray.html'), '<html>put into out/ by hand</html>')
      const damage = (folder: string, how: (text: string) => string) => {
        const files = fs.readdirSync(path.join(dir, folder)).map((name) => path.join(dir, folder, name))
        expect(files.length).toBeGreaterThan(0)
        for (const file of files) fs.writeFileSync(file, how(fs.readFileSync(file, 'utf8')))
      }
      // The pages' kept bodies, each the same length (the section's full text is written again from them); the
      // sidebars' data; the transpiled highlighter (the edited pages are compiled with it); two records, JSON null.
      damage('.cache/markdown', (text) => 'x'.repeat(text.length))
      damage('.cache/meta', () => 'null')
      const highlighters = fs.readdirSync(path.join(dir, '.cache/compiler')).filter((name) => name.startsWith('onDemandHighlighter-'))
      expect(highlighters).toHaveLength(1)
      fs.writeFileSync(path.join(dir, '.cache/compiler', highlighters[0]), 'export const')
      for (const record of ['.cache/props.json', '.cache/search-pages.json']) fs.writeFileSync(path.join(dir, record), 'null')
    }, 2],
    ['an added page', () => fs.writeFileSync(added, '---\ntitle: Added for incremental\n---\n\n# Added for incremental\n\nA new page.\n'), 10],
    ['a renamed title', () => fs.writeFileSync(added, '---\ntitle: Renamed for incremental\n---\n\n# Renamed for incremental\n\nA new page.\n'), 10],
    ['a deleted page', () => fs.rmSync(added), 9],
    // The rules are code: another build ID, so every page renders again. A rule of its own for one
    // page (for the same readers, so every link still holds): a new audience, with its own page
    // maps, search and llms files.
    ['a rule change', () => {
      const source = fs.readFileSync(accessConfig, 'utf8')
      const changed = source.replace("rules: [{ path: '/', match: 'exact', require: 'signedIn' }]", "rules: [{ path: '/docs/leads/environments', match: 'exact', require: 'leadsUsers' }, { path: '/', match: 'exact', require: 'signedIn' }]")
      expect(changed).not.toBe(source)
      fs.writeFileSync(accessConfig, changed)
    }, 'all'],
  ]
  /** A digest of the files the cases change (content/, access.config.ts): a case whose sources were built clean before compares with that build. */
  const sourcesDigest = () => JSON.stringify(Object.entries(filesUnder(['content'])).sort().concat([['access.config.ts', read('access.config.ts')]]))
  const cleanBuilds = new Map<string, { id: string } & Snapshot>()
  test.each(cases)('%s', async (_name, change, rendered) => {
    change()
    const [renderedCount, kept, , ranNextBuild, log] = await buildCounting()
    // A writer's edit changes no code: the last build's bundle renders, and nothing is compiled.
    expect(ranNextBuild).toBe(rendered === 'all')
    // Next's export would start one process for so few pages: the renderer renders them itself.
    if (!ranNextBuild) expect(log).toContain(`render: ${rendered} pages, in the renderer's own process`)
    // out/ stays in place, so search needs only the compiled pages and the plan: it starts before the pages step.
    if (!ranNextBuild) expect(log.indexOf('build: search…')).toBeLessThan(log.indexOf('build: pages…'))
    if (rendered === 'all') expect(kept).toBe(0)
    else expect([renderedCount, kept]).toEqual([rendered, expect.any(Number)])
    const incremental = { id: buildId(), ...snapshotNow() }
    // The build's record of out/, which a rebuild in place makes from what its steps wrote, is out/ as it is.
    expect(recordedFiles()).toEqual(filesUnder(['out']))
    // A writer's edit leaves the edge function and the AI tools' server as they were; a rule change does not.
    expect(sameBundlesAsClean(incremental)).toBe(rendered !== 'all')
    const sources = sourcesDigest()
    if (!cleanBuilds.has(sources)) {
      for (const folder of ['.next', 'out', '.cache']) fs.rmSync(path.join(dir, folder), { recursive: true, force: true })
      const [cleanRendered, cleanKept, , cleanRanNextBuild] = await buildCounting()
      expect([cleanKept, cleanRanNextBuild]).toEqual([0, true])
      expect(cleanRendered).toBeGreaterThan(100)
      cleanBuilds.set(sources, { id: buildId(), ...snapshotNow() })
    }
    const clean = cleanBuilds.get(sources)!
    expect(clean.id).toBe(incremental.id)
    expectSameFiles(incremental, clean)
  })
})

test("a build that stops before writing out/ leaves the record as it was; one that stopped while writing it has the next build write out/ anew, so nothing put there by hand meanwhile ships (a fault review's stray file and edited page were recorded for the deploy)", async () => {
  const environments = path.join(dir, 'content/docs/leads/environments.mdx')
  const source = fs.readFileSync(environments, 'utf8')
  fs.appendFileSync(environments, '\n<div>\n\nunclosed {oops\n')
  await expect(build()).rejects.toThrow(/build failed/)
  // The page did not compile, so no step wrote into out/: it is the last build's still, and its record says so.
  expect(fs.existsSync(path.join(dir, '.cache/out-record.json'))).toBe(true)
  fs.writeFileSync(environments, source)
  // A build killed while writing out/ leaves the record set aside (pipeline/steps/outRecord.ts setOutRecordAside), and out/ part written.
  fs.renameSync(path.join(dir, '.cache/out-record.json'), path.join(dir, '.cache/out-record.previous.json'))
  fs.writeFileSync(path.join(dir, 'out/docs/leads/stray-copy.html'), '<html>copied in by hand</html>')
  fs.appendFileSync(path.join(dir, 'out/docs/leads/intro.html'), '<p>edited by hand</p>')
  const log = await build()
  expect(log).toContain('it is written anew')
  expect(fs.existsSync(path.join(dir, 'out/docs/leads/stray-copy.html'))).toBe(false)
  expect(page('/docs/leads/intro')).not.toContain('edited by hand')
  expect(recordedFiles()).toEqual(filesUnder(['out']))
})
