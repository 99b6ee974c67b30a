/**
 * The build step without `next build`, when the build ID is the last build's (./renderPlan.ts): a
 * writer's edit changes no code, so the last `next build`'s files are the ones a new one would
 * write. They stay in out/, and the changed pages are rendered with the last build's server
 * bundle (./renderWithNext.cjs), which compiles nothing. A one-page rebuild then costs one
 * page's render, not Next's start and its bundler's fixed compile (about 8 s at any size).
 *
 * Each of `next build`'s files is checked against the digest recorded when it was written: the
 * client's files and route manifests against .next/static/ (the build's later steps rewrite the
 * manifests in out/), the other pages against the last out/. Any difference, or no server bundle
 * of this build ID, and the step runs `next build` instead.
 */
import fs from 'node:fs'
import path from 'node:path'
import { pageHtmlFile } from '../../lib/access/pageFiles'
import { sha256 } from '../compile/fingerprint'
import type { RenderedBuild } from '../store/pageStore'
import type { SitePaths } from '../steps/paths'
import { pageFilesOf, RENDER_ROUTES, type RenderPlan } from './renderPlan'
import { runInProduction } from './runInProduction'

/** Where the renderer writes the pages before they move into out/. */
const RENDERED_DIR = '.cache/rendered'
const STATIC = '/_next/static/'
/** The one docs route's server bundle, as `next build` names it. */
const DOCS_SERVER_PAGE = 'server/pages/[[...slug]].js'

/** Where one of `next build`'s files of out/ is as Next wrote it: Next copies .next/static/ to out/_next/static/. */
function sourceOf(paths: SitePaths, key: string): string {
  return key.startsWith(STATIC) ? path.join(paths.next, 'static', key.slice(STATIC.length)) : path.join(paths.out, key)
}

/** Why the last build's files cannot serve this build ID; null when they can. */
export function whyNotReuse(paths: SitePaths, buildId: string, last: RenderedBuild | null): string | null {
  if (!last || last.buildId !== buildId) return 'no earlier build of this code'
  const nextId = path.join(paths.next, 'BUILD_ID')
  if (!fs.existsSync(nextId) || fs.readFileSync(nextId, 'utf8').trim() !== buildId) return `.next/ holds another build than ${buildId}`
  if (!fs.existsSync(path.join(paths.next, DOCS_SERVER_PAGE))) return `.next/ has no ${DOCS_SERVER_PAGE}`
  for (const [key, digest] of Object.entries(last.nextFiles)) {
    const file = sourceOf(paths, key)
    if (!fs.existsSync(file) || sha256(fs.readFileSync(file)) !== digest) return `${path.relative(paths.root, file)} is not the file the last build wrote`
  }
  return null
}

/**
 * Every file under `dir` that `keep` (out/ keys) does not hold is removed, and every folder left
 * empty; returns the keys kept.
 */
function pruneTree(dir: string, keep: ReadonlySet<string>, prefix = ''): number {
  let kept = 0
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name)
    const key = `${prefix}/${entry.name}`
    if (entry.isDirectory()) {
      const inside = pruneTree(full, keep, key)
      if (inside === 0) fs.rmdirSync(full)
      kept += inside
    } else if (keep.has(key)) kept++
    else fs.unlinkSync(full)
  }
  return kept
}

/**
 * Makes out/, where the last build left everything, as `next build` would leave it for `plan`:
 * its own files and the pages to keep stay, the route manifests come back from .next/static/ as
 * Next wrote them, everything else goes (the later steps' files, which they write again, and
 * the pages to render or gone), and the changed pages are rendered with its server bundle. The
 * pages to keep stay where they are, time and all: moving thousands of them aside and back cost
 * more than rendering one page.
 */
export async function reuseLastBuild(paths: SitePaths, plan: RenderPlan, last: RenderedBuild, heapMb: number): Promise<void> {
  const nextFiles = Object.keys(last.nextFiles)
  pruneTree(paths.out, new Set([...nextFiles, ...plan.keep.flatMap((route) => pageFilesOf(route, plan.buildId).map((file) => `/${file}`))]))
  for (const key of nextFiles) {
    if (key.startsWith(STATIC)) fs.copyFileSync(sourceOf(paths, key), path.join(paths.out, key))
  }
  if (plan.render.length === 0) return
  const rendered = path.join(paths.root, RENDERED_DIR)
  fs.rmSync(rendered, { recursive: true, force: true })
  await runRenderer(paths, rendered, heapMb)
  for (const route of plan.render) {
    // The renderer names a page's files as Next's export does, both beside each other.
    const html = pageHtmlFile(route)
    const from = [html, html.replace(/\.html$/, '.json')]
    pageFilesOf(route, plan.buildId).forEach((file, i) => {
      fs.mkdirSync(path.dirname(path.join(paths.out, file)), { recursive: true })
      fs.renameSync(path.join(rendered, from[i]), path.join(paths.out, file))
    })
  }
  fs.rmSync(rendered, { recursive: true, force: true })
}

/** Renders the routes of RENDER_ROUTES into `into`, with the last build's server bundle. */
function runRenderer(paths: SitePaths, into: string, heapMb: number): Promise<void> {
  const script = path.join(__dirname, 'renderWithNext.cjs')
  return runInProduction("rendering with the last build's server bundle", process.execPath, [script, path.join(paths.root, RENDER_ROUTES), into], { cwd: paths.root, heapMb })
}
