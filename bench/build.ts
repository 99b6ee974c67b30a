/**
 * Build time and peak memory of the full build (`npm run build`: link check, next build, search
 * indexes, asset routes, edge bundle) for the real site and for generated sites, clean and after
 * a one-page edit (warm .next/cache), and beside Docusaurus with Rspack on the same generated
 * pages. Every build of ours runs in a temporary copy.
 */
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { measure, type RunFigures } from './processTree'
import { copyProject } from '../scripts/audit/copyProject'
import { SECTIONS } from '../lib/navigation/siteNavigation'
import { placeAnchorPages } from './anchorPages'
import { anchorsDir, anchorsSource, ensureDocusaurus, generateAnchorPages, measureDocusaurus } from './docusaurusAnchor'
import { generatePages } from './generatePages'
import { median, medianWithRange, type Figure } from './table'
import { PHASE_LABELS, readBuildPhases, readStepTimes, type BuildPhases } from './buildPhases'
import { folderBytes } from './pageWeight'

const ENV = { ...process.env, NEXT_TELEMETRY_DISABLED: '1', NEXT_IGNORE_INCORRECT_LOCKFILE: '1' }

function summarise(group: string, name: string, runs: RunFigures[], method: string): Figure[] {
  const failed = runs.filter((run) => !run.ok).length
  if (failed) throw new Error(`${name}: ${failed} of ${runs.length} builds failed`)
  const seconds = runs.map((run) => run.seconds)
  const memory = runs.map((run) => run.peakTreeMb)
  return [
    { group, name: `${name}: wall time`, value: +median(seconds).toFixed(1), min: Math.min(...seconds), max: Math.max(...seconds), runs: runs.length, unit: 's', method },
    { group, name: `${name}: peak memory`, value: median(memory), min: Math.min(...memory), max: Math.max(...memory), runs: runs.length, unit: 'MB', method: 'sum of RSS over the build\'s process tree, sampled every 250 ms' },
  ]
}

/** Puts a build group's pages into the copy at `dir`, and names the page its rebuilds edit. */
type PlacePages = (dir: string) => string

/** The bench's own small generated pages (./generatePages.ts) besides the site's; none: the real site alone. */
export const generatedPages =
  (generated: number): PlacePages =>
  (dir) =>
    generated > 0 ? generatePages(dir, generated) : path.join(dir, 'content/docs/leads/environments.mdx')

/** `pages` of the anchors' generated pages (real-sized, as build-vs-docusaurus builds them) in place of the site's own docs. */
export const anchorsPages =
  (pages: number): PlacePages =>
  (dir) => {
    const generated = fs.mkdtempSync(path.join(os.tmpdir(), `bench-anchor-pages-${pages}-`))
    try {
      generateAnchorPages(anchorsSource(process.cwd()), generated, pages, 'nextra')
      return path.join(dir, placeAnchorPages(generated, dir, SECTIONS).pages[0])
    } finally {
      fs.rmSync(generated, { recursive: true, force: true })
    }
  }

/** Clean builds (no .next) and rebuilds after editing one page, `runs` times each, on the pages `place` puts in the copy. */
export async function buildFigures(label: string, place: PlacePages, runs: number): Promise<Figure[]> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-build-'))
  try {
    copyProject(process.cwd(), dir)
    const edited = place(dir)
    const clean: RunFigures[] = []
    const rebuild: RunFigures[] = []
    const phases: BuildPhases[] = []
    const out: number[] = []
    for (let run = 0; run < runs; run++) {
      // A clean build: no bundler cache, no MDX compile cache (pipeline/compile/), no earlier out/.
      for (const cache of ['.next', '.cache', 'out']) fs.rmSync(path.join(dir, cache), { recursive: true, force: true })
      const cleanRun = await measure('npm', ['run', 'build', '--silent'], dir, ENV)
      clean.push(cleanRun)
      if (cleanRun.ok) phases.push(readBuildPhases(dir, cleanRun.seconds))
      out.push(folderBytes(path.join(dir, 'out')) / 1e6)
      fs.appendFileSync(edited, `\nEdited for rebuild ${run}.\n`)
      rebuild.push(await measure('npm', ['run', 'build', '--silent'], dir, ENV))
    }
    const pages = countPages(dir)
    const name = `${label} (${pages} pages)`
    return [
      ...summarise('build', `${name}, clean`, clean, 'npm run build in a fresh copy, no .next, .cache or out'),
      ...summarise('build', `${name}, rebuild after one-page edit`, rebuild, 'npm run build again after appending to one page (warm caches, last out/)'),
      { group: 'build', name: `${name}: out/ size`, ...medianWithRange(out, 1), unit: 'MB', method: 'bytes of every file in out/ after a clean build' },
      ...phaseFigures('build', `${name}, clean`, phases),
      ...stepFigures('build', `${name}, clean`, clean),
      ...stepFigures('build', `${name}, rebuild`, rebuild),
    ]
  } finally {
    fs.rmSync(dir, { recursive: true, force: true })
  }
}

