/**
 * What out/ changed since an earlier build's record of it (./outRecord.ts): each file added or
 * rewritten with other bytes, with its sha256 and size, and each file removed. Written by the
 * record step just before the record, from the record set aside and the new one, and carried
 * over builds: while each build starts from the last one's record, the delta still runs from the
 * first. So when the bucket holds the files of that first record (the deploy's seal names it,
 * scripts/deploy/deploySeal.ts), the deploy uploads what the delta names without reading either
 * record whole, or the bucket's.
 *
 * It is dropped when it would name more than a quarter of out/'s files (a change of build code
 * rewrites most of them), or when a build has no record to start from: the deploy then compares
 * every file as before.
 */
import fs from 'node:fs'
import path from 'node:path'
import { writeAtomically } from '../files'
import { CACHE_PATHS } from './paths'

/** What the delta needs of a record's entry (./outRecord.ts). */
type RecordEntry = { sha256: string; size: number }

export interface DeltaEntry {
  sha256: string
  size: number
  /** Not in the record the delta runs from. */
  added: boolean
}

export interface OutDelta {
  version: 1
  /** The digest of the record it runs from, and of the one it runs to. */
  from: string
  to: string
  /** By object key: a file added or rewritten since `from`, or null for one removed. */
  files: Record<string, DeltaEntry | null>
}

/** At most this share of out/'s files (and at least this many) before the delta is dropped. */
const MAX_SHARE = 0.25
const MIN_FILES = 1000

const deltaFileFor = (outDir: string) => path.join(path.dirname(path.resolve(outDir)), CACHE_PATHS.outDelta)
const DIGEST = /^[0-9a-f]{64}$/

/** The delta beside `outDir`; null when there is none or it is not one. */
export function readOutDelta(outDir: string): OutDelta | null {
  try {
    const delta = JSON.parse(fs.readFileSync(deltaFileFor(outDir), 'utf8')) as OutDelta
    if (delta.version !== 1 || !DIGEST.test(delta.from) || !DIGEST.test(delta.to) || typeof delta.files !== 'object' || delta.files === null) return null
    for (const key in delta.files) {
      const entry = delta.files[key]
      if (entry !== null && (typeof entry !== 'object' || !DIGEST.test(entry.sha256) || !Number.isInteger(entry.size) || typeof entry.added !== 'boolean')) return null
    }
    return delta
  } catch {
    return null
  }
}

/**
 * The record step's delta, from the record set aside (`last`, of digest `lastDigest`; null when
 * there was none) to the one being written (`files`, of digest `digest`), carried on from the
 * delta that ran to `lastDigest`. Writes it, or removes it when there is none to keep.
 */
export function writeOutDelta(outDir: string, last: { digest: string; files: Readonly<Record<string, RecordEntry>> } | null, digest: string, files: Readonly<Record<string, RecordEntry>>): void {
  const file = deltaFileFor(outDir)
  const delta = last && nextDelta(readOutDelta(outDir), last, digest, files)
  if (delta) writeAtomically(file, JSON.stringify(delta))
  else fs.rmSync(file, { force: true })
}

function nextDelta(previous: OutDelta | null, last: { digest: string; files: Readonly<Record<string, RecordEntry>> }, digest: string, files: Readonly<Record<string, RecordEntry>>): OutDelta | null {
  const carried = previous?.to === last.digest ? previous : null
  const changes: OutDelta['files'] = carried ? { ...carried.files } : {}
  // Whether the record the delta runs from has the key: what the carried delta says of it, or else whether the last record has it.
  const inFrom = (key: string) => (key in changes ? changes[key] === null || !changes[key]!.added : key in last.files)
  let count = Object.keys(changes).length
  const limit = Math.max(MIN_FILES, MAX_SHARE * Object.keys(files).length)
  for (const key in files) {
    if (last.files[key]?.sha256 === files[key].sha256) continue
    if (!(key in changes)) count++
    changes[key] = { sha256: files[key].sha256, size: files[key].size, added: !inFrom(key) }
    if (count > limit) return null
  }
  for (const key in last.files) {
    if (key in files) continue
    if (!inFrom(key)) {
      delete changes[key]
      count--
      continue
    }
    if (!(key in changes)) count++
    changes[key] = null
  }
  if (count > limit) return null
  return { version: 1, from: carried?.from ?? last.digest, to: digest, files: changes }
}
