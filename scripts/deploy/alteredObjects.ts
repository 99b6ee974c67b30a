/**
 * `npm run deploy -- --list`, after someone changed the bucket by hand: the objects the record
 * says hold a file of out/ but that hold other bytes, or are served with other headers. The
 * listing gives each object's size and ETag, which for an object put whole (as the deploy puts
 * every file) is the MD5 of its bytes; the headers take a request per object (a listing does not
 * give them), which only this full check makes: a `Cache-Control` set by hand to `public` would let
 * shared caches keep a protected page. A file whose object differs in any is uploaded again, and
 * its paths invalidated.
 */
import { sameRecord, type DeployManifest } from './deployManifest'
import type { LocalFile } from './deployPlan'
import { inParallel } from './inParallel'
import { digestOfFile } from './localFiles'
import type { ListedObject, SiteBucket } from './s3Bucket'

/** The keys of `files` whose object the manifest records as theirs, but whose listed size or ETag says it holds other bytes, or whose headers are not the file's. */
export async function alteredKeys(files: readonly LocalFile[], manifest: DeployManifest, listed: ReadonlyMap<string, ListedObject>, concurrency: number, headersOf: SiteBucket['headersOf']): Promise<string[]> {
  const altered: string[] = []
  const recorded = files.filter((file) => listed.has(file.key) && sameRecord(manifest.files[file.key], file))
  await inParallel(recorded, concurrency, async (file) => {
    const object = listed.get(file.key)!
    if (object.size !== file.bytes || object.etag !== (await digestOfFile(file.file, 'md5'))) return void altered.push(file.key)
    const served = await headersOf(file.key)
    if (served?.contentType !== file.contentType || served.cacheControl !== file.cacheControl) altered.push(file.key)
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
