/**
 * The bucket's seal (`_deploy/seal`): the digest of the build's record of out/
 * (pipeline/steps/outRecord.ts) whose files the bucket holds as the deploy's record says, the
 * files kept for open tabs, and where the deploy's record stands (./deployRecord.ts). With it, a
 * deploy with nothing to do reads the first line of out/'s record and two small records of the
 * bucket (this one and the rules record, ./rulesRecord.ts), whatever the size of the site: no
 * listing, no manifest, no file of out/. And a deploy after an edit, when the build's delta runs
 * from the record the seal names (pipeline/steps/outDelta.ts), uploads what the delta names and
 * adds a change record, without reading either record whole.
 *
 * A deploy deletes the seal before its first write and writes it after its last, so a seal in the
 * bucket names what a finished deploy left; a deploy that finds nothing to do without one writes
 * it; a withdraw deletes it. It names the deploy that wrote it, as the rules record does: an older
 * seal put back by hand names another, and is not trusted. The seal names the build's record, not
 * the headers the deploy gives each file: a change to those (scripts/server/contentTypes.ts,
 * edge/cacheHeaders.ts) reaches the bucket with the next build, or at once with `--list`, which
 * never trusts the seal.
 *
 * Like the manifest, its key has no extension, so no request reaches it (./deployManifest.ts).
 */
import { z } from 'zod'
import { DEPLOY_SEAL_KEY } from '../../infra/lib/stack-outputs'
import { DeployManifestError, type DeployManifest } from './deployManifest'
import type { RecordState } from './deployRecord'
import type { RulesRecord } from './rulesRecord'
import type { SiteBucket } from './s3Bucket'

export const SEAL_KEY = DEPLOY_SEAL_KEY

export interface DeploySeal {
  version: 3
  /** The deploy that wrote it, as the rules record names the last one: an older seal put back by hand names another. */
  deploy: string
  /** The digest of the build's record of out/ whose files the bucket holds. */
  outRecord: string
  /** The files kept for open tabs: object key → when a deploy found it gone (ISO time), as the deploy's record has them. */
  retired: Record<string, string>
  record: RecordState
}

const count = z.number().int().min(0)
const sealSchema = z.object({
  version: z.literal(3),
  deploy: z.string().regex(/^[0-9a-f]{16}$/),
  outRecord: z.string().regex(/^[0-9a-f]{64}$/),
  retired: z.record(z.string(), z.iso.datetime()),
  record: z.object({ sequence: count, changes: count, changedFiles: count, files: count }),
})

/** The bucket's seal; null when there is none, or it is not one (it only spares work: without it the deploy compares every file). */
export async function readSeal(bucket: Pick<SiteBucket, 'readRecord'>): Promise<DeploySeal | null> {
  try {
    const text = await bucket.readRecord(SEAL_KEY)
    const parsed = text === null ? null : sealSchema.safeParse(JSON.parse(text))
    return parsed?.success ? parsed.data : null
  } catch (error) {
    // Damaged (its gzip) or not JSON: no seal, as the comment above says; a failed request is still one.
    if (error instanceof DeployManifestError || error instanceof SyntaxError) return null
    throw error
  }
}

/** The seal of a bucket that holds the files of the record `outRecord` (its digest), as `manifest` says, its record at `record`. */
export const sealOf = (deploy: string, outRecord: string, manifest: Pick<DeployManifest, 'retired'>, record: RecordState): DeploySeal => ({ version: 3, deploy, outRecord, retired: manifest.retired, record })

export const sameSeal = (a: DeploySeal | null, b: DeploySeal) => a !== null && JSON.stringify(a) === JSON.stringify(b)

export interface SealCheck {
  seal: DeploySeal | null
  /** The digest of out/'s record; null when there is no whole record. */
  outRecord: string | null
  rulesRecord: RulesRecord | null
  /** This build's rules fingerprint; undefined when the deploy checks none. */
  rules: string | undefined
  now: Date
  graceMs: number
}

/** Whether the bucket is as the seal says, for these rules: no upload or withdraw under way, and its files of these rules. */
export function trustedSeal({ seal, rulesRecord, rules }: Pick<SealCheck, 'seal' | 'rulesRecord' | 'rules'>): DeploySeal | null {
  if (seal === null || rulesRecord?.uploading || rulesRecord?.withdrawnFor) return null
  return rules === undefined || (rulesRecord?.rules === rules && rulesRecord.deploy === seal.deploy) ? seal : null
}

/**
 * Whether the deploy has nothing to do: the seal is trusted and names out/'s record, and no file
 * kept for open tabs is due for deletion.
 */
export function sealHolds(check: SealCheck): boolean {
  const seal = trustedSeal(check)
  if (seal === null || check.outRecord === null || seal.outRecord !== check.outRecord) return false
  return Object.values(seal.retired).every((since) => check.now.getTime() - Date.parse(since) < check.graceMs)
}

export const writeSeal = (bucket: SiteBucket, seal: DeploySeal) => bucket.writeRecord(SEAL_KEY, JSON.stringify(seal))

/** Before a deploy's or a withdraw's first write: from here until its last, the bucket is not what any seal says. */
export const breakSeal = (bucket: SiteBucket) => bucket.deleteKeys([SEAL_KEY])
