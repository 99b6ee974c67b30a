/**
 * @jest-environment node
 *
 * The renderer the build starts while it scans content/ (pipeline/render/lastBuildRenderer.ts):
 * one that is not needed ends without rendering anything, and one told to render with nothing to
 * render from fails the build, named. (A real render is __tests__/integration/rebuild.test.ts's.)
 */
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { DOCS_SERVER_PAGE, LastBuildRenderer } from '../../pipeline/render/lastBuildRenderer'
import { CACHE_PATHS, sitePaths } from '../../pipeline/steps/paths'

let root: string
beforeEach(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'renderer-'))
  // A server bundle's name, so warm() starts the process; not a build it could render with.
  const page = path.join(root, '.next', DOCS_SERVER_PAGE)
  fs.mkdirSync(path.dirname(page), { recursive: true })
  fs.writeFileSync(page, '')
  fs.mkdirSync(path.join(root, '.cache'), { recursive: true })
  fs.writeFileSync(path.join(root, CACHE_PATHS.renderRoutes), JSON.stringify(['/docs/leads/intro']))
})
afterEach(() => fs.rmSync(root, { recursive: true, force: true }))

test('warmed and not needed, it ends when closed, having rendered nothing', async () => {
  const renderer = new LastBuildRenderer(sitePaths(root))
  renderer.warm()
  await renderer.close()
  expect(fs.existsSync(renderer.into)).toBe(false)
  // Closed, it is not told to render after all.
  await expect(renderer.render()).rejects.toThrow(/renders once per build/)
}, 30_000)

test('told to render with no build to render from, it fails, naming what failed', async () => {
  const renderer = new LastBuildRenderer(sitePaths(root))
  renderer.warm()
  await expect(renderer.render()).rejects.toThrow(/rendering with the last build's server bundle failed \(exit 1\)/)
  await renderer.close()
}, 60_000)

test('not warmed, render() starts it: the same failure', async () => {
  const renderer = new LastBuildRenderer(sitePaths(root))
  await expect(renderer.render()).rejects.toThrow(/rendering with the last build's server bundle failed/)
}, 60_000)
