/**
 * The deploy's local record of the sha256 it took of each file of out/, so that a file the build
 * did not write again is not read again: at 10,000 pages out/ holds about 650 MB, and a one-page
 * edit rewrites a few files of it. As git's index does, a file is known by what `stat` says of it
 * (size, modification time, device and inode): while they are the ones recorded with its hash, its
 * bytes are taken to be the ones hashed; another out/ has other inodes. A rebuild that writes a file anew changes its time (and a file
 * replaced through a temporary file gets a new inode).
 *
 * One case would slip through: a file rewritten with the same size within the same tick of the
 * file system's clock as the write that was hashed (a second on some file systems, two on FAT),
 * which leaves the time as it was. So a hash is only recorded for a file last written RACY_MS or
 * more before it was read ("racy git"): any later write then gets a later time. A file hashed
 * sooner after its write is read again by the next deploy, and recorded then.
 *
 * The record is only a shortcut: a missing or unreadable one means every file is hashed, and a file uploaded with a wrong hash is refused by S3 (s3Bucket.ts).
 */
import fs from 'node:fs'
import path from 'node:path'
import { z } from 'zod'

/** How long before its hashing a file must have been last written for its hash to be recorded. */
export const RACY_MS = 2_000

/** The record beside out/: `<out>/../.cache/deploy-hashes.json`, with the build's own cache. */
export const hashCacheFileFor = (outDir: string) => path.join(path.dirname(path.resolve(outDir)), '.cache', 'deploy-hashes.json')

const entrySchema = z.object({ size: z.number(), mtimeMs: z.number(), dev: z.number(), ino: z.number(), sha256: z.string().regex(/^[0-9a-f]{64}$/) })
const cacheSchema = z.object({ version: z.literal(1), files: z.record(z.string(), entrySchema) })
type Entry = z.infer<typeof entrySchema>

export interface HashCache {
  /** The recorded sha256 of `key` if `stat` is what it was recorded with. */
  lookup(key: string, stat: fs.Stats): string | undefined
  /** `key`'s hash, read from its bytes at `readAt` (ms) with `stat` taken before. */
  record(key: string, stat: fs.Stats, sha256: string, readAt: number): void
  /** Writes what this deploy found (the keys it looked up or recorded), replacing the last record. */
  save(): void
}

function readEntries(file: string): Record<string, Entry> {
  try {
    return cacheSchema.parse(JSON.parse(fs.readFileSync(file, 'utf8'))).files
  } catch {
    return {}
  }
}

/** The record in `file` of the files of out/ (by object key); empty when it is missing or unreadable. */
export function openHashCache(file: string): HashCache {
  const last = readEntries(file)
  const next: Record<string, Entry> = {}
  return {
    lookup(key, stat) {
      const entry = last[key]
      if (!entry || entry.size !== stat.size || entry.mtimeMs !== stat.mtimeMs || entry.dev !== stat.dev || entry.ino !== stat.ino) return undefined
      next[key] = entry
      return entry.sha256
    },
    record(key, stat, sha256, readAt) {
      if (stat.mtimeMs <= readAt - RACY_MS) next[key] = { size: stat.size, mtimeMs: stat.mtimeMs, dev: stat.dev, ino: stat.ino, sha256 }
    },
    save() {
      const files = Object.fromEntries(Object.keys(next).sort().map((key) => [key, next[key]]))
      fs.mkdirSync(path.dirname(file), { recursive: true })
      // Written aside and renamed: a deploy stopped half way leaves the last record whole.
      const partial = `${file}.${process.pid}.partial`
      fs.writeFileSync(partial, JSON.stringify({ version: 1, files }))
      fs.renameSync(partial, file)
    },
  }
}
