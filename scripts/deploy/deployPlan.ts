/**
 * What a deploy does, decided before it does anything: from the files of out/ and what the bucket
 * holds, which files to upload (in phases, scripts/deploy/uploadOrder.ts), which objects to delete
 * once the pages are replaced, which to keep for open tabs, and the manifest to write last.
 * Pure: no I/O, the clock is an argument.
 *
 * A file is uploaded when its bytes (sha256), Content-Type or Cache-Control differ from what the
 * last finished deploy recorded, or when the bucket no longer has it. Times and sizes are never
 * compared with the record: a fresh clone's build gives every file a new time, and an edit can
 * keep a size (the build's record of out/, pipeline/steps/outRecord.ts, only spares reading a file its hash is known for).
 */
import { CACHE_CONTROL, cacheControlForObject } from '../../edge/cacheHeaders'
import { DEPLOY_RECORD_PREFIX } from '../../infra/lib/stack-outputs'
import { EMPTY_MANIFEST, sameManifest, sameRecord, type DeployManifest, type ObjectRecord } from './deployManifest'
import { keptForOpenTabs, PHASE_NAMES, phaseOf, type PhaseName } from './uploadOrder'

/** A file of out/: its object key (no leading slash), where it is on disk, its size, and what it is uploaded as. */
export interface LocalFile extends ObjectRecord {
  key: string
  file: string
  bytes: number
}

export interface RemoteState {
  /** The last finished deploy's manifest; null when there is none (a new bucket, or one filled by another tool). */
  manifest: DeployManifest | null
  /** Every key the bucket holds now (the deploy's record's own are ignored). */
  keys: ReadonlySet<string>
}

export interface DeployPlan {
  /** The files to upload, phase by phase; each phase starts once the one before it is done. Only phases with files. */
  phases: Array<{ name: PhaseName; files: LocalFile[] }>
  /** Removed from out/ and deleted once every upload is done. */
  deleteNow: string[]
  /** Removed from out/ and kept, for open tabs, until the grace window has passed. */
  keptForGrace: string[]
  /** How many files of out/ the bucket already holds as they are. */
  unchanged: number
  /** The manifest to write after everything else. */
  manifest: DeployManifest
  /** Whether the manifest must be written (it differs from the bucket's). */
  manifestChanged: boolean
  /** Keys whose served bytes change (overwritten or deleted), for the CDN's invalidation. */
  changedKeys: string[]
}

export function planDeploy(local: readonly LocalFile[], remote: RemoteState, now: Date, graceMs: number): DeployPlan {
  const previous = remote.manifest ?? EMPTY_MANIFEST
  const byPhase = new Map<PhaseName, LocalFile[]>(PHASE_NAMES.map((name) => [name, []]))
  const files: DeployManifest['files'] = {}
  const changedKeys: string[] = []
  let unchanged = 0
  for (const file of [...local].sort((a, b) => (a.key < b.key ? -1 : 1))) {
    const record = { sha256: file.sha256, contentType: file.contentType, cacheControl: file.cacheControl }
    files[file.key] = record
    if (remote.keys.has(file.key) && sameRecord(previous.files[file.key], record)) {
      unchanged++
      continue
    }
    byPhase.get(phaseOf(file.key, remote.keys.has(file.key)))!.push(file)
    if (remote.keys.has(file.key)) changedKeys.push(file.key)
  }

  const deleteNow: string[] = []
  const keptForGrace: string[] = []
  const retired: DeployManifest['retired'] = {}
  for (const key of [...remote.keys].sort()) {
    if (key.startsWith(DEPLOY_RECORD_PREFIX) || key in files) continue
    const since = previous.retired[key] ?? now.toISOString()
    if (keptForOpenTabs(key) && now.getTime() - Date.parse(since) < graceMs) {
      keptForGrace.push(key)
      retired[key] = since
    } else {
      deleteNow.push(key)
      changedKeys.push(key)
    }
  }

  const manifest: DeployManifest = { version: 1, through: previous.through, files, retired }
  return {
    phases: PHASE_NAMES.map((name) => ({ name, files: byPhase.get(name)! })).filter((phase) => phase.files.length > 0),
    deleteNow,
    keptForGrace,
    unchanged,
    manifest,
    manifestChanged: remote.manifest === null || !sameManifest(manifest, remote.manifest),
    // An immutable (content-hashed) file never changes its bytes under one name, so the CDN cannot hold a stale copy of it.
    changedKeys: changedKeys.filter((key) => cacheControlForObject(`/${key}`) !== CACHE_CONTROL.hashedAsset),
  }
}
