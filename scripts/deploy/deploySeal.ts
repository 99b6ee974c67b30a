/**
 * The bucket's seal (`_deploy/seal`): the digest of the build's record of out/
 * (pipeline/steps/outRecord.ts) whose files the bucket holds as the deploy's record says, and
 * when the oldest file kept for open tabs was retired. With it, a deploy with nothing to do reads
 * the first line of out/'s record and two small records of the bucket (this one and the rules
 * record, ./rulesRecord.ts), whatever the size of the site: no listing, no manifest, no file of out/.
 *
 * A deploy deletes the seal before its first write and writes it after its last, so a seal in the
 * bucket names what a finished deploy left; a deploy that finds nothing to do without one writes
 * it; a withdraw deletes it. The seal names the build's record, not the headers the deploy gives
 * each file: a change to those (scripts/server/contentTypes.ts, edge/cacheHeaders.ts) reaches
 * the bucket with the next build, or at once with `--list`, which never trusts the seal.
 *
 * Like the manifest, its key has no extension, so no request reaches it (./deployManifest.ts).
 */
import { z } from 'zod'
import { DEPLOY_RECORD_PREFIX } from '../../infra/lib/stack-outputs'
import type { DeployManifest } from './deployManifest'
import type { RulesRecord } from './rulesRecord'
import type { SiteBucket } from './s3Bucket'

export const SEAL_KEY = `${DEPLOY_RECORD_PREFIX}seal`

export interface DeploySeal {
  version: 1
  /** The digest of the build's record of out/ whose files the bucket holds. */
  outRecord: string
  /** When the longest-kept file for open tabs was retired (ISO time); null when none is kept. */
  oldestRetired: string | null
}

const sealSchema = z.object({ version: z.literal(1), outRecord: z.string().regex(/^[0-9a-f]{64}$/), oldestRetired: z.iso.datetime().nullable() })

/** The bucket's seal; null when there is none, or it is not one (it only spares work: without it the deploy compares every file). */
export async function readSeal(bucket: SiteBucket): Promise<DeploySeal | null> {
  const text = await bucket.readRecord(SEAL_KEY)
  if (text === null) return null
  try {
    const parsed = sealSchema.safeParse(JSON.parse(text))
    return parsed.success ? parsed.data : null
  } catch {
    return null
  }
}

/** The seal of a bucket that holds the files of the record `outRecord` (its digest), as `manifest` says. */
export function sealOf(outRecord: string, manifest: DeployManifest): DeploySeal {
  const retired = Object.values(manifest.retired).sort((a, b) => Date.parse(a) - Date.parse(b))
  return { version: 1, outRecord, oldestRetired: retired[0] ?? null }
}

export const sameSeal = (a: DeploySeal | null, b: DeploySeal) => a !== null && a.outRecord === b.outRecord && a.oldestRetired === b.oldestRetired

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

/**
 * Whether the deploy has nothing to do: the seal names out/'s record, the bucket's files are of
 * these rules with no upload or withdraw under way, and no file kept for open tabs is due for deletion.
 */
export function sealHolds({ seal, outRecord, rulesRecord, rules, now, graceMs }: SealCheck): boolean {
  if (seal === null || outRecord === null || seal.outRecord !== outRecord) return false
  if (rulesRecord?.uploading || rulesRecord?.withdrawnFor) return false
  if (rules !== undefined && rulesRecord?.rules !== rules) return false
  return seal.oldestRetired === null || now.getTime() - Date.parse(seal.oldestRetired) < graceMs
}

export const writeSeal = (bucket: SiteBucket, seal: DeploySeal) => bucket.writeRecord(SEAL_KEY, JSON.stringify(seal))

/** Before a deploy's or a withdraw's first write: from here until its last, the bucket is not what any seal says. */
export const breakSeal = (bucket: SiteBucket) => bucket.deleteKeys([SEAL_KEY])
