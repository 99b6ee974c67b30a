/**
 * The deploy's record in the bucket, read and written so that a small edit writes a small record.
 * The manifest (deployManifest.ts) names every file with its sha256: mostly digests that do not
 * compress, so it grows with the site (its size at 10,000 pages: docs/benchmarks.md, figures behind choices in the code). Rewritten by every deploy, it would be most of what
 * a one-page edit writes. So a deploy writes only a change record (`_deploy/change-<n>`: the
 * files it added, changed or removed, and the whole list of files kept for open tabs), and every
 * MAX_CHANGES deploys folds them into a new manifest, which names the last change it holds. It
 * folds sooner once the change records name more than a quarter as many files as the manifest, and over a thousand (a
 * change of build code rewrites most of the site): every deploy reads them all, and one that
 * writes that much can write the manifest too.
 *
 * A change record is written last, like the manifest: a run cut short leaves the record as the
 * last finished deploy left it. Change records already in the manifest (left when a run stopped
 * between writing it and deleting them) are ignored, and deleted at the next fold.
 */
import { isLargeChange } from '../../pipeline/steps/outDelta'
import { CHANGE_KEY, changeKey, DeployManifestError, MANIFEST_KEY, START_RECORD_AFRESH, parseChange, parseManifest, sameRecord, serialiseManifest, type DeployManifest, type ManifestChange } from './deployManifest'
import type { SiteBucket } from './s3Bucket'

/** Change records at most, before a deploy folds them into the manifest. */
export const MAX_CHANGES = 32

export { changeKey }

export interface DeployRecord {
  /** What the last finished deploy left: the manifest with its changes applied; null for a bucket no deploy has finished in. */
  manifest: DeployManifest | null
  /** The last change applied (the manifest's own `through` when there is none after it). */
  sequence: number
  /** The change records the bucket holds, applied or stale. */
  changeKeys: string[]
  /** How many files the applied change records name, all told. */
  changedFiles: number
}

/** The record from the bucket's manifest and its change records (named in `keys`, the bucket's listing). */
export async function readRecord(bucket: SiteBucket, keys: ReadonlySet<string>): Promise<DeployRecord> {
  const changeKeys = [...keys].filter((key) => CHANGE_KEY.test(key)).sort()
  // The change records are fetched beside the manifest: which of them it holds is known once it is read.
  const [text, ...changeTexts] = await Promise.all([bucket.readRecord(MANIFEST_KEY), ...changeKeys.map((key) => bucket.readRecord(key))])
  const manifest = text === null ? null : parseManifest(text, `s3://${bucket.name}/${MANIFEST_KEY}`)
  let sequence = manifest?.through ?? 0
  let changedFiles = 0
  changeKeys.forEach((key, i) => {
    const number = Number(CHANGE_KEY.exec(key)![1])
    if (number <= sequence) return
    if (manifest === null || number !== sequence + 1) throw new DeployManifestError(`s3://${bucket.name}/${key} follows no record of change ${number - 1}; ${START_RECORD_AFRESH}`)
    const changeText = changeTexts[i]
    if (changeText === null) throw new DeployManifestError(`s3://${bucket.name}/${key} was listed but cannot be read`)
    changedFiles += applyChange(manifest, parseChange(changeText, `s3://${bucket.name}/${key}`))
    sequence = number
  })
  return { manifest, sequence, changeKeys, changedFiles }
}

/** Applies a change to the manifest just parsed, in place (a copy per change record would copy every file's record each time); returns how many files it names. */
function applyChange(manifest: DeployManifest, change: ManifestChange): number {
  let files = 0
  for (const key in change.files) {
    const record = change.files[key]
    if (record === null) delete manifest.files[key]
    else manifest.files[key] = record
    files++
  }
  manifest.retired = change.retired
  return files
}

/** Where the bucket's record stands: the last change, the change records after the manifest and the files they name, and the files of the site. */
export interface RecordState {
  sequence: number
  changes: number
  changedFiles: number
  files: number
}

/** Whether a deploy that changes `changed` files may write a change record, or must fold them all into a new manifest (see the top of this file). */
export function mayAddChange(state: RecordState, changed: number): boolean {
  return state.changes < MAX_CHANGES && !isLargeChange(state.changedFiles + changed, state.files)
}

/** Writes one deploy's change record after the `previous` state, and returns the state it leaves. */
export async function writeChange(bucket: SiteBucket, previous: RecordState, change: Omit<ManifestChange, 'version'>, files: number): Promise<RecordState> {
  await bucket.writeRecord(changeKey(previous.sequence + 1), JSON.stringify({ version: 1, files: change.files, retired: change.retired } satisfies ManifestChange))
  const changed = Object.keys(change.files).length
  return { sequence: previous.sequence + 1, changes: previous.changes + 1, changedFiles: previous.changedFiles + changed, files }
}

/** Writes what a finished deploy leaves: a change record, or when there are many (see the top of this file), and the first time, the whole manifest, then drops the change records it holds. */
export async function writeRecord(bucket: SiteBucket, previous: DeployRecord, next: DeployManifest): Promise<RecordState> {
  const sequence = previous.sequence + 1
  const total = Object.keys(next.files).length
  if (previous.manifest !== null) {
    const files: ManifestChange['files'] = {}
    let changed = 0
    for (const key in next.files) {
      if (sameRecord(previous.manifest.files[key], next.files[key])) continue
      files[key] = next.files[key]
      changed++
    }
    for (const key in previous.manifest.files) {
      if (key in next.files) continue
      files[key] = null
      changed++
    }
    const state = { sequence: previous.sequence, changes: previous.changeKeys.length, changedFiles: previous.changedFiles, files: total }
    if (mayAddChange(state, changed)) return writeChange(bucket, state, { files, retired: next.retired }, total)
  }
  await bucket.writeRecord(MANIFEST_KEY, serialiseManifest({ ...next, through: sequence }))
  await bucket.deleteKeys(previous.changeKeys)
  return { sequence, changes: 0, changedFiles: 0, files: total }
}
