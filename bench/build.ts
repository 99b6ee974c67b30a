/**
 * Build time and peak memory of the full build (`npm run build`: link check, next build, search
 * indexes, asset routes, edge bundle) for the real site and for generated sites, clean and after
 * a one-page edit (warm .next/cache). Every build runs in a temporary copy.
 */
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { measure, type RunFigures } from './processTree'
import { copyProject } from '../scripts/audit/copyProject'
import { generatePages } from './generatePages'
import { median, type Figure } from './table'

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

/** Clean builds (no .next) and rebuilds after editing one page, `runs` times each. */
export async function buildFigures(label: string, generated: number, runs: number): Promise<Figure[]> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `bench-build-${generated}-`))
  try {
    copyProject(process.cwd(), dir)
    const edited = generated > 0 ? generatePages(dir, generated) : path.join(dir, 'content/docs/leads/environments.mdx')
    const clean: RunFigures[] = []
    const rebuild: RunFigures[] = []
    for (let run = 0; run < runs; run++) {
      fs.rmSync(path.join(dir, '.next'), { recursive: true, force: true })
      clean.push(await measure('npm', ['run', 'build', '--silent'], dir, ENV))
      fs.appendFileSync(edited, `\nEdited for rebuild ${run}.\n`)
      rebuild.push(await measure('npm', ['run', 'build', '--silent'], dir, ENV))
    }
    const pages = countPages(dir)
    return [
      ...summarise('build', `${label} (${pages} pages), clean`, clean, 'npm run build in a fresh copy, no .next'),
      ...summarise('build', `${label} (${pages} pages), rebuild after one-page edit`, rebuild, 'npm run build again after appending to one page (warm .next/cache)'),
    ]
  } finally {
    fs.rmSync(dir, { recursive: true, force: true })
  }
}

function countPages(dir: string): number {
  return fs.readdirSync(path.join(dir, 'content/docs'), { recursive: true }).filter((name) => String(name).endsWith('.mdx')).length + 1
}
