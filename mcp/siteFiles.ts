/**
 * The site's files as the AI tools' server reads them: out/ on this machine, the site's bucket on
 * AWS (mcp/lambda.ts). Every read goes through `readerFiles`, which asks the same authority as the
 * edge whether the reader may fetch that file; a file they may not fetch reads as missing.
 */
import fs from 'node:fs'
import path from 'node:path'
import { decideAccess } from '../lib/access/decideAccess'
import type { CompiledAccess } from '../lib/access/compileAccess'
import { governingRoute, type AssetRoutes } from '../lib/access/governingRoute'
import { objectKeyFor } from '../lib/access/objectKey'
import type { AccessUser } from '../lib/access/types'

/** Reads one object of the site by its `/`-rooted key; null when there is none. */
export interface SiteFiles {
  read(key: string): Promise<Buffer | null>
}

/** out/ on this machine. */
export function localSiteFiles(outDir: string): SiteFiles {
  const root = path.resolve(outDir)
  return {
    async read(key) {
      const file = path.join(root, key)
      // Keys come from objectKeyFor, which never climbs out; the file system is the last place to be sure.
      if (!file.startsWith(root + path.sep)) return null
      try {
        return await fs.promises.readFile(file)
      } catch {
        return null
      }
    },
  }
}

/** Keeps each object once read: a deploy replaces the function along with the site (mcp/lambda.ts). */
export function memoSiteFiles(files: SiteFiles): SiteFiles {
  const cache = new Map<string, Promise<Buffer | null>>()
  return {
    read(key) {
      let hit = cache.get(key)
      if (!hit) {
        hit = files.read(key)
        cache.set(key, hit)
        hit.catch(() => cache.delete(key))
      }
      return hit
    },
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
