/**
 * The MDX compile of the build's first step (pipeline/compile/compilePages.ts): the check's wall
 * time with an empty cache (every page compiled, worker threads started) and with a full one and
 * the page store the first left (no page changed: every page read and hashed, none compiled, no
 * entry read), on the real site and on generated pages.
 */
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { CACHE_DIR, compilePages } from '../pipeline/compile/compilePages'
import { scanContent } from '../pipeline/content/contentSource'
import { PageStore } from '../pipeline/store/pageStore'
import { copyProject } from '../scripts/audit/copyProject'
import { generatePages } from './generatePages'
import { medianWithRange, type Figure } from './table'

async function timed(root: string, store: PageStore): Promise<{ seconds: number; compiled: number; pages: number }> {
  const started = performance.now()
  const report = await compilePages(scanContent(root), store)
  if (report.problems.length) throw new Error(`bench compile: ${report.problems.length} page(s) do not compile in ${root}: ${report.problems[0].message}`)
  return { seconds: (performance.now() - started) / 1000, compiled: report.compiled, pages: report.pages }
}

/** `runs` cold and warm checks of the project's pages plus `generated` generated pages, in a copy. */
export async function compileFigures(label: string, generated: number, runs: number): Promise<Figure[]> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `bench-compile-${generated}-`))
  try {
    copyProject(process.cwd(), dir)
    if (generated > 0) generatePages(dir, generated)
    const cold: number[] = []
    const warm: number[] = []
    let pages = 0
    for (let run = 0; run < runs; run++) {
      fs.rmSync(path.join(dir, CACHE_DIR), { recursive: true, force: true })
      const store = new PageStore(null)
      const first = await timed(dir, store)
      const second = await timed(dir, store)
      if (first.compiled !== first.pages || second.compiled !== 0) throw new Error(`bench compile: expected ${first.pages} compiled then none, got ${first.compiled} and ${second.compiled}`)
      cold.push(first.seconds)
      warm.push(second.seconds)
      pages = first.pages
    }
    const workers = Math.max(1, os.availableParallelism())
    return [
      { group: 'compile', name: `${label} (${pages} pages), cold`, unit: 's', method: `compilePages with no .cache/mdx: every page compiled with Nextra's compileMdx in ${workers} worker threads`, ...medianWithRange(cold, 2) },
      { group: 'compile', name: `${label} (${pages} pages), warm`, unit: 's', method: 'compilePages again with the page store the first left, no page changed: every page read and hashed, its record found, no entry read', ...medianWithRange(warm, 3) },
    ]
  } finally {
    fs.rmSync(dir, { recursive: true, force: true })
  }
}
