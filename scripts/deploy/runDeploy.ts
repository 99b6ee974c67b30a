/**
 * One deploy of out/ to the site's bucket. When the bucket's seal names the build's record of out/
 * (deploySeal.ts), there is nothing to do, and nothing else is read. Otherwise: take out/'s files and hashes from the build's record
 * (localFiles.ts; out/ is hashed only without one), read the bucket's keys and record, plan (deployPlan.ts),
 * upload phase by phase, delete what the pages no longer name, write the record
 * (deployRecord.ts), invalidate the changed paths, and those an earlier run left owed (owedInvalidation.ts). The record goes last, so a run cut short at any point leaves a
 * site whose every page names files that are there, and the next run finishes the job.
 */
import crypto from 'node:crypto'
import type { Invalidate } from './cloudFrontInvalidation'
import { planDeploy, type DeployPlan } from './deployPlan'
import { DEPLOY_RECORD_PREFIX } from '../../infra/lib/stack-outputs'
import { readRecord, writeRecord, type DeployRecord, type RecordState } from './deployRecord'
import { planDelta } from './deltaPlan'
import { breakSeal, readSeal, sameSeal, sealHolds, sealOf, trustedSeal, writeSeal } from './deploySeal'
import { inParallel } from './inParallel'
import { withDeployLease } from './deployLease'
import { invalidationPaths } from './invalidationPaths'
import { localFiles } from './localFiles'
import { alteredKeys, withoutRecords } from './alteredObjects'
import { invalidateOwing, owe, paid, readOwed, withOwed } from './owedInvalidation'
import { readOutRecordHeader } from '../../pipeline/steps/outRecord'
import type { DeployProgress } from './progress'
import { checkUpload, readRulesRecord, uploadRecord, writeRulesRecord, type RulesRecord } from './rulesRecord'
import type { ListedObject, SiteBucket } from './s3Bucket'

export interface DeployOptions {
  outDir: string
  bucket: SiteBucket
  /** Left out: nothing is invalidated. */
  invalidate?: Invalidate
  /** How long a removed build file is kept for open tabs. */
  graceMs: number
  /** Uploads (and file hashes) at a time. */
  concurrency?: number
  now?: () => Date
  progress?: DeployProgress
  /**
   * The rules fingerprint out/ was built with (edge/rulesFingerprint.ts). Given, the upload is
   * refused when the bucket's files are of other rules and were not withdrawn for these
   * (./rulesRecord.ts); `npm run deploy` always gives it.
   */
  rules?: string
  /** Lists the whole bucket instead of trusting its record (and seal) for what it holds. */
  fullListing?: boolean
  /** Refuse out/ without the build's whole record of it (`npm run deploy`), rather than hash what it holds (./localFiles.ts). */
  wholeRecord?: boolean
  /** A command's run: a SIGINT or SIGTERM lets the bucket's lease go and ends the process (./deployLease.ts). */
  stopOnSignals?: boolean
}

export interface DeployResult {
  /** The build whose record named out/'s files; null when out/ was hashed for want of one. */
  fromBuild: string | null
  /** Null when the bucket's seal showed there was nothing to do, and so nothing was planned. */
  plan: DeployPlan | null
  uploaded: number
  uploadedBytes: number
  deleted: number
  invalidatedPaths: string[]
  invalidationId: string | null
}

export const DEFAULT_CONCURRENCY = 16

/**
 * What the bucket holds, from its record: the last finished deploy's manifest names every file it
 * left, so the bucket itself is listed only under `_deploy/` (its few record keys), however large
 * the site. The whole bucket is listed when there is no manifest, after an upload cut short (its
 * objects may differ from the record), or when asked (`--list`: after someone changed the bucket
 * by hand).
 */
