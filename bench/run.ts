/**
 * `npm run bench [group …]`: prints one table of measured figures and merges them into
 * bench/results.json. Groups: size, edge, search. Without arguments, all groups whose inputs exist.
 * Page weight reads the last `npm run build`; run it first.
 */
import fs from 'node:fs'
import { edgeFigures } from './edge'
import { pageWeightFigures } from './pageWeight'
import { printTable, saveResults, type Figure } from './table'

const GROUPS: Record<string, () => Promise<Figure[]>> = {
  size: async () => {
    if (!fs.existsSync('.next/build-manifest.json') || !fs.existsSync('out')) throw new Error('no build; run `npm run build` first')
    return pageWeightFigures()
  },
  edge: () => edgeFigures(),
}

async function main() {
  const wanted = process.argv.slice(2)
  const unknown = wanted.filter((group) => !GROUPS[group])
  if (unknown.length) throw new Error(`unknown bench group(s): ${unknown.join(', ')}; known: ${Object.keys(GROUPS).join(', ')}`)
  const figures: Figure[] = []
  for (const group of wanted.length ? wanted : Object.keys(GROUPS)) {
    process.stderr.write(`bench: ${group}…\n`)
    figures.push(...(await GROUPS[group]()))
  }
  printTable(figures)
  saveResults(figures)
}

main().catch((error) => {
  console.error(`bench: ${error instanceof Error ? error.message : error}`)
  process.exit(1)
})
