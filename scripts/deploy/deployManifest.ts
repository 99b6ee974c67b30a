/**
 * What the bucket holds, as the last finished deploy left it: one object in the bucket, written
 * after everything else, so a deploy cut short leaves the previous one's record and the next run
 * uploads whatever still differs.
 *
 * Its key has no extension. The edge only ever serves a key whose last segment has one (a page
 * request becomes `<route>.html`, any other request keeps its own name, lib/access/objectKey.ts),
 * so no request, whoever sends it, can read the list of every file of the site
 * (__tests__/deploy/manifestKey.test.ts); and the bucket's policy keeps CloudFront from reading
 * anything under its prefix (infra/lib/stack-outputs.ts).
 */
import { gunzipSync, gzipSync } from 'node:zlib'
import { z } from 'zod'
import { DEPLOY_RECORD_PREFIX } from '../../infra/lib/stack-outputs'

export const MANIFEST_KEY = `${DEPLOY_RECORD_PREFIX}manifest`

/** What a file was uploaded as: its bytes (sha256, hex) and the two headers stored with it. */
export interface ObjectRecord {
  sha256: string
  contentType: string
  cacheControl: string
}

export interface DeployManifest {
  version: 1
  /** Every file of the deployed out/, by object key (no leading slash). */
  files: Record<string, ObjectRecord>
  /** Objects no longer in out/ and kept for open tabs: key → when a deploy first found them gone (ISO time). */
  retired: Record<string, string>
}

const manifestSchema = z.object({
  version: z.literal(1),
  files: z.record(z.string(), z.object({ sha256: z.string().regex(/^[0-9a-f]{64}$/), contentType: z.string(), cacheControl: z.string() })),
  retired: z.record(z.string(), z.iso.datetime()),
})

export const EMPTY_MANIFEST: DeployManifest = { version: 1, files: {}, retired: {} }

export class DeployManifestError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'DeployManifestError'
  }
}

/** Reads the manifest's text; a manifest that is not one is an error, never "deploy everything and forget what was there". */
export function parseManifest(text: string, where: string): DeployManifest {
  let json: unknown
  try {
    json = JSON.parse(text)
  } catch (error) {
    throw new DeployManifestError(`${where} is not JSON (${error instanceof Error ? error.message : error}); delete it to make the next deploy upload every file again`)
  }
  const parsed = manifestSchema.safeParse(json)
  if (!parsed.success) throw new DeployManifestError(`${where} is not a deploy manifest: ${parsed.error.issues.map((issue) => `${issue.path.join('.') || '(root)'}: ${issue.message}`).join('; ')}`)
  return parsed.data
}

/** The manifest's text, keys sorted so that two runs that find the same bucket write the same bytes. */
export function serialiseManifest(manifest: DeployManifest): string {
  const sorted = <T>(record: Record<string, T>) => Object.fromEntries(Object.keys(record).sort().map((key) => [key, record[key]]))
  return JSON.stringify({ version: manifest.version, files: sorted(manifest.files), retired: sorted(manifest.retired) })
}

/**
 * The manifest's bytes as the bucket stores them: its text, gzipped. Every deploy that changes a
 * file writes the whole manifest again; at 10,000 pages its text is 8.5 MB and the gzip 1.7 MB.
 */
export function packManifest(text: string): Buffer {
  return gzipSync(text)
}

/** The manifest's text from the stored bytes: gzip, or the plain JSON that deploys before the gzip wrote. */
export function unpackManifest(bytes: Uint8Array): string {
  const gzipped = bytes[0] === 0x1f && bytes[1] === 0x8b
  return (gzipped ? gunzipSync(bytes) : Buffer.from(bytes)).toString('utf8')
}