async function bucketState(bucket: SiteBucket, rulesRecord: RulesRecord | null, fullListing: boolean): Promise<{ record: DeployRecord; keys: ReadonlySet<string>; listed?: ReadonlyMap<string, ListedObject> }> {
  const recordKeys = await bucket.listKeys(DEPLOY_RECORD_PREFIX)
  const record = await readRecord(bucket, recordKeys)
  const manifest = record.manifest
  if (fullListing) {
    const listed = await bucket.listObjects()
    return { record, keys: new Set(listed.keys()), listed }
  }
  if (manifest === null || rulesRecord?.uploading) return { record, keys: await bucket.listKeys() }
  return { record, keys: new Set([...recordKeys, ...Object.keys(manifest.files), ...Object.keys(manifest.retired)]) }
}

/** What a deploy will do, and how it records it once done. */
interface Planned {
  fromBuild: string | null
  /** The digest of the build's record of out/ the plan deploys; null when out/ was hashed for want of one. */
  recordDigest: string | null
  plan: DeployPlan
  /** Where the bucket's record stands before this deploy writes it. */
  state: RecordState
  /** Writes the deploy's record once the bucket holds the plan's files; returns where it stands then. */
  writeRecord: () => Promise<RecordState>
  /** `--list`: objects changed by hand, uploaded again; invalidated even when content-hashed, whose name no longer says their bytes. */
  altered?: readonly string[]
}

/** The plan from the build's record of out/ and the bucket's record, every file compared. */
async function planAll(options: DeployOptions, rulesRecord: RulesRecord | null, now: Date, concurrency: number): Promise<Planned> {
  const [local, { record, keys, listed }] = await Promise.all([localFiles(options.outDir, concurrency, options.wholeRecord ?? false), bucketState(options.bucket, rulesRecord, options.fullListing ?? false)])
  // Checked before anything is written (./rulesRecord.ts).
  if (options.rules !== undefined) checkUpload(rulesRecord, options.rules, keys, options.bucket.name)
  // After an upload cut short, objects may hold other bytes than the record says: every file goes up again.
  const recorded = rulesRecord?.uploading ? null : record.manifest
  options.progress?.localFiles(local.fromBuild, local.files.length)
  // Asked to list, the objects changed by hand go up again too (./alteredObjects.ts).
  const altered = listed && recorded ? await alteredKeys(local.files, recorded, listed, concurrency, options.bucket.headersOf) : []
  if (listed) options.progress?.altered(altered)
  const manifest = recorded && withoutRecords(recorded, altered)
  const plan = planDeploy(local.files, { manifest, keys }, now, options.graceMs)
  const state = { sequence: record.sequence, changes: record.changeKeys.length, changedFiles: record.changedFiles, files: Object.keys(plan.manifest.files).length }
  return { fromBuild: local.fromBuild, recordDigest: local.recordDigest, plan, state, altered, writeRecord: async () => (plan.manifestChanged ? writeRecord(options.bucket, record, plan.manifest) : state) }
}

/** Invalidates `paths` (none: nothing), then records that nothing is owed; the invalidation's id. */
async function invalidateOwed(options: DeployOptions, paths: readonly string[]): Promise<string | null> {
  if (paths.length === 0) return null
  const id = await invalidateOwing(options.invalidate!, options.bucket, paths, 'npm run deploy')
  await paid(options.bucket)
  return id
}

/** What the deploy plans from: out/'s record, and the bucket's seal, rules record and owed invalidation. */
async function readDeployState(options: DeployOptions, now: Date) {
  const header = readOutRecordHeader(options.outDir)
  const [seal, rulesRecord, owed] = await Promise.all([readSeal(options.bucket), readRulesRecord(options.bucket), options.invalidate ? readOwed(options.bucket) : []])
  const check = { seal, outRecord: header?.digest ?? null, rulesRecord, rules: options.rules, now, graceMs: options.graceMs }
  const trusted = options.fullListing ? null : trustedSeal(check)
  return { header, seal, rulesRecord, owed, check, trusted, sealed: trusted !== null && sealHolds(check) }
}
type DeployState = Awaited<ReturnType<typeof readDeployState>>