function countPages(dir: string): number {
  return fs.readdirSync(path.join(dir, 'content/docs'), { recursive: true }).filter((name) => String(name).endsWith('.mdx')).length + 1
}

/** Medians of each of our build's steps over `runs`, from the table the build prints. */
function stepFigures(group: string, name: string, runs: RunFigures[]): Figure[] {
  const times = runs.map((run) => readStepTimes(run.stdout))
  const steps = [...new Set(times.flatMap((steps) => Object.keys(steps)))]
  return steps.map((step) => ({ group, name: `${name}: step ${step}`, ...medianWithRange(times.map((steps) => steps[step] ?? 0), 1), unit: 's', method: "the build's own time per step (pipeline/steps/buildSteps.ts)" }))
}

/** Medians of each build phase over `runs` (bench/buildPhases.ts). */
function phaseFigures(group: string, name: string, runs: BuildPhases[]): Figure[] {
  return (Object.keys(PHASE_LABELS) as Array<keyof BuildPhases>).map((phase) => {
    const seconds = runs.map((run) => run[phase])
    return { group, name: `${name}: phase ${PHASE_LABELS[phase]}`, ...medianWithRange(seconds, 1), unit: 's', method: "from Next's .next/trace; phases may overlap, and the rest of next build is its start-up, config and manifests" }
  })
}

/** The goal: the full build takes at most this many times Docusaurus with Rspack. */
const DOCUSAURUS_TARGET = 0.7

/**
 * Our full build and Docusaurus 3.10 with Rspack on the same `pages` generated pages (the
 * anchors' gen-pages.mjs), side by side in one run: each of `runs` rounds builds both clean, ours
 * first in odd rounds and Docusaurus first in even ones (so neither always gets the cooler
 * machine), then rebuilds ours after a one-page edit. Prints each side's wall time and peak
 * memory, the ratio ours/Docusaurus of every round and its median.
 */
