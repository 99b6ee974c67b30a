/**
 * Where the local server reads the site's files from, with the headers each is served with: out/
 * as the build left it, or the site's bucket as `npm run deploy` left it (bucketObjects.ts). Both
 * answer the same question, so the same authorizer decides the same way whichever is read, and the
 * leak audit can be pointed at what the deploy put in the bucket.
 */
import path from 'node:path'
import { cacheControlForObject } from '../../edge/cacheHeaders'
import { outFileReader } from '../../mcp/siteFiles'
import { contentTypeFor } from './contentTypes'

export interface SiteObject {
  body: Buffer
  contentType: string
  /** Null when the object has none (a bucket object uploaded without it): then none is sent, as CloudFront would. */
  cacheControl: string | null
  /** Changes whenever the bytes do (a file's time, an object's ETag): what the gzip cache is keyed by. */
  version: string
}

export interface SiteObjects {
  /** For messages: the folder or the bucket. */
  where: string
  /** The object at a `/`-rooted key (lib/access/objectKey.ts); null when there is none. */
  read(objectKey: string): Promise<SiteObject | null>
}

/** out/ on this machine, each file with the Content-Type and Cache-Control the deploy stores for it. */
export function outDirObjects(outDir: string): SiteObjects {
  const read = outFileReader(outDir)
  return {
    where: path.resolve(outDir),
    async read(objectKey) {
      const file = await read(objectKey)
      return file && { body: file.body, contentType: contentTypeFor(objectKey), cacheControl: cacheControlForObject(objectKey), version: String(file.mtimeMs) }
    },
  }
}