export async function runDeploy(options: DeployOptions): Promise<DeployResult> {
  const now = (options.now ?? (() => new Date()))()
  const state = await readDeployState(options, now)
  // Nothing to write: no lease (./deployLease.ts). Anything else is planned again under it, from what the bucket holds then.
  if (state.sealed && state.owed.length === 0) return deployFrom(options, state, now)
  // Refused as it will be under the lease, before anything is written (a bucket with no rules record is checked on its listing there).
  if (options.rules !== undefined && state.rulesRecord !== null) checkUpload(state.rulesRecord, options.rules, new Set(), options.bucket.name)
  return withDeployLease(options.bucket, 'deploy', async () => deployFrom(options, await readDeployState(options, now), now), { stopOnSignals: options.stopOnSignals })
}

async function deployFrom(options: DeployOptions, { header, seal, rulesRecord, owed, trusted, sealed }: DeployState, now: Date): Promise<DeployResult> {
  const concurrency = options.concurrency ?? DEFAULT_CONCURRENCY
  if (sealed) {
    options.progress?.sealed(header!.buildId)
    const invalidationId = await invalidateOwed(options, owed)
    if (invalidationId) options.progress?.finished({ deleted: 0, recordWritten: false, invalidation: `invalidation ${invalidationId} of ${owed.length} paths` })
    return { fromBuild: header!.buildId, plan: null, uploaded: 0, uploadedBytes: 0, deleted: 0, invalidatedPaths: owed, invalidationId }
  }
  const planned: Planned = (trusted && header && planDelta(options, trusted, header, now)) || (await planAll(options, rulesRecord, now, concurrency))
  const { plan } = planned
  // While the bucket is written, the rules record says so, until the deploy's record is written.
  const writes = plan.phases.length > 0 || plan.deleteNow.length > 0 || plan.manifestChanged
  // Owed before the first write: a run that stops before CloudFront takes them leaves them to the next (./owedInvalidation.ts).
  const staleKeys = [...new Set([...plan.changedKeys, ...(planned.altered ?? [])])]
  const changedPaths = options.invalidate && staleKeys.length > 0 ? invalidationPaths(staleKeys) : []
  const invalidatedPaths = withOwed(owed, changedPaths)
  if (changedPaths.length > 0) await owe(options.bucket, invalidatedPaths)
  if (writes && seal !== null) await breakSeal(options.bucket)
  if (options.rules !== undefined && writes) await writeRulesRecord(options.bucket, uploadRecord(options.rules, true))
  options.progress?.planned(plan)

  let uploaded = 0
  let uploadedBytes = 0
  for (const phase of plan.phases) {
    await inParallel(phase.files, concurrency, async (file) => {
      await options.bucket.upload(file)
      uploaded++
      uploadedBytes += file.bytes
      options.progress?.uploaded(file.bytes)
    })
    options.progress?.phaseDone(phase.name)
  }
  await options.bucket.deleteKeys(plan.deleteNow)
  const state = writes ? await planned.writeRecord() : planned.state
  // The rules record as an upload leaves it, naming the deploy its seal names (the seal is trusted only beside it): kept
  // when it is so already; else (a deploy that wrote, a record that is none, a withdraw's, one naming no deploy) written anew.
  const kept = !writes && rulesRecord !== null && rulesRecord.withdrawnFor === null && !rulesRecord.uploading ? (rulesRecord.deploy ?? null) : null
  const deploy = kept ?? crypto.randomBytes(8).toString('hex')
  if (options.rules !== undefined && kept === null) await writeRulesRecord(options.bucket, uploadRecord(options.rules, false, deploy))
  const nextSeal = planned.recordDigest === null ? null : sealOf(deploy, planned.recordDigest, plan.manifest, state)
  if (nextSeal && (writes || !sameSeal(seal, nextSeal))) await writeSeal(options.bucket, nextSeal)

  const invalidationId = await invalidateOwed(options, invalidatedPaths)
  options.progress?.finished({
    deleted: plan.deleteNow.length,
    recordWritten: writes,
    invalidation: invalidationId ? `invalidation ${invalidationId} of ${invalidatedPaths.length} paths` : null,
  })
  return { fromBuild: planned.fromBuild, plan, uploaded, uploadedBytes, deleted: plan.deleteNow.length, invalidatedPaths, invalidationId }
}
