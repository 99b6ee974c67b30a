/**
 * @jest-environment node
 *
 * Which pages `next build` renders, and which it keeps from the last out/ (pipeline/render/renderPlan.ts).
 */
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterRender, beforeRender, keptPagesFit, pageFilesOf, planRender, PREVIOUS_OUT } from '../../pipeline/render/renderPlan'
import { readStore, type PageStore } from '../../pipeline/store/pageStore'

let root: string
let out: string
/** The page store as the page step leaves it: a record for each page of `props`. */
const storeOf = (props: Record<string, string>): PageStore => {
  const last = readStore(root)
  const record = (route: string) => ({ file: `content${route}.mdx`, digest: '', entry: '', problem: null, title: route, description: null, props: { inputs: '', name: props[route] } })
  return { ...last, pages: Object.fromEntries(Object.keys(props).map((route) => [route, { ...record(route), rendered: last.pages[route]?.rendered }])) }
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
  afterRender(root, out, first, store, props)

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
  afterRender(root, out, second, store, edited)
  expect(fs.readFileSync(path.join(out, 'index.html'), 'utf8')).toBe('/ as rendered')
  expect(fs.existsSync(path.join(out, '_next/data/B1/docs/leads/env.json'))).toBe(true)
  expect(fs.existsSync(path.join(root, PREVIOUS_OUT))).toBe(false)

  // Another build ID (code, settings, rules): everything again.
  expect(planRender(readStore(root), out, 'B2', edited)).toMatchObject({ keep: [], whyAll: "the site's code, settings or dependencies changed" })
  // A kept page's file gone from out/: that page renders again.
  fs.rmSync(path.join(out, 'index.html'))
  expect(planRender(readStore(root), out, 'B1', edited).render).toEqual(['/'])
})

test('when the new build names other client files than the kept pages do, they do not fit', () => {
  const props = { '/': 'a.json', '/docs/leads/intro': 'b.json' }
  const store = storeOf(props)
  const first = planRender(store, out, 'B1', props)
  beforeRender(root, out, first, store)
  nextWrites('B1', first.render)
  afterRender(root, out, first, store, props)
  const edited = { ...props, '/': 'a2.json' }
  const second = planRender(storeOf(edited), out, 'B1', edited)
  beforeRender(root, out, second, storeOf(edited))
  nextWrites('B1', second.render, 'main-def.js')
  expect(keptPagesFit(out, second)).toBe(false)
})
