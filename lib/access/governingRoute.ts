import { normalisePath } from './normalisePath'

/**
 * Which route's rule governs a file of the static export. Build output that belongs to a page
 * (its JavaScript chunk, shared chunks, CSS, the files the sign-in page needs) is mapped to a
 * route at build time (pipeline/steps/assetRoutes.ts, run by postbuild.ts); everything else is governed by its
 * own path, so unknown files fall to the default rule (full access). Default deny.
 */
export type AssetRoutes = Readonly<Record<string, string>>

const PAGE_CHUNK = /^\/_next\/static\/chunks\/pages(\/.*?)-[0-9a-f]{8,}\.js$/

export function governingRoute(objectKey: string, assetRoutes: AssetRoutes): string | null {
  const mapped = assetRoutes[objectKey]
  if (mapped !== undefined) return mapped
  // A page's own chunk is governed by that page even if the manifest missed it.
  const pageChunk = PAGE_CHUNK.exec(objectKey)
  if (pageChunk) return normalisePath(pageChunk[1] === '/index' ? '/' : pageChunk[1])
  return normalisePath(objectKey)
}
