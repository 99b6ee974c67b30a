/**
 * @jest-environment node
 *
 * Which pages the build step renders, which it keeps from the last out/ (pipeline/render/renderPlan.ts),
 * and when the last `next build`'s files serve again (pipeline/render/reuseLastBuild.ts).
 */
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterRender, audienceFoldersOf, beforeRender, keptPagesFit, pageFilesOf, placePublicFiles, planRender, PREVIOUS_OUT } from '../../pipeline/render/renderPlan'
import { tempSite } from '../fixtures/tempSite'
import { readStore, type PageStore } from '../../pipeline/store/pageStore'
import { reuseLastBuild, whyNotReuse } from '../../pipeline/render/reuseLastBuild'
import { sitePaths } from '../../pipeline/steps/paths'
import { listFiles } from '../../pipeline/files'
import { scanContent } from '../../pipeline/content/contentSource'

let root: string
let out: string
/** The page store as the page step leaves it: a record for each page of `props`. */
const storeOf = (props: Record<string, string>): PageStore => {
  const last = readStore(root)
  const record = (route: string) => ({ file: `content${route}.mdx`, digest: '', entry: '', problem: null, title: route, description: null, props: { inputs: '', name: props[route] } })
  last.recordCompile(Object.fromEntries(Object.keys(props).map((route) => [route, { ...record(route), rendered: last.pages[route]?.rendered }])))
  return last
}
const write = (file: string, text = 'x') => {
  fs.mkdirSync(path.dirname(path.join(out, file)), { recursive: true })
  fs.writeFileSync(path.join(out, file), text)
}
/** What `next build` leaves: the client's files and the pages it rendered. */
function nextWrites(buildId: string, routes: string[], chunk = 'main-abc.js') {
  fs.rmSync(out, { recursive: true, force: true })
  write(`_next/static/chunks/${chunk}`)
  write('_next/static/css/site-1.css')
  for (const route of routes) for (const file of pageFilesOf(route, buildId)) write(file, `${route} as rendered`)
}

beforeEach(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'render-plan-'))
  out = path.join(root, 'out')
})
afterEach(() => fs.rmSync(root, { recursive: true, force: true }))

test('with no record every page renders; then only the pages whose props changed, and the others keep their files', () => {
  const props = { '/': 'a.json', '/docs/leads/intro': 'b.json', '/docs/leads/env': 'c.json' }
  let store = storeOf(props)
  const first = planRender(store, out, 'B1', props)
  expect(first).toMatchObject({ render: ['/', '/docs/leads/env', '/docs/leads/intro'], keep: [], whyAll: 'no record of an earlier build' })
  beforeRender(root, out, first, store)
  nextWrites('B1', first.render)
  afterRender(root, out, first, store, props, [])

  const edited = { ...props, '/docs/leads/intro': 'b2.json' }
  store = storeOf(edited)
  const second = planRender(store, out, 'B1', edited)
  expect(second).toMatchObject({ render: ['/docs/leads/intro'], keep: ['/', '/docs/leads/env'], whyAll: null })
  beforeRender(root, out, second, store)
  expect(fs.existsSync(path.join(root, PREVIOUS_OUT, 'index.html'))).toBe(true)
  // A build that stops here renders every page next time.
  expect(planRender(readStore(root), out, 'B1', edited).whyAll).toBe('no record of an earlier build')
  nextWrites('B1', second.render)
  expect(keptPagesFit(out, second)).toBe(true)
  afterRender(root, out, second, store, edited, [])
  expect(fs.readFileSync(path.join(out, 'index.html'), 'utf8')).toBe('/ as rendered')
  expect(fs.existsSync(path.join(out, '_next/data/B1/docs/leads/env.json'))).toBe(true)
  expect(fs.existsSync(path.join(root, PREVIOUS_OUT))).toBe(false)

  // Another build ID (code, settings, rules): everything again.
  expect(planRender(readStore(root), out, 'B2', edited)).toMatchObject({ keep: [], whyAll: "the site's code, settings or dependencies changed" })
  // A kept page's file gone from out/: that page renders again.
  fs.rmSync(path.join(out, 'index.html'))
  expect(planRender(readStore(root), out, 'B1', edited).render).toEqual(['/'])
  // So does a page whose data file is gone, in a folder of its own.
  fs.rmSync(path.join(out, '_next/data/B1/docs/leads/env.json'))
  expect(planRender(readStore(root), out, 'B1', edited).render).toEqual(['/', '/docs/leads/env'])
})

