/**
 * `npm run deploy -- --withdraw`: the first of the deploys of a change of rules, run before
 * `cdk deploy` ships the edge with the new rules (docs/deploy.md, "Two deploys, in this order").
 *
 * It deletes from the bucket every file that the new out/ changes or no longer has, except the
 * content-hashed build code (./uploadOrder.ts isBuildCode), which holds no page's text. What stays
 * is byte for byte a file of the old build and of the new: each build gives a reader only what its
 * own rules allow, so such a file is safe in front of either edge, and so is the bucket while
 * CloudFront moves from one edge to the other. CloudFront's copies of the deleted paths are
 * invalidated, and the withdraw waits until that is done: a copy left in the cache would be
 * served by the new edge under the new rules. Last it records the rules it withdrew for, which
 * lets the upload of those rules go ahead (./rulesRecord.ts).
 *
 * The deleted pages are missing until the upload: readers get 404s, never another rule's text.
 * When the bucket's files are of the new build's rules already, it does nothing: an upload under
 * the same rules needs no withdraw, so a pipeline may run it before every deploy.
 */
import { DEPLOY_RECORD_PREFIX } from '../../infra/lib/stack-outputs'
import { withoutRecords } from './alteredObjects'
import type { Invalidate } from './cloudFrontInvalidation'
import { EMPTY_MANIFEST, sameRecord, type DeployManifest } from './deployManifest'
import type { LocalFile } from './deployPlan'
import { withDeployLease } from './deployLease'
import { readRecord, writeRecord } from './deployRecord'
import { breakSeal } from './deploySeal'
import { invalidationPaths } from './invalidationPaths'
import { localFiles } from './localFiles'
import { invalidateOwing, owe, paid, readOwed, withOwed } from './owedInvalidation'
import { assertOwnBucket, needsWithdraw, readRulesRecord, writeRulesRecord } from './rulesRecord'
import type { SiteBucket } from './s3Bucket'
import { isBuildCode } from './uploadOrder'

/**
 * The keys to delete: every object of the site but build code whose key out/ does not have, or
 * has with other bytes or headers than the bucket's record says it holds (unrecorded: deleted).
 */
export function planWithdraw(local: readonly LocalFile[], keys: ReadonlySet<string>, manifest: DeployManifest | null): string[] {
  const files = new Map(local.map((file) => [file.key, file]))
  const recorded = (manifest ?? EMPTY_MANIFEST).files
  return [...keys]
    .filter((key) => !key.startsWith(DEPLOY_RECORD_PREFIX) && !isBuildCode(key))
    .filter((key) => {
      const file = files.get(key)
      return file === undefined || !sameRecord(recorded[key], file)
    })
    .sort()
}

export interface WithdrawOptions {
  outDir: string
  bucket: SiteBucket
  /** The new build's rules fingerprint (edge/rulesFingerprint.ts). */
  rules: string
  /** Left out: nothing is invalidated (no CDN in front of the bucket). */
  invalidate?: Invalidate
  /** Resolves once the invalidation of that id is done; required with `invalidate`. */
  awaitInvalidation?: (id: string) => Promise<void>
  concurrency?: number
  log?: (line: string) => void
  /** A command's run: a SIGINT or SIGTERM lets the bucket's lease go and ends the process (./deployLease.ts). */
  stopOnSignals?: boolean
}

export class WithdrawError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'WithdrawError'
  }
}

/** Invalidates `paths` (none: nothing) and waits until CloudFront is done, then records that nothing is owed. */
async function invalidateAndWait(options: WithdrawOptions, paths: readonly string[], log: (line: string) => void): Promise<string | null> {
  if (paths.length === 0) return null
  const id = await invalidateOwing(options.invalidate!, options.bucket, paths, 'npm run deploy -- --withdraw')
  log(`deploy --withdraw: waiting for invalidation ${id} of ${paths.length} paths`)
  await options.awaitInvalidation!(id)
  await paid(options.bucket)
  return id
}

export async function runWithdraw(options: WithdrawOptions): Promise<{ deleted: string[]; invalidationId: string | null }> {
  if (options.invalidate && !options.awaitInvalidation) throw new WithdrawError('a withdraw that invalidates must wait for the invalidation: the CDN would otherwise serve its copies under the new edge')
  // Nothing to withdraw and nothing owed: said without taking the lease, as a pipeline may run this before every deploy.
  const [previous, owed] = await Promise.all([readRulesRecord(options.bucket), options.invalidate ? readOwed(options.bucket) : []])
  if (!needsWithdraw(previous, options.rules) && owed.length === 0) {
    options.log?.('deploy --withdraw: the bucket holds files of these rules already; nothing to withdraw')
    return { deleted: [], invalidationId: null }
  }
  return withDeployLease(options.bucket, 'deploy --withdraw', () => withdraw(options), { stopOnSignals: options.stopOnSignals })
}

async function withdraw(options: WithdrawOptions): Promise<{ deleted: string[]; invalidationId: string | null }> {
  const log = options.log ?? (() => {})
  const [previous, owed] = await Promise.all([readRulesRecord(options.bucket), options.invalidate ? readOwed(options.bucket) : []])
  if (!needsWithdraw(previous, options.rules)) {
    log('deploy --withdraw: the bucket holds files of these rules already; nothing to withdraw')
    return { deleted: [], invalidationId: await invalidateAndWait(options, owed, log) }
  }
  const [local, keys] = await Promise.all([localFiles(options.outDir, options.concurrency ?? 16), options.bucket.listKeys()])
  if (previous === null) assertOwnBucket(keys, options.bucket.name)
  // After an upload cut short, objects may differ from the record: none is then taken to be the same.
  const record = await readRecord(options.bucket, keys)
  const deleted = planWithdraw(local.files, keys, previous?.uploading ? null : record.manifest)
  // Owed before the first delete: a run that stops before CloudFront is done leaves them to the next, which
  // invalidates them before it records the withdraw (./owedInvalidation.ts); the keys are gone by then.
  const paths = options.invalidate ? withOwed(owed, deleted.length > 0 ? invalidationPaths(deleted) : []) : []
  if (deleted.length > 0 && paths.length > 0) await owe(options.bucket, paths)
  await breakSeal(options.bucket)
  // The bucket's record stops naming the files before they go: the next deploy, which trusts it for
  // what the bucket holds, uploads them again (after a rule change given up, or a run stopped here).
  if (deleted.length > 0 && record.manifest !== null) await writeRecord(options.bucket, record, withoutRecords(record.manifest, deleted))
  log(`deploy --withdraw: deleting ${deleted.length} files that this build changes or no longer has, keeping the files it holds as they are and the hashed build code`)
  await options.bucket.deleteKeys(deleted)
  const invalidationId = await invalidateAndWait(options, paths, log)
  await writeRulesRecord(options.bucket, { version: 1, rules: previous?.rules ?? null, withdrawnFor: options.rules, uploading: false })
  log(`deploy --withdraw: done. Next: cdk deploy DocsSiteStack, then npm run deploy`)
  return { deleted, invalidationId }
}
