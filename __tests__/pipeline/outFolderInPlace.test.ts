/** @jest-environment node */
/**
 * out/ is the build's: a folder put where a file of the build goes is not taken for that file. A
 * rebuild in place renders the page again and puts its file back, as it does a file removed by hand.
 */
import fs from 'node:fs'
import path from 'node:path'
import { presentUnder } from '../../pipeline/files'
import { renderPages } from '../../pipeline/render/reuseLastBuild'
import { pageFilesOf, type RenderPlan } from '../../pipeline/render/renderPlan'
import { openKeptFiles } from '../../pipeline/steps/keptFiles'
import { CACHE_PATHS, type SitePaths } from '../../pipeline/steps/paths'
import { tempSite } from '../fixtures/tempSite'

test('a folder of a file\'s name is not the file', () => {
  const root = tempSite('present-', { 'out/docs/leads/a.html': 'page', 'out/docs/leads/b.html/x': 'not a page' })
  const present = presentUnder(path.join(root, 'out'))
  expect(['docs/leads/a.html', 'docs/leads/b.html', 'docs/leads/c.html'].map(present)).toEqual([true, false, false])
})

test("the render moves a page's files over a folder put in their place", async () => {
  const root = tempSite('render-over-folder-', { 'out/docs/leads/a.html/x': 'not a page', '.cache/': '' })
  const out = path.join(root, 'out')
  const into = path.join(root, '.render')
  const renderer = {
    into,
    render: async () => {
      for (const [file, text] of [['docs/leads/a.html', '<p>page</p>'], ['docs/leads/a.json', '{}']]) {
        fs.mkdirSync(path.dirname(path.join(into, file)), { recursive: true })
        fs.writeFileSync(path.join(into, file), text)
      }
    },
  }
  const plan = { render: ['/docs/leads/a'], buildId: 'B1' } as unknown as RenderPlan
  const written = await renderPages({ root, out } as SitePaths, plan, renderer)
  expect(written).toEqual(pageFilesOf('/docs/leads/a', 'B1'))
  expect(fs.readFileSync(path.join(out, 'docs/leads/a.html'), 'utf8')).toBe('<p>page</p>')
})

test("a kept file (a page's Markdown) is linked over a folder put in its place", () => {
  const root = tempSite('kept-over-folder-', { 'out/docs/leads/a.md/x': 'not the Markdown' })
  const kept = openKeptFiles(root, path.join(root, 'out'), CACHE_PATHS.markdownFiles)
  kept.write('/docs/leads/a.md', Buffer.from('# A'))
  expect(fs.readFileSync(path.join(root, 'out/docs/leads/a.md'), 'utf8')).toBe('# A')
})