test('when the new build names other client files than the kept pages do, they do not fit', () => {
  const props = { '/': 'a.json', '/docs/leads/intro': 'b.json' }
  const store = storeOf(props)
  const first = planRender(store, out, 'B1', props)
  beforeRender(root, out, first, store)
  nextWrites('B1', first.render)
  afterRender(root, out, first, store, props, [])
  const edited = { ...props, '/': 'a2.json' }
  const second = planRender(storeOf(edited), out, 'B1', edited)
  beforeRender(root, out, second, storeOf(edited))
  nextWrites('B1', second.render, 'main-def.js')
  expect(keptPagesFit(out, second)).toBe(false)
})

describe("with the same build ID, the last next build's files serve again", () => {
  const paths = () => ({ ...sitePaths(root) })
  // These plans render no page: a renderer asked to would be a wrong plan.
  const noRender = { into: '/nowhere', render: async () => { throw new Error('no page to render') } }
  /** A last build as afterRender records it, with .next/ as `next build` leaves it. */
  function lastBuild(buildId: string, props: Record<string, string>) {
    const store = storeOf(props)
    const plan = planRender(store, out, buildId, props)
    beforeRender(root, out, plan, store)
    nextWrites(buildId, plan.render)
    write(`_next/static/${buildId}/_buildManifest.js`, 'as Next wrote it')
    write('login.html', 'sign-in page')
    for (const file of ['_next/static/chunks/main-abc.js', '_next/static/css/site-1.css', `_next/static/${buildId}/_buildManifest.js`]) {
      fs.mkdirSync(path.dirname(path.join(root, '.next/static', file.slice('_next/static/'.length))), { recursive: true })
      fs.copyFileSync(path.join(out, file), path.join(root, '.next/static', file.slice('_next/static/'.length)))
    }
    fs.mkdirSync(path.join(root, '.next/server/pages'), { recursive: true })
    fs.writeFileSync(path.join(root, '.next/server/pages/[[...slug]].js'), 'module.exports = page')
    fs.mkdirSync(path.join(root, '.next/server/chunks'), { recursive: true })
    fs.writeFileSync(path.join(root, '.next/server/chunks/621.js'), 'exports.modules = {}')
    fs.writeFileSync(path.join(root, '.next/BUILD_ID'), buildId)
    afterRender(root, out, plan, store, props, [])
    return readStore(root).render
  }

  test("records next build's own files, not the pages, and reuses them only when every one is as written", () => {
    const props = { '/': 'a.json', '/docs/leads/intro': 'b.json' }
    const last = lastBuild('B1', props)
    expect(Object.keys(last?.nextFiles ?? {})).toEqual(['/_next/static/B1/_buildManifest.js', '/_next/static/chunks/main-abc.js', '/_next/static/css/site-1.css', '/login.html'])
    expect(whyNotReuse(paths(), 'B1', last)).toBeNull()
    expect(whyNotReuse(paths(), 'B2', last)).toBe('no earlier build of this code')
    // A later step rewrites the route manifest in out/: the one in .next/static/ is the one that counts.
    write('_next/static/B1/_buildManifest.js', 'split by audience')
    expect(whyNotReuse(paths(), 'B1', last)).toBeNull()
    write('login.html', 'changed since')
    expect(whyNotReuse(paths(), 'B1', last)).toBe('out/login.html is not the file the last build wrote')
    write('login.html', 'sign-in page')
    fs.rmSync(path.join(root, '.next/static/chunks/main-abc.js'))
    expect(whyNotReuse(paths(), 'B1', last)).toBe('.next/static/chunks/main-abc.js is not the file the last build wrote')
  })

  test('a server bundle file damaged or gone since the last build runs next build, rather than rendering with it', () => {
    const last = lastBuild('B1', { '/': 'a.json' })
    expect(Object.keys(last?.serverFiles ?? {})).toEqual(['server/chunks/621.js', 'server/pages/[[...slug]].js'])
    expect(whyNotReuse(paths(), 'B1', last)).toBeNull()
    // Cut short, as a full disk leaves a file: the renderer would fail on it with a bare SyntaxError.
    fs.writeFileSync(path.join(root, '.next/server/pages/[[...slug]].js'), 'module.exports = pa')
    expect(whyNotReuse(paths(), 'B1', last)).toBe('.next/server/pages/[[...slug]].js is not the file the last build wrote')
    fs.writeFileSync(path.join(root, '.next/server/pages/[[...slug]].js'), 'module.exports = page')
    fs.rmSync(path.join(root, '.next/server/chunks/621.js'))
    expect(whyNotReuse(paths(), 'B1', last)).toBe('.next/server/chunks/621.js is not the file the last build wrote')
    // A record from before the server bundle was recorded: next build runs once.
    expect(whyNotReuse(paths(), 'B1', { ...last!, serverFiles: undefined })).toBe('no record of the server bundle')
  })

  test("out/ stays in place: Next's files come back from .next/static/, kept pages keep their files, a removed page's files go", async () => {
    const props = { '/': 'a.json', '/docs/leads/intro': 'b.json', '/docs/leads/old': 'c.json', '/docs/leads/moved/away': 'd.json' }
    const last = lastBuild('B1', props)
    expect(last?.routes).toEqual(['/', '/docs/leads/intro', '/docs/leads/moved/away', '/docs/leads/old'])
    write('_next/static/B1/_buildManifest.js', 'split by audience')
    write('docs/leads/_pagefind/index.js', 'a later step wrote this')
    const kept = fs.statSync(path.join(out, 'index.html')).ino
    const edited = { '/': 'a.json', '/docs/leads/intro': 'b.json' }
    const store = storeOf(edited)
    const plan = planRender(store, out, 'B1', edited)
    expect(plan).toMatchObject({ render: [], keep: ['/', '/docs/leads/intro'] })
    beforeRender(root, out, plan, store, 'in place')
    // A build that stops here renders every page next time: the store no longer says what out/ holds.
    expect(planRender(readStore(root), out, 'B1', edited).whyAll).toBe('no record of an earlier build')
    expect(fs.existsSync(path.join(root, PREVIOUS_OUT))).toBe(false)
    await reuseLastBuild(paths(), plan, last!, noRender)
    afterRender(root, out, plan, store, edited, [], last!)
    expect(listFiles(out)).toEqual(
      ['/_next/static/B1/_buildManifest.js', '/_next/static/chunks/main-abc.js', '/_next/static/css/site-1.css', '/index.html', '/login.html', '/_next/data/B1/index.json', '/docs/leads/intro.html', '/_next/data/B1/docs/leads/intro.json', '/docs/leads/_pagefind/index.js'].sort()
    )
    expect(fs.readFileSync(path.join(out, '_next/static/B1/_buildManifest.js'), 'utf8')).toBe('as Next wrote it')
    // A removed page's folders go with its last files, as a clean build would not have them.
    expect(['docs/leads/moved', '_next/data/B1/docs/leads/moved'].filter((folder) => fs.existsSync(path.join(out, folder)))).toEqual([])
    // A kept page is the same file: the deploy's record of it (size, time, inode) still holds.
    expect(fs.statSync(path.join(out, 'index.html')).ino).toBe(kept)
    expect(readStore(root).render).toEqual({ buildId: 'B1', nextFiles: last!.nextFiles, serverFiles: last!.serverFiles, routes: ['/', '/docs/leads/intro'] })
  })

  test('a last build with no record of its pages is not reused in place', () => {
    const last = lastBuild('B1', { '/': 'a.json' })
    expect(whyNotReuse(paths(), 'B1', { ...last!, routes: undefined })).toBe('no record of the pages out/ holds')
  })

  test('public/ is placed from the content source as it is now, never kept as the last build left it: its files are not Next\'s, and not in the build ID', async () => {
    const pub = (file: string, text: string) => {
      fs.mkdirSync(path.dirname(path.join(root, 'public', file)), { recursive: true })
      fs.writeFileSync(path.join(root, 'public', file), text)
    }
    const svg = (text: string) => `<svg xmlns="http://www.w3.org/2000/svg"><text>${text}</text></svg>`
    pub('logo.svg', svg('logo'))
    pub('docs/internal/images/flow.svg', svg('flow'))
    pub('old.svg', svg('to be removed'))
    const props = { '/': 'a.json' }
    const store = storeOf(props)
    const plan = planRender(store, out, 'B1', props)
    beforeRender(root, out, plan, store)
    nextWrites('B1', plan.render)
    // As Next's export copies public/ into out/.
    for (const file of ['logo.svg', 'docs/internal/images/flow.svg', 'old.svg']) write(file, fs.readFileSync(path.join(root, 'public', file), 'utf8'))
    fs.mkdirSync(path.join(root, '.next/static/chunks'), { recursive: true })
    fs.mkdirSync(path.join(root, '.next/static/css'), { recursive: true })
    fs.copyFileSync(path.join(out, '_next/static/chunks/main-abc.js'), path.join(root, '.next/static/chunks/main-abc.js'))
    fs.copyFileSync(path.join(out, '_next/static/css/site-1.css'), path.join(root, '.next/static/css/site-1.css'))
    fs.mkdirSync(path.join(root, '.next/server/pages'), { recursive: true })
    fs.writeFileSync(path.join(root, '.next/server/pages/[[...slug]].js'), '')
    fs.writeFileSync(path.join(root, '.next/BUILD_ID'), 'B1')
    afterRender(root, out, plan, store, props, scanContent(root).publicFiles)
    const last = readStore(root).render!
    expect(Object.keys(last.nextFiles)).toEqual(['/_next/static/chunks/main-abc.js', '/_next/static/css/site-1.css'])
    const logoInode = fs.statSync(path.join(out, 'logo.svg')).ino

    // An image changed, one added under a section, one removed: same build ID, so no `next build`.
    pub('docs/internal/images/flow.svg', svg('flow, redrawn'))
    pub('docs/internal/images/added.svg', svg('added'))
    fs.rmSync(path.join(root, 'public/old.svg'))
    const again = storeOf(props)
    const second = { ...planRender(again, out, 'B1', props), render: [] }
    expect(whyNotReuse(paths(), 'B1', last)).toBeNull()
    beforeRender(root, out, second, again, 'in place')
    await reuseLastBuild(paths(), second, last, noRender)
    afterRender(root, out, second, again, props, scanContent(root).publicFiles, last)
    expect(listFiles(out)).toEqual(['/_next/data/B1/index.json', '/_next/static/chunks/main-abc.js', '/_next/static/css/site-1.css', '/docs/internal/images/added.svg', '/docs/internal/images/flow.svg', '/index.html', '/logo.svg'].sort())
    expect(fs.readFileSync(path.join(out, 'docs/internal/images/flow.svg'), 'utf8')).toBe(svg('flow, redrawn'))
    // An unchanged file stays: the deploy's hash cache (size, time, inode) still knows it.
    expect(fs.statSync(path.join(out, 'logo.svg')).ino).toBe(logoInode)
    expect(readStore(root).render?.nextFiles).toEqual(last.nextFiles)
  })
})

