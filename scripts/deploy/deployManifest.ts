/**
 * What the bucket holds, as the last finished deploy left it: the manifest, and the change records
 * written after it (deployRecord.ts reads and writes them), each written after everything else,
 * so a deploy cut short leaves the previous one's record and the next run uploads whatever still
 * differs.
 *
 * Their keys have no extension. The edge only ever serves a key whose last segment has one (a page
 * request becomes `<route>.html`, any other request keeps its own name, lib/access/objectKey.ts),
 * so no request, whoever sends it, can read the list of every file of the site
 * (__tests__/deploy/manifestKey.test.ts); and the bucket's policy keeps CloudFront from reading
 * anything under its prefix (infra/lib/stack-outputs.ts).
 */
import { gunzipSync, gzipSync } from 'node:zlib'
import { z } from 'zod'
import { DEPLOY_RECORD_PREFIX, DEPLOY_SEAL_KEY as SEAL_KEY } from '../../infra/lib/stack-outputs'

export const MANIFEST_KEY = `${DEPLOY_RECORD_PREFIX}manifest`
/** The rules the bucket's files were built under (./rulesRecord.ts). */
export const RULES_RECORD_KEY = `${DEPLOY_RECORD_PREFIX}rules`
/** A deploy's change record after the manifest (./deployRecord.ts), by its number. */
export const CHANGE_KEY = new RegExp(`^${DEPLOY_RECORD_PREFIX}change-(\\d{6})$`)
export const changeKey = (sequence: number) => `${DEPLOY_RECORD_PREFIX}change-${String(sequence).padStart(6, '0')}`

/**
 * How to start the bucket's record afresh when it cannot be read: the manifest, its change records
 * and the seal go; the rules record stays (without it the next deploy is refused, and the withdraw
 * it asks for deletes the site), and so do the lease and what is owed to CloudFront.
 */
export const START_RECORD_AFRESH = `delete ${MANIFEST_KEY}, ${SEAL_KEY} and every ${changeKey(1).replace(/\d+$/, '…')} record (keep the other objects under ${DEPLOY_RECORD_PREFIX}), and the next deploy lists the bucket and uploads every file again`

/** What a file was uploaded as: its bytes (sha256, hex) and the two headers stored with it. */
export interface ObjectRecord {
  sha256: string
  contentType: string
  cacheControl: string
}

export interface DeployManifest {
  version: 1
  /** The last change record (deployRecord.ts) this manifest holds; 0 for none. */
  through: number
  /** Every file of the deployed out/, by object key (no leading slash). */
  files: Record<string, ObjectRecord>
  /** Objects no longer in out/ and kept for open tabs: key → when a deploy first found them gone (ISO time). */
  retired: Record<string, string>
}

/** What one deploy changed: each file it added or changed, null for each it removed, and the whole list of files kept for open tabs. */
export interface ManifestChange {
  version: 1
  files: Record<string, ObjectRecord | null>
  retired: Record<string, string>
}

const SHA256_HEX = /^[0-9a-f]{64}$/

/** What is wrong with one file's record, or null (a change record's null: the file was removed). */
function recordProblem(value: unknown, nullable: boolean): { field?: string; message: string } | null {
  if (value === null && nullable) return null
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return { message: 'expected an object' }
  const { sha256, contentType, cacheControl } = value as Record<string, unknown>
  if (typeof sha256 !== 'string' || !SHA256_HEX.test(sha256)) return { field: 'sha256', message: 'expected 64 lowercase hex digits' }
  if (typeof contentType !== 'string') return { field: 'contentType', message: 'expected a string' }
  if (typeof cacheControl !== 'string') return { field: 'cacheControl', message: 'expected a string' }
  return null
}

/**
 * Every file's record, checked in a plain loop: the manifest names every file of the site, and a
 * schema per entry was most of the time a deploy with nothing to do spends reading it.
 */
const fileRecords = <T>(nullable: boolean) =>
  z
    .custom<Record<string, T>>((value) => value !== null && typeof value === 'object' && !Array.isArray(value), 'expected an object of file records')
    .superRefine((files, context) => {
      for (const [key, value] of Object.entries(files)) {
        const problem = recordProblem(value, nullable)
        if (problem) return context.addIssue({ code: 'custom', path: problem.field ? [key, problem.field] : [key], message: problem.message })
      }
    })
