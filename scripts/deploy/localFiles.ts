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
  const found: Array<{ key: string; file: string }> = []
  for (const entry of fs.readdirSync(outDir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue
    const file = path.join(entry.parentPath, entry.name)
    found.push({ key: path.relative(outDir, file).split(path.sep).join('/'), file })
  }
  const files: LocalFile[] = []
  await inParallel(found, concurrency, async ({ key, file }) => {
    const bytes = (await fs.promises.stat(file)).size
    files.push({ key, file, bytes, sha256: await sha256OfFile(file), contentType: contentTypeFor(key), cacheControl: cacheControlForObject('/' + key) })
  })
  return files
}
