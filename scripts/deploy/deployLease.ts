/**
 * One deploy or withdraw writes a bucket at a time. Two at once each planned from what the bucket
 * held before the other wrote: a page the first uploaded, which the second's build no longer has,
 * stayed in the bucket, and the second's record said the bucket held exactly its build.
 *
 * A run takes `_deploy/lease` before it reads what it plans from, with S3's conditional write
 * (`If-None-Match: *`: of two runs, one gets it), and deletes it when it ends, an error or a stop
 * by SIGINT or SIGTERM included. A lease left by a run that was killed outright is taken over when
 * it names a process of this machine (and process namespace) that no longer runs, or is older than
 * LEASE_HOURS, by a write conditional on that lease's ETag (of two runs taking it over, one gets
 * it); any other is refused, naming the run that holds it. An S3 API that ignores the conditions
 * cannot keep two runs apart; the lease is read back after it is taken, which narrows that, no more.
 */
import crypto from 'node:crypto'
import fs from 'node:fs'
import os from 'node:os'
import { DEPLOY_RECORD_PREFIX } from '../../infra/lib/stack-outputs'
import { isRunning } from '../../pipeline/mainProcess'
import { DeployManifestError } from './deployManifest'
import type { SiteBucket } from './s3Bucket'

export const LEASE_KEY = `${DEPLOY_RECORD_PREFIX}lease`
/** Longer than any deploy: a lease this old is a stopped run's. */
export const LEASE_HOURS = 6

interface Lease {
  host: string
  /** The process namespace: containers that share a host name do not see each other's processes. */
  namespace: string | null
  pid: number
  since: string
  token: string
}

export class DeployLeaseError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'DeployLeaseError'
  }
}

function processNamespace(): string | null {
  try {
    return fs.readlinkSync('/proc/self/ns/pid')
  } catch {
    return null
  }
}

function parseLease(text: string | undefined): Lease | null {
  try {
    const lease = JSON.parse(text ?? 'null') as Partial<Lease> | null
    return lease && typeof lease.host === 'string' && typeof lease.pid === 'number' && typeof lease.since === 'string' && typeof lease.token === 'string' ? (lease as Lease) : null
  } catch {
    return null
  }
}

/** Whether the run that left `lease` is known to have ended: a process of this machine and namespace that no longer runs, or a lease older than LEASE_HOURS (an unreadable one too). */
function stopped(lease: Lease | null, now: Date): boolean {
  if (lease === null) return true
  if (lease.host === os.hostname() && (lease.namespace ?? null) === processNamespace() && !isRunning(lease.pid)) return true
  const since = Date.parse(lease.since)
  // Dated as far ahead as a stopped run's is behind: a clock no run keeps, which would hold the lease for ever.
  return !Number.isFinite(since) || Math.abs(now.getTime() - since) > LEASE_HOURS * 3_600_000
}

/** The bucket's lease record; a damaged one (not as a deploy wrote it) is named, with what to do. */
async function readLease(bucket: SiteBucket, what: string): Promise<{ text: string; etag: string } | null> {
  try {
    return await bucket.readTaggedRecord(LEASE_KEY)
  } catch (error) {
    if (!(error instanceof DeployManifestError)) throw error
    throw new DeployLeaseError(`${what}: s3://${bucket.name}/${LEASE_KEY} is damaged (not as a deploy wrote it); if no deploy or withdraw is writing the bucket, delete it and run this again`)
  }
}

const heldBy = (lease: Lease) => `process ${lease.pid} on ${lease.host}, since ${lease.since}`

/**
 * Takes the bucket's lease as `lease`, or throws DeployLeaseError naming the run that holds it. A
 * conditional write refused may be this run's own: the SDK sends a write again when its answer was
 * lost, and the write it lost had taken effect. The lease then holds this run's token.
 */
async function take(bucket: SiteBucket, what: string, lease: Lease, now: Date): Promise<void> {
  const text = JSON.stringify(lease)
  const ours = (held: { text: string } | null) => parseLease(held?.text)?.token === lease.token
  if (!(await bucket.createRecord(LEASE_KEY, text))) {
    const held = await readLease(bucket, what)
    const holder = parseLease(held?.text)
    if (!ours(held) && held !== null && !stopped(holder, now)) {
      throw new DeployLeaseError(
        `${what}: another deploy or withdraw is writing s3://${bucket.name} (${heldBy(holder!)}); run this once it has ended. If that run was stopped, delete s3://${bucket.name}/${LEASE_KEY} and run this again.`
      )
    }
    // A stopped run's: replaced only as it was read (or created, if it went meanwhile).
    if (!ours(held) && !(await bucket.createRecord(LEASE_KEY, text, held?.etag)) && !ours(await readLease(bucket, what))) {
      throw new DeployLeaseError(`${what}: another deploy or withdraw took over s3://${bucket.name}/${LEASE_KEY} as this one did; run this once it has ended`)
    }
  }
  let readBack: Lease | null
  try {
    readBack = parseLease((await readLease(bucket, what))?.text)
  } catch (error) {
    // Written but not read back: let it go if it is ours, or another runner is refused for LEASE_HOURS.
    await release(bucket, lease.token).catch(() => {})
    throw error
  }
  if (readBack?.token !== lease.token) throw new DeployLeaseError(`${what}: another deploy or withdraw took s3://${bucket.name}/${LEASE_KEY} as this one did (the S3 API may not honour conditional writes); run this once it has ended`)
}

/** Lets the lease go if it is still `token`'s: one that took over a lease it thought stopped keeps its own. */
async function release(bucket: SiteBucket, token: string): Promise<void> {
  // Damaged since it was taken: not this run's to delete, and no error of the run's to hide.
  const held = await bucket.readTaggedRecord(LEASE_KEY).catch((error) => (error instanceof DeployManifestError ? null : Promise.reject(error)))
  if (parseLease(held?.text)?.token === token) await bucket.deleteKeys([LEASE_KEY])
}

/**
 * Runs `run` holding the bucket's lease (see the top of this file); `what` names the run in
 * messages. `stopOnSignals`: a SIGINT or SIGTERM meanwhile lets the lease go and ends the process
 * (a command's run; a test's process is not one to end).
 */
export async function withDeployLease<T>(bucket: SiteBucket, what: string, run: () => Promise<T>, options: { now?: Date; stopOnSignals?: boolean } = {}): Promise<T> {
  const now = options.now ?? new Date()
  const lease: Lease = { host: os.hostname(), namespace: processNamespace(), pid: process.pid, since: now.toISOString(), token: crypto.randomBytes(8).toString('hex') }
  await take(bucket, what, lease, now)
  const onSignal = (signal: NodeJS.Signals) => {
    void release(bucket, lease.token).finally(() => process.exit(128 + os.constants.signals[signal]))
  }
  const signals: NodeJS.Signals[] = options.stopOnSignals ? ['SIGINT', 'SIGTERM'] : []
  for (const signal of signals) process.once(signal, onSignal)
  let failed = false
  try {
    return await run()
  } catch (error) {
    failed = true
    throw error
  } finally {
    for (const signal of signals) process.off(signal, onSignal)
    await release(bucket, lease.token).catch((error: unknown) => {
      // After the run's own failure, that is the error to name; the lease left is said beside it.
      if (!failed) throw error
      console.error(`${what}: s3://${bucket.name}/${LEASE_KEY} was not let go (${error instanceof Error ? error.message : String(error)}); a run on this machine takes it over once this process has ended; elsewhere, delete it once no run is writing the bucket`)
    })
  }
}
