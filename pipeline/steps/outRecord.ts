/**
 * The build's record of out/: each file's object key (no leading slash), sha256 and size, named by
 * the build that wrote it and sealed by a digest of its content. The deploy takes its local files
 * from it (scripts/deploy/localFiles.ts) and so neither walks nor stats out/ when there is nothing
 * to upload.
 *
 * Written last by a finished build; set aside when a build starts, so a build stopped half way
 * leaves no record a deploy would trust (the deploy then hashes out/ itself).
 *
 * The build reconciles out/ against the last record as git's index does: a file whose `stat`
 * (size, modification time, device, inode) is the one recorded with its hash keeps that hash
 * unread (kept pages and linked files keep their inode); any other file is hashed. One case would
 * slip through: a file rewritten with the same size within the same tick of the file system's
 * clock as the write that was hashed. So a file's stat is only recorded when it was last written
 * long enough before it was read (the racy-time rule of ../files.ts); a file hashed sooner is hashed again by the
 * next build.
 */
import fs from 'node:fs'
import path from 'node:path'
import { z } from 'zod'
import { listFiles, sameStamp, settledAt, sha256, writeAtomically } from '../files'
import { CACHE_PATHS } from './paths'

const headerSchema = z.object({ version: z.literal(1), out: z.string(), buildId: z.string(), digest: z.string().regex(/^[0-9a-f]{64}$/) })

/** Which folder beside the cache a record describes: a deploy of another one (`--out`) must not take out/'s record. */
const outNameOf = (outDir: string) => path.basename(path.resolve(outDir))

export interface OutRecordEntry {
  sha256: string
  size: number
  /** What `stat` said of the file when it was hashed; absent when that was too soon after its write to be trusted. */
  stat?: { mtimeMs: number; dev: number; ino: number }
}
export interface OutRecord {
  buildId: string
  /** By object key, sorted. */
  files: Record<string, OutRecordEntry>
}

/** The record beside out/, with the build's cache: `<out>/../.cache/out-record.json`. */
export const outRecordFileFor = (outDir: string) => path.join(path.dirname(path.resolve(outDir)), CACHE_PATHS.outRecord)
const previousFileFor = (outDir: string) => path.join(path.dirname(path.resolve(outDir)), CACHE_PATHS.previousOutRecord)

/*
 * Two lines: a header (version, the folder it describes, build, the sha256 of the second line) and the files. The digest
 * proves the files whole as the build wrote them, so they are not checked entry by entry (a no-op
 * deploy's time is mostly reading this record).
 */
function parse(file: string, outDir: string): OutRecord | null {
  try {
    const text = fs.readFileSync(file, 'utf8')
    const newline = text.indexOf('\n')
    const header = headerSchema.parse(JSON.parse(text.slice(0, newline)))
    if (header.out !== outNameOf(outDir)) return null
    const body = text.slice(newline + 1)
    if (sha256(body) !== header.digest) return null
    const files: unknown = JSON.parse(body)
    return files !== null && typeof files === 'object' && !Array.isArray(files) ? { buildId: header.buildId, files: files as OutRecord['files'] } : null
  } catch {
    return null
  }
}

/** The finished build's record of `outDir`; null when there is none or it is not whole (a build stopped half way, or a damaged file). */
export function readOutRecord(outDir: string): OutRecord | null {
  return parse(outRecordFileFor(outDir), outDir)
}

/**
 * At a build's start: the last record is set aside (a build that stops from here on leaves none).
 * After a build stopped half way there is none to set aside, and the one set aside before stays.
 */
export function setOutRecordAside(outDir: string): void {
  const file = outRecordFileFor(outDir)
  if (fs.existsSync(file)) fs.renameSync(file, previousFileFor(outDir))
}

export interface OutRecordSummary {
  files: number
  /** Files hashed because their stat was not the one recorded (written by this build, or racy). */
  hashed: number
  buildId: string
}

/** At a build's end: every file of out/ with its hash, from the record set aside where its stat is unchanged, written whole. */
export function writeOutRecord(outDir: string, buildId: string): OutRecordSummary {
  const last = parse(previousFileFor(outDir), outDir)?.files ?? {}
  const files: OutRecord['files'] = {}
  let hashed = 0
  for (const objectKey of listFiles(outDir)) {
    const key = objectKey.slice(1)
    const file = path.join(outDir, key)
    const stat = fs.statSync(file)
    const known = last[key]
    if (known?.stat && sameStamp({ size: known.size, ...known.stat }, stat)) {
      files[key] = known
      continue
    }
    const readAt = Date.now()
    const bytes = fs.readFileSync(file)
    const entry: OutRecordEntry = { sha256: sha256(bytes), size: bytes.length }
    if (bytes.length === stat.size && settledAt(stat, readAt)) entry.stat = { mtimeMs: stat.mtimeMs, dev: stat.dev, ino: stat.ino }
    files[key] = entry
    hashed++
  }
  const body = JSON.stringify(files)
  writeAtomically(outRecordFileFor(outDir), `${JSON.stringify({ version: 1, out: outNameOf(outDir), buildId, digest: sha256(body) })}\n${body}`)
  fs.rmSync(previousFileFor(outDir), { force: true })
  return { files: Object.keys(files).length, hashed, buildId }
}
