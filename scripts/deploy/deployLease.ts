/**
 * One deploy or withdraw writes a bucket at a time. Two at once each planned from what the bucket
 * held before the other wrote: a page the first uploaded, which the second's build no longer has,
 * stayed in the bucket, and the second's record said the bucket held exactly its build.
 *
 * A run takes `_deploy/lease` before it reads what it plans from, with S3's conditional write
 * (`If-None-Match: *`, so of two runs one gets it), and deletes it when it ends, however it ends.
 * A lease left by a run that was killed is taken over when it names a process of this machine that
 * no longer runs, or is older than LEASE_HOURS; any other is refused, naming the run that holds it.
 * A deploy with nothing to do (the bucket's seal says so) writes nothing and takes no lease.
 */
import crypto from 'node:crypto'
import os from 'node:os'
import { DEPLOY_RECORD_PREFIX } from '../../infra/lib/stack-outputs'
import { isRunning } from '../../pipeline/mainProcess'
import type { SiteBucket } from './s3Bucket'

export const LEASE_KEY = `${DEPLOY_RECORD_PREFIX}lease`
/** Longer than any deploy: a lease this old is a stopped run's. */
export const LEASE_HOURS = 6

interface Lease {
  host: string
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

function parseLease(text: string | null): Lease | null {
  try {
    const lease = JSON.parse(text ?? 'null') as Partial<Lease> | null
    return lease && typeof lease.host === 'string' && typeof lease.pid === 'number' && typeof lease.since === 'string' ? (lease as Lease) : null
  } catch {
    return null
  }
}

/** Whether the run that left `lease` is known to have ended: a process of this machine that no longer runs, or a lease older than LEASE_HOURS (an unreadable one too). */
function stopped(lease: Lease | null, now: Date): boolean {
  if (lease === null) return true
  if (lease.host === os.hostname() && !isRunning(lease.pid)) return true
  const since = Date.parse(lease.since)
  return !Number.isFinite(since) || now.getTime() - since > LEASE_HOURS * 3_600_000
}

/** Runs `run` holding the bucket's lease (see the top of this file); `what` names the run in messages. */
export async function withDeployLease<T>(bucket: SiteBucket, what: string, run: () => Promise<T>, now = new Date()): Promise<T> {
  const lease: Lease = { host: os.hostname(), pid: process.pid, since: now.toISOString(), token: crypto.randomBytes(8).toString('hex') }
  const text = JSON.stringify(lease)
  if (!(await bucket.createRecord(LEASE_KEY, text))) {
    const held = parseLease(await bucket.readRecord(LEASE_KEY))
    if (!stopped(held, now)) {
      throw new DeployLeaseError(
        `${what}: another deploy or withdraw is writing s3://${bucket.name} (process ${held!.pid} on ${held!.host}, since ${held!.since}); run this once it has ended. If that run was stopped, delete s3://${bucket.name}/${LEASE_KEY} and run this again.`
      )
    }
    // A stopped run's: removed, then taken as a fresh one (of two runs taking it over, one gets it).
    await bucket.deleteKeys([LEASE_KEY])
    if (!(await bucket.createRecord(LEASE_KEY, text))) throw new DeployLeaseError(`${what}: another deploy or withdraw took s3://${bucket.name}/${LEASE_KEY} as this one did; run this once it has ended`)
  }
  try {
    return await run()
  } finally {
    // Released only if still this run's: one that took over a lease it thought stopped keeps its own.
    if (parseLease(await bucket.readRecord(LEASE_KEY))?.token === lease.token) await bucket.deleteKeys([LEASE_KEY])
  }
}
