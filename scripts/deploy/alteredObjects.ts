/**
 * `npm run deploy -- --list`, after someone changed the bucket by hand: the objects the record
 * says hold a file of out/ but that hold other bytes. The listing gives each object's size and
 * ETag, which for an object put whole (as the deploy puts every file) is the MD5 of its bytes; a
 * file whose object differs in either is uploaded again, and its paths invalidated. Headers
 * changed by hand over the same bytes are not seen: a listing does not give them.
 */
import { sameRecord, type DeployManifest } from './deployManifest'
import type { LocalFile } from './deployPlan'
import { inParallel } from './inParallel'
import { digestOfFile } from './localFiles'
import type { ListedObject } from './s3Bucket'

/** The keys of `files` whose object the manifest records as theirs, but whose listed size or ETag says it holds other bytes. */
export async function alteredKeys(files: readonly LocalFile[], manifest: DeployManifest, listed: ReadonlyMap<string, ListedObject>, concurrency: number): Promise<string[]> {
  const altered: string[] = []
  const recorded = files.filter((file) => listed.has(file.key) && sameRecord(manifest.files[file.key], file))
  await inParallel(recorded, concurrency, async (file) => {
    const object = listed.get(file.key)!
    if (object.size !== file.bytes || object.etag !== (await digestOfFile(file.file, 'md5'))) altered.push(file.key)
  })
  return altered.sort()
}

/** The manifest without the records of `keys`: the plan then uploads their files again, as changed. */
export function withoutRecords(manifest: DeployManifest, keys: readonly string[]): DeployManifest {
  if (keys.length === 0) return manifest
  const files = { ...manifest.files }
  for (const key of keys) delete files[key]
  return { ...manifest, files }
}
