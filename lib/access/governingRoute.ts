import { normalisePath } from './normalisePath'
import { routeOfDataFile, routeOfPageName } from './pageFiles'
import { BUILD_FILE_FOLDERS, pathOfMarkdownKey } from '../pathFormats'

/**
 * Which route's rule governs a file of the static export. Build output that belongs to a page
 * (its JavaScript chunk, shared chunks, CSS, the files the sign-in page needs) is mapped to a
 * route at build time (pipeline/steps/assetRoutes.ts, run by routesStep.ts), and so are the folders
 * of build code (an earlier build's, kept for open tabs); everything else is governed by its own
 * path, so unknown files fall to the fallback rule (access.config.ts). Default deny.
 *
 * A key ending in `/` is a folder: it governs every file below it that no key names exactly, the
 * deepest such folder winning. Files whose names change with the pages they hold (the hashed
 * fragments of an audience's search index) are decided by their audience's folder, so the map,
 * and the edge function that bakes it, stay the same when a writer edits, adds or retitles a page.
 */
export type AssetRoutes = Readonly<Record<string, string>>

/** A page chunk's name that is no page's own: a dynamic route's, or Next's `_app` and `_error`. */
const SHARED_PAGE_CODE = /\[|\/_/
const PAGE_CHUNK = new RegExp(`^${BUILD_FILE_FOLDERS.pageChunks.slice(0, -1)}(/.*?)-[0-9a-f]{8,}\\.js$`)

/** Whether an asset-route key is a folder's: it governs the files below it (see AssetRoutes). */
export const isFolderKey = (key: string) => key.endsWith('/')

/** What the decision reads of a map beyond its keys, made once per map. */
interface MapIndex {
  /**
   * The map's keys by their lowercased spelling. A file the map puts under another rule than its
   * own path's (a page's Markdown under an exact rule) must keep that rule in every spelling: on a
   * case-insensitive file system `/A.MD` serves `/a.md`, while the fallback below would decide on
   * the path's own rule.
   */
  keyByLowercase: ReadonlyMap<string, string>
  /** The length of the longest folder key: no folder above a key is longer, whatever the key's depth. */
  longestFolder: number
}
const indexes = new WeakMap<AssetRoutes, MapIndex>()
function indexOf(assetRoutes: AssetRoutes): MapIndex {
  let index = indexes.get(assetRoutes)
  if (!index) {
    const keys = Object.keys(assetRoutes)
    index = { keyByLowercase: new Map(keys.map((key) => [key.toLowerCase(), key])), longestFolder: keys.reduce((most, key) => (isFolderKey(key) ? Math.max(most, key.length) : most), 0) }
    indexes.set(assetRoutes, index)
  }
  return index
}

/** The route of `key` in the map, in its own spelling or another case's. */
function routeOfKey(key: string, assetRoutes: AssetRoutes): string | undefined {
  const spelt = assetRoutes[key] === undefined ? indexOf(assetRoutes).keyByLowercase.get(key.toLowerCase()) : key
  return spelt === undefined ? undefined : assetRoutes[spelt]
}

/**
 * What `found` gives for the deepest folder above `objectKey` (`/a/b/` before `/a/`) it gives
 * anything for, among folders no longer than the map's longest folder key: a path of thousands of
 * segments, which anyone may ask for, costs a lookup per folder that could be a key, not one per segment.
 */
function deepestFolder<T>(objectKey: string, assetRoutes: AssetRoutes, found: (folder: string) => T | undefined): T | undefined {
  const longest = indexOf(assetRoutes).longestFolder
  for (let end = objectKey.lastIndexOf('/', Math.min(objectKey.length - 2, longest - 1)); end > 0; end = objectKey.lastIndexOf('/', end - 1)) {
    const value = found(objectKey.slice(0, end + 1))
    if (value !== undefined) return value
  }
  return undefined
}

/** The route of the deepest folder key above `objectKey`, in any spelling of its case. */
const folderRoute = (objectKey: string, assetRoutes: AssetRoutes): string | undefined =>
  deepestFolder(objectKey, assetRoutes, (folder) => routeOfKey(folder, assetRoutes))

/**
 * The files of out/ (`files`, object keys) that the map decides by another file's rule: named like
 * a mapped key, or inside a mapped folder, in another case only. governingRoute gives such a file
 * that key's route (see MapIndex), so a writer's `public/LOGO.svg` would be served by the
 * sign-in page's rule to anyone: the build refuses them (pipeline/steps/routesStep.ts).
 */
export function caseTwins(files: ReadonlySet<string>, assetRoutes: AssetRoutes): { file: string; twin: string }[] {
  const keys = Object.keys(assetRoutes)
  const byLowercase = indexOf(assetRoutes).keyByLowercase
  // A key in its own spelling is the file's (or folder's) own: no twin, and nothing above it decides.
  const twinOf = (file: string): string | undefined =>
    file in assetRoutes ? undefined : (byLowercase.get(file.toLowerCase()) ?? deepestFolder(file, assetRoutes, (folder) => (folder in assetRoutes ? null : byLowercase.get(folder.toLowerCase()))) ?? undefined)
  // A twin differs from its key in a capital letter: the file has one, or the key has (few do).
  const CAPITAL = /[A-Z]/
  const candidates = new Set<string>()
  for (const file of files) if (CAPITAL.test(file)) candidates.add(file)
  for (const key of keys) {
    if (!CAPITAL.test(key)) continue
    const lower = key.toLowerCase()
    if (!isFolderKey(key)) {
      if (files.has(lower)) candidates.add(lower)
    } else for (const file of files) if (file.startsWith(lower)) candidates.add(file)
  }
  return [...candidates].flatMap((file) => {
    const twin = twinOf(file)
    return twin === undefined ? [] : [{ file, twin }]
  })
}

export function governingRoute(objectKey: string, assetRoutes: AssetRoutes): string | null {
  const mapped = routeOfKey(objectKey, assetRoutes)
  if (mapped !== undefined) return mapped
  // A page's own chunk is governed by that page even if the map missed it (an earlier build's, below
  // the folder of build code). The docs route's (`[[...slug]]`) and Next's `_app` and `_error` are
  // code every page loads, which the map, and the folder's key, give shared code's rule.
  const chunk = PAGE_CHUNK.exec(objectKey)?.[1]
  if (chunk !== undefined && !SHARED_PAGE_CODE.test(chunk)) return routeOfPageName(chunk)
  const folder = folderRoute(objectKey, assetRoutes)
  if (folder !== undefined) return folder
  // So are its data (which Next's router fetches to move to the page in the browser), the page
  // itself as JSON, and its Markdown (`<route>.md`), the page as text: a folder's index page's lies
  // outside the folder a prefix rule governs, and no baked entry, which the rules' fingerprint
  // leaves out, is needed for it.
  return routeOfDataFile(objectKey) ?? normalisePath(pathOfMarkdownKey(objectKey))
}
