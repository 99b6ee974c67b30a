/**
 * The site's files as the AI tools' server reads them: out/ on this machine, the site's bucket on
 * AWS (mcp/lambda.ts). Every read goes through `readerFiles`, which asks the same authority as the
 * edge whether the reader may fetch that file; a file they may not fetch reads as missing.
 */
import fs from 'node:fs'
import path from 'node:path'
import { promisify } from 'node:util'
import { decideAccess } from '../lib/access/decideAccess'
import type { CompiledAccess } from '../lib/access/compileAccess'
import { governingRoute, type AssetRoutes } from '../lib/access/governingRoute'
import { objectKeyFor } from '../lib/access/objectKey'
import type { AccessUser } from '../lib/access/types'

/** Reads one object of the site by its `/`-rooted key; null when there is none. */
export interface SiteFiles {
  read(key: string): Promise<Buffer | null>
}

/** A file of out/ as read: its bytes, and its time (what a cache of it is keyed by). */
export interface OutFile {
  body: Buffer
  mtimeMs: number
}

/** The name the file system keeps for a path (the case it was written with, on a Mac), links followed. */
const storedName = promisify(fs.realpath.native)

/**
 * Reads out/'s files by their `/`-rooted keys, as the bucket's objects are read: a file only under
 * its own name, since S3 keys are exact. A case-insensitive file system (a Mac's) finds `ſecret/`
 * as `secret/`, a folder whose rule the authority did not apply to `ſecret/`. Null when there is none.
 */
export function outFileReader(outDir: string): (key: string) => Promise<OutFile | null> {
  const root = path.resolve(outDir)
  let realRoot: Promise<string> | undefined
  return async (key) => {
    const file = path.join(root, key)
    // Keys come from objectKeyFor, which never climbs out; the file system is the last place to be sure.
    if (!file.startsWith(root + path.sep)) return null
    const stats = await fs.promises.stat(file).catch(() => null)
    if (!stats?.isFile()) return null
    realRoot ??= storedName(root)
    if ((await storedName(file).catch(() => null)) !== path.join(await realRoot, key)) return null
    const body = await fs.promises.readFile(file).catch(() => null)
    return body && { body, mtimeMs: stats.mtimeMs }
  }
}

/** out/ on this machine. */
export function localSiteFiles(outDir: string): SiteFiles {
  const read = outFileReader(outDir)
  return { read: async (key) => (await read(key))?.body ?? null }
}

/**
 * How many bytes of the site's objects a warm instance keeps: 64 MiB, a sixteenth of the function's
 * 1024 MB (infra/lib/mcp-origin.ts). The rest is for what cannot be bounded here: Node and the
 * bundle, the sign-in's library, and the Pagefind instances (mcp/searchDocs.ts), whose memory is
 * never given back. The objects the server reads of the shipped site (Markdown, page catalogs,
 * search bundles) come to some kilobytes a page (docs/benchmarks.md), so a warm instance keeps all of a site of a few thousand pages, and of a larger one its most read.
 */
export const MEMO_MAX_BYTES = 64 * 1024 * 1024

/**
 * What an entry costs beyond its object's bytes: the key (UTF-16) and, as a round figure, the
 * map's entry and the Buffer's own object. Counting it means many tiny objects fill the cache too.
 */
const ENTRY_OVERHEAD_BYTES = 200

/** The cache's own accounting, for tests and logs. */
export interface MemoUsage {
  entries: number
  /** The bytes charged for what it keeps now: never above its bound. */
  bytes: number
  maxBytes: number
}

export interface MemoSiteFiles extends SiteFiles {
  usage(): MemoUsage
}

/**
 * Keeps objects once read, up to `maxBytes` (least recently read goes first), for one deploy of the
 * site: mcp/deployedSite.ts makes a new one when the bucket holds another. A miss is never kept:
 * the keys a reader can make the server ask for are theirs to choose, and a missing one is rare
 * (get_page reads only pages its catalogs name, mcp/readerDocs.ts). An object larger than a
 * quarter of the bound is read each time rather than push out most of the cache. Reads of one
 * key at the same time share one read of the store.
 */
export function memoSiteFiles(files: SiteFiles, maxBytes: number = MEMO_MAX_BYTES): MemoSiteFiles {
  // A Map iterates in insertion order: re-inserting on each hit puts the least recently read first.
  const kept = new Map<string, { body: Buffer; cost: number }>()
  const pending = new Map<string, Promise<Buffer | null>>()
  let bytes = 0
  const keep = (key: string, body: Buffer) => {
    const cost = body.length + key.length * 2 + ENTRY_OVERHEAD_BYTES
    if (cost > maxBytes / 4 || kept.has(key)) return
    for (const [oldest, entry] of kept) {
      if (bytes + cost <= maxBytes) break
      kept.delete(oldest)
      bytes -= entry.cost
    }
    kept.set(key, { body, cost })
    bytes += cost
  }
  return {
    read(key) {
      const hit = kept.get(key)
      if (hit) {
        kept.delete(key)
        kept.set(key, hit)
        return Promise.resolve(hit.body)
      }
      let reading = pending.get(key)
      if (!reading) {
        reading = files.read(key).then((body) => {
          if (body !== null) keep(key, body)
          return body
        })
        pending.set(key, reading)
        // Settled either way, the next read asks the cache or the store again (a failure is not kept).
        const done = () => pending.delete(key)
        reading.then(done, done)
      }
      return reading
    },
    usage: () => ({ entries: kept.size, bytes, maxBytes }),
  }
}

/**
 * The files one reader may fetch: each key is decided as the edge decides a request for it
 * (its object key, the route whose rule governs it, the reader), so the server cannot read for a
 * reader what their browser could not.
 */
export function readerFiles(files: SiteFiles, access: CompiledAccess, assetRoutes: AssetRoutes, user: AccessUser): SiteFiles {
  return {
    async read(key) {
      const objectKey = objectKeyFor(key)
      const route = objectKey === null ? null : governingRoute(objectKey, assetRoutes)
      if (objectKey === null || route === null || decideAccess(access, route, user) !== 'allow') return null
      return files.read(objectKey)
    },
  }
}
