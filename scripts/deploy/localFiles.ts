/**
 * The files of out/ as the deploy uploads them: object key, sha256 of the bytes (read as a stream,
 * never the whole of out/ in memory; with a hash cache, only for the files written since the last
 * deploy, ./hashCache.ts), and the Content-Type and Cache-Control the local server
 * sends for them (scripts/server/contentTypes.ts, edge/cacheHeaders.ts).
 */
import crypto from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import { pipeline } from 'node:stream/promises'
import { cacheControlForObject } from '../../edge/cacheHeaders'
import { listFiles } from '../../pipeline/files'
import { contentTypeFor } from '../server/contentTypes'
import type { LocalFile } from './deployPlan'
import type { HashCache } from './hashCache'
import { inParallel } from './inParallel'

export class NoBuildError extends Error {
  constructor(outDir: string) {
    super(`${outDir} has no index.html: build the site first (npm run build:prod)`)
    this.name = 'NoBuildError'
  }
}

export async function sha256OfFile(file: string): Promise<string> {
  const hash = crypto.createHash('sha256')
  await pipeline(fs.createReadStream(file), hash)
  return hash.digest('hex')
}

/** Every file under `outDir`, hashed `concurrency` at a time, unless `cache` has its hash. */
export async function localFiles(outDir: string, concurrency: number, cache?: HashCache): Promise<LocalFile[]> {
  if (!fs.existsSync(path.join(outDir, 'index.html'))) throw new NoBuildError(outDir)
  const files: LocalFile[] = []
  // listFiles names each file as the edge does, `/path`; the bucket's keys have no leading slash.
  await inParallel(listFiles(outDir), concurrency, async (objectKey) => {
    const key = objectKey.slice(1)
    const file = path.join(outDir, key)
    const stat = await fs.promises.stat(file)
    files.push({ key, file, bytes: stat.size, sha256: cache?.lookup(key, stat) ?? (await hashed(key, file, stat, cache)), contentType: contentTypeFor(key), cacheControl: cacheControlForObject(objectKey) })
  })
  cache?.save()
  return files
}

async function hashed(key: string, file: string, stat: fs.Stats, cache?: HashCache): Promise<string> {
  const readAt = Date.now()
  const sha256 = await sha256OfFile(file)
  cache?.record(key, stat, sha256, readAt)
  return sha256
}
