/**
 * The files of out/ as the deploy uploads them: object key, sha256 and size, and the Content-Type
 * and Cache-Control the local server sends for them (scripts/server/contentTypes.ts,
 * edge/cacheHeaders.ts).
 *
 * They come from the finished build's record (pipeline/steps/outRecord.ts): out/ is neither walked
 * nor stat'ed, and a file is read only to be uploaded. The deploy trusts that record: a file
 * changed in out/ after the build is deployed as the build recorded it (its upload is refused by
 * S3, whose sha256 check sees other bytes, s3Bucket.ts) until the next build. Without a whole
 * record (a build stopped half way, or out/ made by another tool), every file of out/ is read and
 * hashed, as a stream, never the whole of out/ in memory.
 */
import crypto from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import { pipeline } from 'node:stream/promises'
import { cacheControlForObject } from '../../edge/cacheHeaders'
import { listFiles } from '../../pipeline/files'
import { outRecordFileFor, readOutRecord } from '../../pipeline/steps/outRecord'
import { contentTypeFor } from '../server/contentTypes'
import type { LocalFile } from './deployPlan'
import { inParallel } from './inParallel'

export class NoBuildError extends Error {
  constructor(outDir: string) {
    super(`${outDir} has no index.html: build the site first (npm run build:prod)`)
    this.name = 'NoBuildError'
  }
}

/** A file's digest, hex, streamed: sha256 for the deploy's record, md5 to compare with an object's ETag (./alteredObjects.ts). */
export async function digestOfFile(file: string, algorithm: 'sha256' | 'md5' = 'sha256'): Promise<string> {
  const hash = crypto.createHash(algorithm)
  await pipeline(fs.createReadStream(file), hash)
  return hash.digest('hex')
}

export interface LocalFiles {
  files: LocalFile[]
  /** The build whose record named the files; null when out/ was hashed for want of a whole record. */
  fromBuild: string | null
  /** That record's digest (pipeline/steps/outRecord.ts), which the bucket's seal names once it holds these files (./deploySeal.ts). */
  recordDigest: string | null
}

/** A file of out/ as the deploy uploads it, from its key, size and sha256. */
export const localFile = (outDir: string, key: string, bytes: number, sha256: string): LocalFile => ({
  key,
  file: path.join(outDir, key),
  bytes,
  sha256,
  contentType: contentTypeFor(key),
  // The edge names a file `/path`; the bucket's keys have no leading slash.
  cacheControl: cacheControlForObject(`/${key}`),
})

/** out/ beside a record of it that is not whole (cut short, changed): nothing says which files the build wrote. */
export class DamagedOutRecordError extends Error {
  constructor(outDir: string) {
    super(`the build's record of ${outDir} (${path.relative(process.cwd(), outRecordFileFor(outDir))}) is not whole: its files do not match its digest, so nothing says which files of ${outDir} the build wrote (one put there by hand would ship); build again (npm run build:prod)`)
    this.name = 'DamagedOutRecordError'
  }
}

/**
 * The files of `outDir`, from the build's record, or else (unless `wholeRecord` is asked for, as
 * `npm run deploy` does) each hashed, `concurrency` at a time.
 */
export async function localFiles(outDir: string, concurrency: number, wholeRecord = false): Promise<LocalFiles> {
  const record = readOutRecord(outDir)
  if (record && 'index.html' in record.files) {
    return { files: Object.entries(record.files).map(([key, entry]) => localFile(outDir, key, entry.size, entry.sha256)), fromBuild: record.buildId, recordDigest: record.digest }
  }
  if (!fs.existsSync(path.join(outDir, 'index.html'))) throw new NoBuildError(outDir)
  if (wholeRecord) throw new DamagedOutRecordError(outDir)
  const files: LocalFile[] = []
  await inParallel(listFiles(outDir), concurrency, async (objectKey) => {
    const key = objectKey.slice(1)
    const file = path.join(outDir, key)
    const stat = await fs.promises.stat(file)
    files.push(localFile(outDir, key, stat.size, await digestOfFile(file)))
  })
  return { files, fromBuild: null, recordDigest: null }
}
