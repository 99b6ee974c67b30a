/**
 * Which rules the files in the bucket were built under, so that an upload never puts files of
 * new rules in front of the edge of the old ones (docs/deploy.md, "Two deploys, in this order").
 * `_deploy/rules` (no extension, so no request reaches it, like the manifest) holds the rules
 * fingerprint of the last upload (edge/rulesFingerprint.ts) and, after `npm run deploy --
 * --withdraw`, the fingerprint it withdrew for: the bucket then holds only files that are the
 * same in both builds, and build code.
 *
 * An upload goes ahead when the bucket is empty, when its files are of the same rules, or when
 * they were withdrawn for these rules; anything else is refused with the order to follow. While
 * an upload writes, the record says so (`uploading`), until the deploy's own record is written. That
 * `cdk deploy` ran between the withdraw and the upload, the stack's outputs say (./stackOutputs.ts
 * assertAuthorizerOf), when the deploy reads them; with --bucket the order says it must.
 */
import { z } from 'zod'
import { DEPLOY_RECORD_PREFIX } from '../../infra/lib/stack-outputs'
import { DeployManifestError, RULES_RECORD_KEY } from './deployManifest'
import { LEASE_KEY } from './deployLease'
import type { SiteBucket } from './s3Bucket'

export { RULES_RECORD_KEY }

export interface RulesRecord {
  version: 1
  /** The rules the bucket's files were uploaded under; null when unknown (deploys before this record). */
  rules: string | null
  /** Set by a withdraw: the rules whose upload may follow it. */
  withdrawnFor: string | null
  /**
   * Set while an upload runs, cleared after it wrote the deploy's record: while set, objects may
   * hold other bytes than that record says, so a withdraw trusts no object to be the same in both builds.
   */
  uploading: boolean
  /** The last deploy that left the bucket whole; its seal names it too (./deploySeal.ts): a seal of another deploy, put back by hand, is not trusted. */
  deploy?: string
}

const recordSchema = z.object({ version: z.literal(1), rules: z.string().nullable(), withdrawnFor: z.string().nullable(), uploading: z.boolean(), deploy: z.string().optional() })

/** The order that changes rules safely, for messages. */
export const RULE_CHANGE_ORDER = 'npm run deploy -- --withdraw, then cdk deploy DocsSiteStack, then npm run deploy'

export class RulesChangedError extends Error {
  constructor(message: string) {
    super(`${message}. Files built under other rules than the edge's could reach readers neither set of rules admits; deploy in this order: ${RULE_CHANGE_ORDER} (docs/deploy.md, "Two deploys, in this order")`)
    this.name = 'RulesChangedError'
  }
}

export async function readRulesRecord(bucket: Pick<SiteBucket, 'name' | 'readRecord'>): Promise<RulesRecord | null> {
  const where = `s3://${bucket.name}/${RULES_RECORD_KEY}`
  // Without it, the bucket's files are taken as of unknown rules: one withdraw, then the upload.
  const fix = `restore its previous version (the bucket keeps them 30 days), or delete it and run npm run deploy -- --withdraw, then npm run deploy`
  let text: string | null
  try {
    text = await bucket.readRecord(RULES_RECORD_KEY)
  } catch (error) {
    if (error instanceof DeployManifestError) throw new DeployManifestError(`${where} is damaged (not as a deploy wrote it): ${fix}`)
    throw error
  }
  if (text === null) return null
  let json: unknown
  try {
    json = JSON.parse(text)
  } catch {
    throw new DeployManifestError(`${where} is not JSON: ${fix}`)
  }
  const parsed = recordSchema.safeParse(json)
  if (!parsed.success) throw new DeployManifestError(`${where} is not a rules record (or one of a later version of this tool): ${fix}`)
  return parsed.data
}

export const writeRulesRecord = (bucket: SiteBucket, record: RulesRecord) => bucket.writeRecord(RULES_RECORD_KEY, JSON.stringify(record))

/** Whether the bucket holds any file of the site (anything but the deploy's record). */
export const holdsSite = (keys: ReadonlySet<string>) => [...keys].some((key) => !key.startsWith(DEPLOY_RECORD_PREFIX))

/**
 * A bucket that holds files and no record of any deploy of this tool: maybe not the site's (a
 * mistyped --bucket). A withdraw, which a rule change starts with, would delete every file of it.
 */
export class ForeignBucketError extends Error {
  constructor(bucket: string, keys: ReadonlySet<string>) {
    const some = [...keys].sort().slice(0, 3)
    super(
      `s3://${bucket} holds ${keys.size} object${keys.size === 1 ? '' : 's'} (${some.join(', ')}${keys.size > some.length ? ', …' : ''}) and no record of a deploy of this site (${DEPLOY_RECORD_PREFIX}…), so it may be another bucket: nothing was written or deleted. ` +
        `Check --bucket (the stack's output BucketName). If it is the site's bucket, holding files of an older site, delete them yourself (aws s3 rm s3://${bucket} --recursive), then run npm run deploy`
    )
    this.name = 'ForeignBucketError'
  }
}

/** Throws ForeignBucketError when the bucket holds files, none of them a record of this tool's deploys (the lease is this run's own). */
export function assertOwnBucket(keys: ReadonlySet<string>, bucket: string): void {
  if (holdsSite(keys) && ![...keys].some((key) => key.startsWith(DEPLOY_RECORD_PREFIX) && key !== LEASE_KEY)) throw new ForeignBucketError(bucket, new Set([...keys].filter((key) => key !== LEASE_KEY)))
}

/** Throws RulesChangedError unless files of `rules` may be uploaded now (see the top of this file). */
export function checkUpload(record: RulesRecord | null, rules: string, keys: ReadonlySet<string>, bucket: string): void {
  if (record === null) {
    if (!holdsSite(keys)) return
    assertOwnBucket(keys, bucket)
    throw new RulesChangedError(`s3://${bucket} holds a site but no record of the rules it was built under`)
  }
  if (record.withdrawnFor !== null) {
    if (record.withdrawnFor === rules) return
    throw new RulesChangedError(`s3://${bucket} was withdrawn for other rules (${record.withdrawnFor.slice(0, 12)}) than this build's (${rules.slice(0, 12)})`)
  }
  if (record.rules === rules) return
  throw new RulesChangedError(`the rules changed since the last deploy to s3://${bucket} (${(record.rules ?? 'unknown').slice(0, 12)} to ${rules.slice(0, 12)})`)
}

/**
 * Whether a withdraw has anything to do: not when the bucket's files are of these rules and no
 * withdraw is under way (an upload of them cut short left only files of these rules too).
 */
export const needsWithdraw = (record: RulesRecord | null, rules: string) => !(record !== null && record.withdrawnFor === null && record.rules === rules)

/** The record an upload of `rules` writes before its first write (`uploading`) and after its last. */
export const uploadRecord = (rules: string, uploading: boolean, deploy?: string): RulesRecord => ({ version: 1, rules, withdrawnFor: null, uploading, ...(deploy === undefined ? {} : { deploy }) })