export async function buildVsDocusaurusFigures(pages: number, runs: number): Promise<Figure[]> {
  const group = 'build-vs-docusaurus'
  const source = anchorsSource(process.cwd())
  const site = ensureDocusaurus(source, anchorsDir())
  // Written into the installed reference, as run.sh bench does; each group writes its own N.
  generateAnchorPages(source, site, pages, 'docusaurus')
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `bench-anchor-${pages}-`))
  try {
    copyProject(process.cwd(), dir)
    const edited = anchorsPages(pages)(dir)
    const ours = { clean: [] as RunFigures[], rebuild: [] as RunFigures[], phases: [] as BuildPhases[] }
    const docusaurus: RunFigures[] = []
    // A failed build stops the group at once: at 1,000 pages the remaining rounds take many minutes
    // and could not give a ratio anyway. measure() has already printed the build's error output.
    const ok = (run: RunFigures, what: string) => {
      if (!run.ok) throw new Error(`${what} failed (${pages} generated pages)`)
      return run
    }
    const outBytes = { ours: [] as number[], docusaurus: [] as number[] }
    const buildOurs = async () => {
      // Clean: no bundler cache, no compiled pages, no earlier out/ to keep pages from.
      for (const folder of ['.next', 'out', '.cache']) fs.rmSync(path.join(dir, folder), { recursive: true, force: true })
      const run = ok(await measure('npm', ['run', 'build', '--silent'], dir, ENV), 'our clean build')
      ours.clean.push(run)
      ours.phases.push(readBuildPhases(dir, run.seconds))
      outBytes.ours.push(folderBytes(path.join(dir, 'out')))
    }
    const buildDocusaurus = async () => {
      docusaurus.push(ok(await measureDocusaurus(site), `docusaurus build in ${site}`))
      outBytes.docusaurus.push(folderBytes(path.join(site, 'build')))
    }
    for (let run = 0; run < runs; run++) {
      const order = run % 2 === 0 ? [buildOurs, buildDocusaurus] : [buildDocusaurus, buildOurs]
      for (const build of order) {
        // Lets the previous build's processes and page cache writes settle, as run.sh does.
        await new Promise((resolve) => setTimeout(resolve, 2000))
        await build()
      }
      fs.appendFileSync(edited, `\nEdited for rebuild ${run}.\n`)
      ours.rebuild.push(ok(await measure('npm', ['run', 'build', '--silent'], dir, ENV), 'our rebuild after a one-page edit'))
    }
    const extra = countPages(dir) - pages
    const oursName = `ours, ${pages} generated pages (+${extra} site pages)`
    const docusaurusName = `Docusaurus 3.10 Rspack, ${pages} generated pages`
    const figures = [
      ...summarise(group, `${oursName}, clean`, ours.clean, 'npm run build in a fresh copy, no .next or out; same page bodies as Docusaurus'),
      ...summarise(group, `${docusaurusName}, clean`, docusaurus, 'docusaurus build, DOCUSAURUS_FASTER=1, no .docusaurus, build or node_modules/.cache (as ../shared/anchors/run.sh)'),
      ...summarise(group, `${oursName}, rebuild after one-page edit`, ours.rebuild, 'npm run build again after appending to one page (warm .next/cache)'),
    ]
    const ratios = ours.clean.map((run, index) => run.seconds / docusaurus[index].seconds)
    ratios.forEach((ratio, index) => {
      const first = index % 2 === 0 ? 'ours' : 'Docusaurus'
      figures.push({
        group,
        name: `${pages} pages: ratio ours/Docusaurus, clean wall time, run ${index + 1}`,
        value: +ratio.toFixed(2),
        unit: '×',
        method: `ours ${ours.clean[index].seconds.toFixed(1)} s / Docusaurus ${docusaurus[index].seconds.toFixed(1)} s, ${first} built first; target ≤ ${DOCUSAURUS_TARGET}`,
      })
    })
    figures.push(...phaseFigures(group, `${oursName}, clean`, ours.phases), ...stepFigures(group, `${oursName}, clean`, ours.clean), ...stepFigures(group, `${oursName}, rebuild`, ours.rebuild))
    // What the ratio would be if compiling took no time at all: Next's other phases and our steps.
    const floor = ours.clean.map((run, index) => (run.seconds - ours.phases[index].compile) / docusaurus[index].seconds)
    figures.push({ group, name: `${pages} pages: ratio ours/Docusaurus, clean wall time without our compile phase`, ...medianWithRange(floor, 2), unit: '×', method: `per run (our wall time − our compile phase) / Docusaurus wall time: the ratio with an instant bundler; target ≤ ${DOCUSAURUS_TARGET}` })
    const memory = ours.clean.map((run, index) => run.peakTreeMb / docusaurus[index].peakTreeMb)
    const size = outBytes.ours.map((bytes, index) => bytes / outBytes.docusaurus[index])
    const rebuildShare = ours.rebuild.map((run, index) => run.seconds / ours.clean[index].seconds)
    figures.push(
      { group, name: `${oursName}: out/ size`, ...medianWithRange(outBytes.ours.map((bytes) => bytes / 1e6), 1), unit: 'MB', method: 'bytes of every file in out/ after a clean build' },
      { group, name: `${docusaurusName}: build/ size`, ...medianWithRange(outBytes.docusaurus.map((bytes) => bytes / 1e6), 1), unit: 'MB', method: 'bytes of every file in build/' },
      { group, name: `${pages} pages: ratio ours/Docusaurus, output size`, ...medianWithRange(size, 2), unit: '×', method: 'median of the per-run ratios of out/ to build/ bytes; goal ≤ 0.5' },
      { group, name: `${pages} pages: our rebuild after a one-page edit ÷ our clean build`, ...medianWithRange(rebuildShare, 2), unit: '×', method: 'per run; goal ≤ 0.15' },
    )
    figures.push(
      { group, name: `${pages} pages: ratio ours/Docusaurus, clean wall time`, ...medianWithRange(ratios, 2), unit: '×', method: `median of the per-run ratios of side-by-side clean builds; target ≤ ${DOCUSAURUS_TARGET}` },
      { group, name: `${pages} pages: ratio ours/Docusaurus, clean peak memory`, ...medianWithRange(memory, 2), unit: '×', method: 'median of the per-run ratios of process-tree peak RSS' },
    )
    return figures
  } finally {
    fs.rmSync(dir, { recursive: true, force: true })
  }
}
