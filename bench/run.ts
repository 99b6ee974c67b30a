/**
 * `npm run bench [group …]`: prints one table of measured figures and merges them into
 * bench/results.json. Groups: size, edge, server, search, mcp, browser, docs-page, compile, build, build-1000,
 * build-vs-docusaurus, build-vs-docusaurus-1000, deploy, deploy-1000. Without arguments: size, edge, server, search, mcp
 * and browser (a few minutes); the build groups take many minutes and run when named
 * (build-vs-docusaurus-3000, build-10000, build-30000, dev-3000 and deploy-10000 too). Page weight
 * reads the last `npm run build`; run it first.
 *
 * build-vs-docusaurus(-1000) builds ours and Docusaurus 3.10 with Rspack on the same 80 (1,000)
 * pages from ../shared/anchors/gen-pages.mjs, side by side, and prints the ratio ours/Docusaurus
 * beside both sides' figures (bench/build.ts). DOCS_ANCHORS_SRC names the anchors folder (default
 * ../shared/anchors), ANCHORS_DIR where its run.sh installs Docusaurus (default /tmp/anchors; the
 * first run installs it from npm).
 */
import fs from 'node:fs'
import path from 'node:path'
import { sitePaths } from '../pipeline/steps/paths'
import { bareNextraFirstLoadJs } from './bareNextra'
import { browserFigures } from './browser'
import { anchorsPages, buildFigures, buildVsDocusaurusFigures, generatedPages } from './build'
import { compileFigures } from './compile'
import { deployFigures } from './deploy'
import { devFigures } from './dev'
import { edgeFigures } from './edge'
import { mcpFigures } from './mcp'
import { pageWeightFigures } from './pageWeight'
import { searchFigures } from './search'
import { serverFigures } from './server'
import { medianOverRuns, printTable, saveResults, type Figure } from './table'

const GROUPS: Record<string, () => Promise<Figure[]>> = {
  size: async () => {
    const { next, out } = sitePaths()
    if (!fs.existsSync(path.join(next, 'build-manifest.json')) || !fs.existsSync(out)) throw new Error('no build; run `npm run build` first')
    return pageWeightFigures('.', bareNextraFirstLoadJs())
  },
  edge: () => edgeFigures(),
  server: () => serverFigures(),
  // BENCH_RUNS runs of the whole search bench, each in a fresh browser.
  search: async () => {
    const runs: Figure[][] = []
    for (let run = 0; run < RUNS; run++) runs.push(await searchFigures())
    return medianOverRuns(runs)
  },
  // The AI tools' server on 2,000 generated pages, server-side (bench/mcp.ts).
  mcp: () => mcpFigures(RUNS),
  browser: () => browserFigures(RUNS),
  // The browser group's docs-page figures alone: hydration and a move in the browser (bench/browser.ts).
  'docs-page': () => browserFigures(RUNS, ['docs page']),
  // The build's MDX compile alone, cold and warm cache: the real site, then 1,000 pages (bench/compile.ts).
  compile: async () => [...(await compileFigures('real site', 0, RUNS)), ...(await compileFigures('generated', 1000 - 101, RUNS))],
  // Each takes minutes: BENCH_RUNS (default 3) clean builds and as many rebuilds.
  build: () => buildFigures('real site', generatedPages(0), RUNS),
  'build-1000': async () => [...(await buildFigures('generated', generatedPages(1000 - 101), RUNS))],
  // BENCH_RUNS rounds, each a clean build of both sites (alternating which goes first) and our rebuild.
  'build-vs-docusaurus': () => buildVsDocusaurusFigures(80, RUNS),
  'build-vs-docusaurus-1000': () => buildVsDocusaurusFigures(1000, RUNS),
  'build-vs-docusaurus-3000': () => buildVsDocusaurusFigures(3000, RUNS),
  // Ours alone, on the anchors' pages, as the build-vs-docusaurus groups: Docusaurus at 10,000 pages takes most of an hour here.
  'build-10000': () => buildFigures('anchors', anchorsPages(10000), RUNS),
  // The size the build must still handle: a clean build's process tree under 3 GB (each run about 10 minutes here).
  'build-30000': () => buildFigures('anchors', anchorsPages(30000), RUNS),
  // npm run dev at 3,000 pages: ready, first open, an edit in the open page (bench/dev.ts).
  'dev-3000': () => devFigures(3000, RUNS),
  // npm run deploy to a local S3 (s3rver): the first deploy and the one after a one-page edit (bench/deploy.ts).
  deploy: () => deployFigures(0, RUNS),
  'deploy-1000': () => deployFigures(1000 - 101, RUNS),
  'deploy-3000': () => deployFigures(3000 - 101, RUNS),
  'deploy-10000': () => deployFigures(10000 - 101, RUNS),
}
const RUNS = Number(process.env.BENCH_RUNS ?? 3)

async function main() {
  const wanted = process.argv.slice(2)
  const unknown = wanted.filter((group) => !GROUPS[group])
  if (unknown.length) throw new Error(`unknown bench group(s): ${unknown.join(', ')}; known: ${Object.keys(GROUPS).join(', ')}`)
  const figures: Figure[] = []
  const failed: string[] = []
  for (const group of wanted.length ? wanted : ['size', 'edge', 'server', 'search', 'mcp', 'browser']) {
    process.stderr.write(`bench: ${group}…\n`)
    try {
      figures.push(...(await GROUPS[group]()))
    } catch (error) {
      // One failed group must not throw away the figures the others measured.
      failed.push(group)
      process.stderr.write(`bench: ${group} failed: ${error instanceof Error ? error.message : error}\n`)
    }
  }
  printTable(figures)
  saveResults(figures)
  if (failed.length) throw new Error(`group(s) failed: ${failed.join(', ')}`)
}

main().catch((error) => {
  console.error(`bench: ${error instanceof Error ? error.message : error}`)
  process.exit(1)
})
