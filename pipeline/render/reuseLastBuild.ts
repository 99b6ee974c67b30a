/**
 * The build step without `next build`, when the build ID is the last build's (./renderPlan.ts): a
 * writer's edit changes no code, so the last `next build`'s files are the ones a new one would
 * write. They come back into out/, and the changed pages are rendered with the last build's
 * server bundle (./renderWithNext.cjs), which compiles nothing. A one-page rebuild then costs one
 * page's render, not Next's start and its bundler's compile, whose time does not shrink with the
 * edit (its figures at 3,000 and 10,000 pages: docs/benchmarks.md, "Build and dev at scale").
 *
 * Each of `next build`'s files is checked against the digest recorded when it was written: the
 * server bundle in .next/server/, the client's files and route manifests against .next/static/ (the
 * build's later steps rewrite the manifests in out/), the other pages against the last out/. Any difference, or no server bundle
 * of this build ID, and the step runs `next build` instead.
 */
import fs from 'node:fs'
import path from 'node:path'
import { pageHtmlFile } from '../../lib/access/pageFiles'
import { sha256 } from '../files'
import type { RenderedBuild } from '../store/pageStore'
import type { SitePaths } from '../steps/paths'
import { pageFilesOf, RENDER_ROUTES, type RenderPlan } from './renderPlan'
import { DOCS_SERVER_PAGE, type LastBuildRenderer } from './lastBuildRenderer'
import { BUILD_FILES_PREFIX } from '../../lib/pathFormats'
import type { OutWrites } from '../steps/outFiles'

/** Where one of `next build`'s files of out/ is kept while out/ is `out`: Next copies .next/static/ to out/_next/static/. */
function sourceOf(paths: SitePaths, out: string, key: string): string {
  return key.startsWith(BUILD_FILES_PREFIX) ? path.join(paths.next, 'static', key.slice(BUILD_FILES_PREFIX.length)) : path.join(out, key)
}

/** Why the last build's files cannot serve this build ID; null when they can. */
export function whyNotReuse(paths: SitePaths, buildId: string, last: RenderedBuild | null): string | null {
  if (!last || last.buildId !== buildId) return 'no earlier build of this code'
  if (!last.routes) return 'no record of the pages out/ holds'
  const nextId = path.join(paths.next, 'BUILD_ID')
  if (!fs.existsSync(nextId) || fs.readFileSync(nextId, 'utf8').trim() !== buildId) return `.next/ holds another build than ${buildId}`
  if (!fs.existsSync(path.join(paths.next, DOCS_SERVER_PAGE))) return `.next/ has no ${DOCS_SERVER_PAGE}`
  if (!last.serverFiles) return 'no record of the server bundle'
  const recorded = [
    ...Object.entries(last.serverFiles).map(([key, digest]) => [path.join(paths.next, key), digest]),
    ...Object.entries(last.nextFiles).map(([key, digest]) => [sourceOf(paths, paths.out, key), digest]),
  ]
  for (const [file, digest] of recorded) {
    if (!fs.existsSync(file) || sha256(fs.readFileSync(file)) !== digest) return `${path.relative(paths.root, file)} is not the file the last build wrote`
  }
  return null
}

/**
 * Makes out/ as `next build` would leave it for `plan`, in place, from the last build's files (call
 * after beforeRender 'in place'): out/ already holds its pages and, as whyNotReuse checked, its own
 * files, but the client's files and route manifests come back from .next/static/ (later steps
 * rewrite the manifests in out/); the changed pages are rendered with its server bundle and
 * replace their files. The pages the site no longer has are removed by afterRender.
 */
export async function reuseLastBuild(paths: SitePaths, plan: RenderPlan, last: RenderedBuild, renderer: Pick<LastBuildRenderer, 'render' | 'into'>): Promise<OutWrites> {
  const files: string[] = []
  for (const key of Object.keys(last.nextFiles)) {
    if (!key.startsWith(BUILD_FILES_PREFIX)) continue
    files.push(key.slice(1))
    const target = path.join(paths.out, key)
    fs.mkdirSync(path.dirname(target), { recursive: true })
    // A new file, not the one out/ holds rewritten: a later step's copy of it may be a link.
    fs.copyFileSync(sourceOf(paths, paths.out, key), `${target}.partial`)
    fs.renameSync(`${target}.partial`, target)
  }
  return { files: [...files, ...(await renderPages(paths, plan, renderer))] }
}

/**
 * Renders the pages of `plan.render` with the server bundle in .next/ (./renderWithNext.cjs) and
 * moves each page's two files into out/, over any last version: out/ never holds half a page.
 * Their keys in out/.
 */
export async function renderPages(paths: SitePaths, plan: RenderPlan, renderer: Pick<LastBuildRenderer, 'render' | 'into'>): Promise<string[]> {
  if (plan.render.length === 0) return []
  fs.writeFileSync(path.join(paths.root, RENDER_ROUTES), JSON.stringify(plan.render))
  await renderer.render()
  for (const route of plan.render) {
    // The renderer names a page's files as Next's export does, both beside each other.
    const html = pageHtmlFile(route)
    const from = [html, html.replace(/\.html$/, '.json')]
    pageFilesOf(route, plan.buildId).forEach((file, i) => {
      const [rendered, target] = [path.join(renderer.into, from[i]), path.join(paths.out, file)]
      fs.mkdirSync(path.dirname(target), { recursive: true })
      try {
        fs.renameSync(rendered, target)
      } catch (error) {
        // A folder where the page's file goes (put there by hand) stops the move: out/ is the build's.
        if (!['EISDIR', 'ENOTEMPTY', 'EEXIST'].includes((error as NodeJS.ErrnoException).code ?? '')) throw error
        fs.rmSync(target, { recursive: true })
        fs.renameSync(rendered, target)
      }
    })
  }
  fs.rmSync(renderer.into, { recursive: true, force: true })
  return plan.render.flatMap((route) => pageFilesOf(route, plan.buildId))
}