const manifestSchema = z.object({
  version: z.literal(1),
  // Manifests written before change records have none.
  through: z.number().int().min(0).default(0),
  files: fileRecords<ObjectRecord>(false),
  retired: z.record(z.string(), z.iso.datetime()),
})
const changeSchema = z.object({ version: z.literal(1), files: fileRecords<ObjectRecord | null>(true), retired: z.record(z.string(), z.iso.datetime()) })

export const EMPTY_MANIFEST: DeployManifest = { version: 1, through: 0, files: {}, retired: {} }

export const sameRecord = (a: ObjectRecord | null | undefined, b: ObjectRecord) => !!a && a.sha256 === b.sha256 && a.contentType === b.contentType && a.cacheControl === b.cacheControl

export class DeployManifestError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'DeployManifestError'
  }
}

function parseRecord<T>(schema: z.ZodType<T>, what: string, text: string, where: string): T {
  let json: unknown
  try {
    json = JSON.parse(text)
  } catch (error) {
    throw new DeployManifestError(`${where} is not JSON (${error instanceof Error ? error.message : error}); ${START_RECORD_AFRESH}`)
  }
  const parsed = schema.safeParse(json)
  if (!parsed.success) throw new DeployManifestError(`${where} is not ${what}: ${parsed.error.issues.map((issue) => `${issue.path.join('.') || '(root)'}: ${issue.message}`).join('; ')}`)
  return parsed.data
}

/** Reads the manifest's text; a manifest that is not one is an error, never "deploy everything and forget what was there". */
export const parseManifest = (text: string, where: string): DeployManifest => parseRecord(manifestSchema, 'a deploy manifest', text, where)

/** Reads a change record's text, as strictly. */
export const parseChange = (text: string, where: string): ManifestChange => parseRecord(changeSchema, 'a deploy change record', text, where)

/** Whether two manifests hold the same: what serialiseManifest writes of each, compared without writing it (a no-op deploy compares every file's). */
export function sameManifest(a: DeployManifest, b: DeployManifest): boolean {
  const sameEntries = <T>(x: Record<string, T>, y: Record<string, T>, same: (left: T, right: T) => boolean) => {
    const keys = Object.keys(x)
    return keys.length === Object.keys(y).length && keys.every((key) => Object.hasOwn(y, key) && same(x[key], y[key]))
  }
  return a.version === b.version && a.through === b.through && sameEntries(a.files, b.files, sameRecord) && sameEntries(a.retired, b.retired, (left, right) => left === right)
}

/** The manifest's text, keys sorted so that two runs that find the same bucket write the same bytes. */
export function serialiseManifest(manifest: DeployManifest): string {
  const sorted = <T>(record: Record<string, T>) => Object.fromEntries(Object.keys(record).sort().map((key) => [key, record[key]]))
  return JSON.stringify({ version: manifest.version, through: manifest.through, files: sorted(manifest.files), retired: sorted(manifest.retired) })
}

/** A record's bytes as the bucket stores them: its text, gzipped (the sizes at 10,000 pages: docs/benchmarks.md, figures behind choices in the code). */
export function packRecord(text: string): Buffer {
  return gzipSync(text)
}

/** A record's text from the stored bytes (at `where`): gzip, or the plain JSON of manifests written before the gzip. */
export function unpackRecord(bytes: Uint8Array, where: string): string {
  const gzipped = bytes[0] === 0x1f && bytes[1] === 0x8b
  if (!gzipped) return Buffer.from(bytes).toString('utf8')
  try {
    return gunzipSync(bytes).toString('utf8')
  } catch (error) {
    // A deploy writes a record whole, in one request: a damaged one was changed outside a deploy.
    throw new DeployManifestError(
      `${where} is damaged (its gzip: ${(error as { message?: string }).message ?? error}); restore its previous version (the bucket keeps them 30 days), or ${START_RECORD_AFRESH}`
    )
  }
}
