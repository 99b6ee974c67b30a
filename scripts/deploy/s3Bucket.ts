/**
 * The site's bucket, as the deploy sees it: read a record, list the keys, upload a file (a
 * stream, with its Content-Type and Cache-Control), delete keys, write a record. Any S3 API
 * will do (`endpoint`: a local S3 in the tests, path-style addressing).
 */
import fs from 'node:fs'
import {
  DeleteObjectsCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  NoSuchKey,
  PutObjectCommand,
  S3Client,
} from '@aws-sdk/client-s3'
import { packRecord, unpackRecord } from './deployManifest'
import type { LocalFile } from './deployPlan'
import { S3RequestError, withErrorsOfThisRealm, withS3Retries } from './s3Retry'
import { SITE_STACK_REGION } from '../../infra/lib/stack-outputs'

export interface SiteBucket {
  /** The bucket's name, for messages. */
  name: string
  /** The text of one of the deploy's records (deployRecord.ts); null when the bucket has none under that key. */
  readRecord(key: string): Promise<string | null>
  /** Every key of the bucket, or only those under `prefix`. */
  listKeys(prefix?: string): Promise<Set<string>>
  /** Every object of the bucket, with its size and ETag (`--list`, ./alteredObjects.ts). */
  listObjects(): Promise<Map<string, ListedObject>>
  /** The headers an object is served with (`--list`, ./alteredObjects.ts); null when there is none under `key`. */
  headersOf(key: string): Promise<ServedHeaders | null>
  upload(file: LocalFile): Promise<void>
  deleteKeys(keys: readonly string[]): Promise<void>
  writeRecord(key: string, text: string): Promise<void>
  /**
   * Writes a record only where the bucket has none under `key`, or (`replacing`, an ETag) only over
   * the one of that ETag: S3's conditional writes, which decide a race; false when the condition fails.
   */
  createRecord(key: string, text: string, replacing?: string): Promise<boolean>
  /** A record's text and ETag; null when there is none. */
  readTaggedRecord(key: string): Promise<{ text: string; etag: string } | null>
}

/** What an object is served with, as S3 keeps it (null: none set). */
export interface ServedHeaders {
  contentType: string | null
  cacheControl: string | null
}

/** An object as a listing names it: its size, and its ETag (unquoted; the MD5 of its bytes for an object put whole, as the deploy puts them). */
export interface ListedObject {
  size: number
  etag: string
}

/** S3 deletes at most this many keys in one request. */
const DELETE_BATCH = 1000

/**
 * An S3 client, credentials from the usual environment, in the site stack's region, where its
 * bucket is (an AWS_REGION an operator set for the user pool's commands would send it elsewhere).
 * With `endpoint`, any S3 API at that URL, path-style, in AWS_REGION or us-east-1, which such
 * servers accept.
 * Checksums only where S3 requires them: a streamed upload with the SDK's default checksum is
 * sent chunk-encoded, which not every S3 API reads; the object's sha256 is sent instead.
 */
export function s3ClientFor(options: { endpoint?: string; credentials?: { accessKeyId: string; secretAccessKey: string } } = {}): S3Client {
  const region = options.endpoint ? (process.env.AWS_REGION ?? process.env.AWS_DEFAULT_REGION ?? 'us-east-1') : SITE_STACK_REGION
  const client = new S3Client({
    region,
    ...(options.endpoint ? { endpoint: options.endpoint, forcePathStyle: true } : {}),
    ...(options.credentials ? { credentials: options.credentials } : {}),
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  })
  return withErrorsOfThisRealm(client)
}

