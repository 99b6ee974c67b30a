/**
 * The files of out/ as the deploy uploads them: object key, sha256 of the bytes (read as a stream,
 * never the whole of out/ in memory), and the Content-Type and Cache-Control the local server
 * sends for them (scripts/server/contentTypes.ts, edge/cacheHeaders.ts).
 */
import crypto from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import { pipeline } from 'node:stream/promises'
import { cacheControlForObject } from '../../edge/cacheHeaders'
import { listFiles } from '../../pipeline/steps/siteFiles'
import { contentTypeFor } from '../server/contentTypes'
import type { LocalFile } from './deployPlan'
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

/** Every file under `outDir`, hashed `concurrency` at a time. */
export async function localFiles(outDir: string, concurrency: number): Promise<LocalFile[]> {
  if (!fs.existsSync(path.join(outDir, 'index.html'))) throw new NoBuildError(outDir)
  const files: LocalFile[] = []
  // listFiles names each file as the edge does, `/path`; the bucket's keys have no leading slash.
  await inParallel(listFiles(outDir), concurrency, async (objectKey) => {
    const key = objectKey.slice(1)
    const file = path.join(outDir, key)
    const bytes = (await fs.promises.stat(file)).size
    files.push({ key, file, bytes, sha256: await sha256OfFile(file), contentType: contentTypeFor(key), cacheControl: cacheControlForObject(objectKey) })
  })
  return files
}