test('a public file whose stamp is as it was when its copy was kept is linked unread; one written since is read and placed, though its size is the same', () => {
  const site = tempSite('public-unread-')
  const out = path.join(site, 'out')
  fs.mkdirSync(out)
  const svg = (text: string) => `<svg xmlns="http://www.w3.org/2000/svg"><text>${text}</text></svg>`
  // Written a minute ago: the scan trusts a stamp only when the file was not written just before it.
  const pub = (file: string, text: string, secondsAgo: number) => {
    const absolute = path.join(site, 'public', file)
    fs.mkdirSync(path.dirname(absolute), { recursive: true })
    fs.writeFileSync(absolute, text)
    const time = new Date(Date.now() - secondsAgo * 1000)
    fs.utimesSync(absolute, time, time)
  }
  pub('docs/internal/images/kept.svg', svg('kept'), 60)
  pub('docs/internal/images/redrawn.svg', svg('drawn 1'), 60)
  const reads: string[] = []
  const scanned = () => scanContent(site).publicFiles.map((file) => ({ ...file, bytes: () => (reads.push(file.key), file.bytes()) }))
  const first = scanned()
  expect(first.map((file) => file.version === null)).toEqual([false, false])
  placePublicFiles(site, out, first)
  const keptInode = fs.statSync(path.join(out, 'docs/internal/images/kept.svg')).ino

  pub('docs/internal/images/redrawn.svg', svg('drawn 2'), 30)
  reads.length = 0
  placePublicFiles(site, out, scanned())
  expect(reads).toEqual(['/docs/internal/images/redrawn.svg'])
  expect(fs.readFileSync(path.join(out, 'docs/internal/images/redrawn.svg'), 'utf8')).toBe(svg('drawn 2'))
  expect(fs.statSync(path.join(out, 'docs/internal/images/kept.svg')).ino).toBe(keptInode)
})

test("out/ is kept in place only for the same audiences: a page's removal that ends an audience changes what out/ must hold", () => {
  const { access } = require('../../lib/access') as typeof import('../../lib/access')
  const { planAggregates } = require('../../lib/access/planAggregates') as typeof import('../../lib/access/planAggregates')
  const routes = scanContent(path.resolve(__dirname, '../..')).pages.map((page) => page.route)
  const all = planAggregates({ access, routes })
  // An edit of a page's text plans the same audiences.
  expect(audienceFoldersOf(planAggregates({ access, routes: [...routes] }))).toBe(audienceFoldersOf(all))
  // Every page of one audience removed: that audience, its search folder and manifests are gone from the plan.
  const ended = all.audiences.find((audience) => routes.some((route) => all.audienceOf[route] === audience.id))!
  const without = planAggregates({ access, routes: routes.filter((route) => all.audienceOf[route] !== ended.id) })
  expect(without.audiences.map((audience) => audience.id)).not.toContain(ended.id)
  expect(audienceFoldersOf(without)).not.toBe(audienceFoldersOf(all))
})
