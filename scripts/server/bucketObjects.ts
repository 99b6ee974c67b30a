/**
 * The site's files as `npm run deploy` left them in its bucket (any S3 API: the tests' s3rver, or
 * AWS), for the local server: each object's bytes with the Content-Type and Cache-Control stored
 * on it, which are what CloudFront passes on. So a server over the bucket sends exactly what ships,
 * including whatever else the bucket holds (earlier builds' files kept for open tabs, the deploy's
 * record).
 *
 * The bucket's policy also keeps CloudFront from reading the deploy's record (infra/lib/site-stack.ts);
 * this source does not, so an audit through it proves the authorizer alone never serves the record.
 */
import { GetObjectCommand, NoSuchKey, type S3Client } from '@aws-sdk/client-s3'
import type { SiteObjects } from './siteObjects'

export function bucketObjects(client: S3Client, bucket: string): SiteObjects {
  return {
    where: `s3://${bucket}`,
    async read(objectKey) {
      try {
        const object = await client.send(new GetObjectCommand({ Bucket: bucket, Key: objectKey.replace(/^\/+/, '') }))
        return {
          body: Buffer.from(await object.Body!.transformToByteArray()),
          // S3 always answers with a type; binary/octet-stream is its own default.
          contentType: object.ContentType ?? 'binary/octet-stream',
          cacheControl: object.CacheControl ?? null,
          version: object.ETag ?? '',
        }
      } catch (error) {
        if (error instanceof NoSuchKey || (error as { name?: string }).name === 'NoSuchKey') return null
        throw error
      }
    },
  }
}
