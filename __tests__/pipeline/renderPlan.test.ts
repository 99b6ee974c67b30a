/**
 * @jest-environment node
 *
 * Which pages `next build` renders, and which it keeps from the last out/ (pipeline/render/renderPlan.ts).
 */
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterRender, beforeRender, keptPagesFit, pageFilesOf, planRender, PREVIOUS_OUT } from '../../pipeline/render/renderPlan'

let root: string
let out: string
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
  const first = planRender(root, out, 'B1', props)
  expect(first).toMatchObject({ render: ['/', '/docs/leads/env', '/docs/leads/intro'], keep: [], whyAll: 'no record of an earlier build' })
  beforeRender(root, out, first)
  nextWrites('B1', first.render)
  afterRender(root, out, first, props)

  const edited = { ...props, '/docs/leads/intro': 'b2.json' }
  const second = planRender(root, out, 'B1', edited)
  expect(second).toMatchObject({ render: ['/docs/leads/intro'], keep: ['/', '/docs/leads/env'], whyAll: null })
  beforeRender(root, out, second)
  expect(fs.existsSync(path.join(root, PREVIOUS_OUT, 'index.html'))).toBe(true)
  nextWrites('B1', second.render)
  expect(keptPagesFit(root, out)).toBe(true)
  afterRender(root, out, second, edited)
  expect(fs.readFileSync(path.join(out, 'index.html'), 'utf8')).toBe('/ as rendered')
  expect(fs.existsSync(path.join(out, '_next/data/B1/docs/leads/env.json'))).toBe(true)
  expect(fs.existsSync(path.join(root, PREVIOUS_OUT))).toBe(false)

  // Another build ID (code, settings, rules): everything again.
  expect(planRender(root, out, 'B2', edited)).toMatchObject({ keep: [], whyAll: "the site's code, settings or dependencies changed" })
  // A kept page's file gone from out/: that page renders again.
  fs.rmSync(path.join(out, 'index.html'))
  expect(planRender(root, out, 'B1', edited).render).toEqual(['/'])
})

test('when the new build names other client files than the kept pages do, they do not fit', () => {
  const props = { '/': 'a.json', '/docs/leads/intro': 'b.json' }
  const first = planRender(root, out, 'B1', props)
  beforeRender(root, out, first)
  nextWrites('B1', first.render)
  afterRender(root, out, first, props)
  const second = planRender(root, out, 'B1', { ...props, '/': 'a2.json' })
  beforeRender(root, out, second)
  nextWrites('B1', second.render, 'main-def.js')
  expect(keptPagesFit(root, out)).toBe(false)
})
