/**
 * What out/ changed, build by build: for each build, since the record before it (./outRecord.ts),
 * each file added or rewritten with other bytes, with its sha256 and size, and each file removed.
 * The record step adds its build's step just before writing the record, and keeps the steps before
 * it while each build starts from the last one's record. So when the bucket holds the files of one
 * of those records (the deploy's seal names it, scripts/deploy/deploySeal.ts), the deploy merges
 * the steps since it (`outDeltaSince`) and uploads what they name without reading either record
 * whole, or the bucket's.
 *
 * The oldest steps go once the steps would name more than a quarter of out/'s files (a change of
 * build code rewrites most of them), and all of them when a build has no record to start from: a
 * deploy from a record no step starts from compares every file.
 */
import fs from 'node:fs'
import path from 'node:path'
import { readText, writeAtomically } from '../files'
import { CACHE_PATHS } from './paths'

export interface DeltaEntry {
  sha256: string
  size: number
  /** Not in the record the delta runs from. */
  added: boolean
}

export interface OutDelta {
  /** The digest of the record it runs from, and of the one it runs to. */
  from: string
  to: string
  /** By object key: a file added or rewritten since `from`, or null for one removed. */
  files: Record<string, DeltaEntry | null>
}

interface DeltaFile {
  version: 2
  /** One per build, oldest first: each runs from the record the one before it ran to. */
  steps: OutDelta[]
}

/**
 * Whether a change that names `named` of a site's `files` files is large: more than a quarter of
 * them, and over a thousand. Then reading every file's record costs little more than reading the
 * change, so neither the steps here nor the deploy's change records (scripts/deploy/deployRecord.ts) keep one.
 */
export const isLargeChange = (named: number, files: number) => named > Math.max(1000, 0.25 * files)

const deltaFileFor = (outDir: string) => path.join(path.dirname(path.resolve(outDir)), CACHE_PATHS.outDelta)
const DIGEST = /^[0-9a-f]{64}$/

const isStep = (step: OutDelta) => {
  if (typeof step !== 'object' || step === null || !DIGEST.test(step.from) || !DIGEST.test(step.to) || typeof step.files !== 'object' || step.files === null) return false
  for (const key in step.files) {
    const entry = step.files[key]
    if (entry !== null && (typeof entry !== 'object' || !DIGEST.test(entry.sha256) || !Number.isInteger(entry.size) || typeof entry.added !== 'boolean')) return false
  }
  return true
}

/** The steps beside `outDir`, oldest first; none when there are none or they are not whole. */
function readSteps(outDir: string): OutDelta[] {
  try {
    const file = JSON.parse(readText(deltaFileFor(outDir))) as DeltaFile
    if (file.version !== 2 || !Array.isArray(file.steps) || !file.steps.every(isStep)) return []
    return file.steps.every((step, i) => i === 0 || file.steps[i - 1].to === step.from) ? file.steps : []
  } catch {
    return []
  }
}

/**
 * What out/ changed since the record of digest `from`, to the last record the steps run to: the
 * steps since it merged. Null when no step runs from it.
 */
export function outDeltaSince(outDir: string, from: string): OutDelta | null {
  const steps = readSteps(outDir)
  if (steps.length > 0 && steps[steps.length - 1].to === from) return { from, to: from, files: {} }
  const first = steps.findIndex((step) => step.from === from)
  if (first < 0) return null
  const files: OutDelta['files'] = {}
  for (const step of steps.slice(first)) {
    for (const key in step.files) {
      const entry = step.files[key]
      // Whether `from` had the file: what the merge says of it so far, or else what this step's own start had.
      const inFrom = key in files ? files[key] === null || !files[key]!.added : entry === null || !entry.added
      if (entry !== null) files[key] = { sha256: entry.sha256, size: entry.size, added: !inFrom }
      else if (inFrom) files[key] = null
      else delete files[key]
    }
  }
  return { from, to: steps[steps.length - 1].to, files }
}

/**
 * The record step's step, from the record set aside (of digest `from`; null when there was none)
 * to the one being written (of digest `to`, `total` files): what changed, as the record step found
 * it (null when that is a large change, isLargeChange), after the steps that ran to `from`. Writes
 * them, or removes them when there are none to keep.
 */
export function writeOutDelta(outDir: string, from: string | null, to: string, changes: OutDelta['files'] | null, total: number): void {
  const file = deltaFileFor(outDir)
  if (from === null || changes === null) return fs.rmSync(file, { force: true })
  const step: OutDelta = { from, to, files: changes }
  const previous = readSteps(outDir)
  const steps = previous.length > 0 && previous[previous.length - 1].to === from ? [...previous, step] : [step]
  let named = steps.reduce((sum, each) => sum + Object.keys(each.files).length, 0)
  while (isLargeChange(named, total) && steps.length > 1) named -= Object.keys(steps.shift()!.files).length
  writeAtomically(file, JSON.stringify({ version: 2, steps } satisfies DeltaFile))
}