export function s3SiteBucket(client: S3Client, bucket: string): SiteBucket {
  // Each request is named in its error and sent again when S3 fails it for a while, as uploads are.
  const list = async (prefix?: string) => {
    const objects = new Map<string, ListedObject>()
    let token: string | undefined
    do {
      const page = await withS3Retries(`listing of s3://${bucket}/${prefix ?? ''}`, () => client.send(new ListObjectsV2Command({ Bucket: bucket, ContinuationToken: token, Prefix: prefix })))
      for (const object of page.Contents ?? []) if (object.Key !== undefined) objects.set(object.Key, { size: object.Size ?? -1, etag: (object.ETag ?? '').replace(/"/g, '') })
      token = page.IsTruncated ? page.NextContinuationToken : undefined
    } while (token)
    return objects
  }
  const readTaggedRecord = async (key: string) => {
    const read = await withS3Retries(`read of s3://${bucket}/${key}`, async () => {
      try {
        const object = await client.send(new GetObjectCommand({ Bucket: bucket, Key: key }))
        return { bytes: await object.Body!.transformToByteArray(), etag: object.ETag ?? '' }
      } catch (error) {
        if (error instanceof NoSuchKey || (error as { name?: string }).name === 'NoSuchKey') return null
        throw error
      }
    })
    return read && { text: unpackRecord(read.bytes, `s3://${bucket}/${key}`), etag: read.etag }
  }
  return {
    name: bucket,
    readRecord: async (key) => (await readTaggedRecord(key))?.text ?? null,
    readTaggedRecord,
    async listKeys(prefix) {
      return new Set((await list(prefix)).keys())
    },
    listObjects: () => list(),
    headersOf: (key) =>
      withS3Retries(`read of the headers of s3://${bucket}/${key}`, async () => {
        try {
          const head = await client.send(new HeadObjectCommand({ Bucket: bucket, Key: key }))
          return { contentType: head.ContentType ?? null, cacheControl: head.CacheControl ?? null }
        } catch (error) {
          const { name, $metadata } = error as { name?: string; $metadata?: { httpStatusCode?: number } }
          if (name === 'NotFound' || name === 'NoSuchKey' || $metadata?.httpStatusCode === 404) return null
          throw error
        }
      }),
    async upload(file) {
      // Named here, as out/ differs from the build's record of it: a stream of a file gone fails
      // with an 'error' event nothing listens to yet, which ends the process with the lease held.
      const found = fs.statSync(file.file, { throwIfNoEntry: false })
      if (!found?.isFile() || found.size !== file.bytes) throw new OutChangedError(file.file, found?.isFile() ? `${found.size} bytes, not the ${file.bytes} the build recorded` : 'missing')
      // A fresh stream per attempt: a stream a failed attempt has read from cannot be sent again.
      await withS3Retries(`upload of s3://${bucket}/${file.key}`, async () => {
        const body = fs.createReadStream(file.file)
        try {
          await client.send(
            new PutObjectCommand({
              Bucket: bucket,
              Key: file.key,
              Body: body,
              ContentLength: file.bytes,
              ContentType: file.contentType,
              CacheControl: file.cacheControl,
              // S3 refuses the upload if the bytes it receives are not the ones that were hashed.
              ChecksumSHA256: Buffer.from(file.sha256, 'hex').toString('base64'),
            })
          )
        } finally {
          body.destroy()
        }
      })
    },
    async deleteKeys(keys) {
      for (let start = 0; start < keys.length; start += DELETE_BATCH) {
        const batch = keys.slice(start, start + DELETE_BATCH)
        const result = await withS3Retries(`deletion of ${batch.length} objects of s3://${bucket}, e.g. ${batch[0]}`, () => client.send(new DeleteObjectsCommand({ Bucket: bucket, Delete: { Objects: batch.map((Key) => ({ Key })), Quiet: true } })))
        const failed = result.Errors ?? []
        if (failed.length > 0) throw new Error(`s3://${bucket}: ${failed.length} objects could not be deleted, e.g. ${failed[0].Key}: ${failed[0].Code} ${failed[0].Message}`)
      }
    },
    async writeRecord(key, text) {
      const body = packRecord(text)
      await withS3Retries(`write of s3://${bucket}/${key}`, () => client.send(new PutObjectCommand({ Bucket: bucket, Key: key, Body: body, ContentType: 'application/gzip', CacheControl: 'no-store' })))
    },
    async createRecord(key, text, replacing) {
      const condition = replacing === undefined ? { IfNoneMatch: '*' } : { IfMatch: replacing }
      try {
        await client.send(new PutObjectCommand({ Bucket: bucket, Key: key, Body: packRecord(text), ContentType: 'application/gzip', CacheControl: 'no-store', ...condition }))
        return true
      } catch (error) {
        const { name, $metadata } = error as { name?: string; $metadata?: { httpStatusCode?: number } }
        if (name === 'PreconditionFailed' || name === 'ConditionalRequestConflict' || $metadata?.httpStatusCode === 412 || $metadata?.httpStatusCode === 409) return false
        // Not sent again here. The SDK's own retry may have sent it again already, when an answer was
        // lost: a write refused after its own took effect, which the caller tells by reading the record (./deployLease.ts).
        throw new S3RequestError(`conditional write of s3://${bucket}/${key}`, 1, error)
      }
    },
  }
}

/** A file of out/ is not as the build recorded it (removed or edited since): the deploy stops before sending it. */
export class OutChangedError extends Error {
  constructor(file: string, how: string) {
    super(`${file} is ${how}: out/ changed since the build recorded it; write it anew (rm -rf out, then npm run build:prod: a build in place rewrites only what its sources changed), then deploy`)
    this.name = 'OutChangedError'
  }
}
