/**
 * A deploy's plan from the build's delta (pipeline/steps/outDelta.ts), when it runs from the record
 * whose files the bucket holds (the seal names it, ./deploySeal.ts): the files the delta names are
 * planned as any deploy plans them (./deployPlan.ts), against the files the seal says the bucket
 * keeps for open tabs; no other file is read, here or in the bucket. The record gets a change
 * record of what the delta names.
 *
 * Null, and the deploy compares every file, when the build's steps do not run from the seal's
 * record to out/'s, or when the change would make the bucket's record fold (./deployRecord.ts).
 */
import { outDeltaSince } from '../../pipeline/steps/outDelta'
import type { OutRecordHeader } from '../../pipeline/steps/outRecord'
import type { DeployManifest, ManifestChange, ObjectRecord } from './deployManifest'
import { planDeploy } from './deployPlan'
import { mayAddChange, writeChange } from './deployRecord'
import type { DeploySeal } from './deploySeal'
import { localFile } from './localFiles'
import type { DeployProgress } from './progress'
import type { SiteBucket } from './s3Bucket'

/** A file the bucket holds with bytes the delta says changed: a record no file matches, so it goes up. */
const REPLACED: ObjectRecord = { sha256: '', contentType: '', cacheControl: '' }

export function planDelta(options: { outDir: string; bucket: SiteBucket; graceMs: number; progress?: DeployProgress }, seal: DeploySeal, header: OutRecordHeader, now: Date) {
  const delta = outDeltaSince(options.outDir, seal.outRecord)
  if (delta === null || delta.to !== header.digest) return null
  const keys = Object.keys(delta.files)
  if (!mayAddChange(seal.record, keys.length)) return null
  const held = keys.filter((key) => delta.files[key] === null || !delta.files[key]!.added)
  const manifest: DeployManifest = { version: 1, through: 0, files: Object.fromEntries(held.map((key) => [key, REPLACED])), retired: seal.retired }
  const local = keys.flatMap((key) => {
    const entry = delta.files[key]
    return entry ? [localFile(options.outDir, key, entry.size, entry.sha256)] : []
  })
  const removed = keys.length - local.length
  options.progress?.fromDelta(header.buildId, local.length, removed)
  const plan = planDeploy(local, { manifest, keys: new Set([...held, ...Object.keys(seal.retired)]) }, now, options.graceMs)
  const files: ManifestChange['files'] = { ...plan.manifest.files }
  for (const key of keys) if (delta.files[key] === null) files[key] = null
  const added = keys.filter((key) => delta.files[key]?.added).length
  return {
    fromBuild: header.buildId,
    recordDigest: header.digest,
    plan,
    state: seal.record,
    writeRecord: () => writeChange(options.bucket, seal.record, { files, retired: plan.manifest.retired }, seal.record.files + added - removed),
  }
}
