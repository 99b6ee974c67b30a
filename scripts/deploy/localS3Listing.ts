/**
 * The local S3's answer to a listing (ListObjectsV2), in place of s3rver's own, which is wrong for
 * any bucket of more than one page (1,000 keys):
 * - it walks its folder in directory order, not key order, and starts each next page after the
 *   previous page's last key, so keys that sort differently from their paths are never listed
 *   (`docs/leads.html` sorts before `docs/leads/…`, but its file comes after that folder);
 *   a 10,000-page bucket listed 3 objects short, and a deploy uploaded them again;
 * - it encrypts the continuation token with DES, which Node's OpenSSL 3 refuses
 *   (ERR_OSSL_EVP_UNSUPPORTED), so the first answer that needs one fails with InternalError.
 * Here every key is read from the folder, sorted as S3 sorts them, and paged with a token that is
 * the page's last key. The sorted keys are kept until the bucket is next written to, so the pages
 * of one listing do not each walk the folder again.
 */
import fs from 'node:fs'
import path from 'node:path'

/** How s3rver names an object's file: the key's last segment, then this. */
const OBJECT_SUFFIX = '._S3rver_object'
const MAX_KEYS = 1000

export interface ListingQuery {
  prefix?: string
  'continuation-token'?: string
  'start-after'?: string
  'max-keys'?: string
}

const escapeXml = (text: string) => text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`)

/** What s3rver's store knows of an object: its quoted ETag, its HTTP date, its size. */
export type StoredMetadata = (bucket: string, key: string) => Promise<{ etag: string; 'last-modified': string; 'content-length': number }>

const byteOrder = (a: string, b: string) => Buffer.compare(Buffer.from(a), Buffer.from(b))

export function localS3Listing(directory: string, metadataOf: StoredMetadata) {
  const sortedKeys = new Map<string, string[]>()
  const keysOf = (bucket: string) => {
    let keys = sortedKeys.get(bucket)
    if (!keys) {
      const root = path.join(directory, bucket)
      keys = (fs.readdirSync(root, { recursive: true, withFileTypes: true }) as fs.Dirent[])
        .filter((entry) => entry.isFile() && entry.name.endsWith(OBJECT_SUFFIX))
        .map((entry) => path.relative(root, path.join(entry.parentPath, entry.name)).split(path.sep).join('/').slice(0, -OBJECT_SUFFIX.length))
      // S3 lists in the order of the keys' UTF-8 bytes.
      keys.sort(byteOrder)
      sortedKeys.set(bucket, keys)
    }
    return keys
  }
  return {
    /** Called on every request that writes to `bucket`: its keys are read again at the next listing. */
    written(bucket: string) {
      sortedKeys.delete(bucket)
    },
    /** The ListBucketResult XML for one page of `bucket`, or null when there is no such bucket (s3rver answers that). */
    async list(bucket: string, query: ListingQuery): Promise<string | null> {
      if (!fs.existsSync(path.join(directory, bucket))) return null
      const prefix = query.prefix ?? ''
      const token = query['continuation-token']
      const after = token ? Buffer.from(token, 'base64url').toString('utf8') : (query['start-after'] ?? '')
      const maxKeys = Math.min(MAX_KEYS, Number(query['max-keys'] ?? MAX_KEYS))
      const keys = keysOf(bucket)
      const page: string[] = []
      let truncated = false
      for (let index = keys.findIndex((key) => byteOrder(key, after) > 0); index >= 0 && index < keys.length; index++) {
        if (!keys[index].startsWith(prefix)) continue
        if (page.length === maxKeys) {
          truncated = true
          break
        }
        page.push(keys[index])
      }
      const contents = await Promise.all(
        page.map(async (key) => {
          const metadata = await metadataOf(bucket, key)
          const modified = new Date(metadata['last-modified']).toISOString()
          return `<Contents><Key>${escapeXml(key)}</Key><LastModified>${modified}</LastModified><ETag>${escapeXml(metadata.etag)}</ETag><Size>${metadata['content-length']}</Size><StorageClass>STANDARD</StorageClass></Contents>`
        })
      )
      return (
        '<?xml version="1.0" encoding="UTF-8"?>' +
        `<ListBucketResult xmlns="http://s3.amazonaws.com/doc/2006-03-01/"><Name>${escapeXml(bucket)}</Name><Prefix>${escapeXml(prefix)}</Prefix>` +
        (token ? `<ContinuationToken>${escapeXml(token)}</ContinuationToken>` : '') +
        `<KeyCount>${page.length}</KeyCount><MaxKeys>${maxKeys}</MaxKeys><IsTruncated>${truncated}</IsTruncated>` +
        (truncated ? `<NextContinuationToken>${Buffer.from(page[page.length - 1]).toString('base64url')}</NextContinuationToken>` : '') +
        contents.join('') +
        '</ListBucketResult>'
      )
    },
  }
}
