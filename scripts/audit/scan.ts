/**
 * What a served file tells its reader that it should not: other people's usernames, routes of
 * sections the reader may not open, and (for a protected file) a Cache-Control that lets a shared
 * cache keep it. The leak audit of `npm test` and `npm run audit:live` both scan with this.
 */
import zlib from 'node:zlib'
import { sharedCacheable } from '../../edge/cacheHeaders'

/** A section's routes in the spellings a file may hold them: plain, JSON-escaped, percent-encoded. */
export function sectionRoutePattern(id: string): RegExp {
  const slash = '(?:/|\\\\?u002[Ff]|%2[Ff])'
  return new RegExp(`${slash}docs${slash}${id.replace(/-/g, '\\-')}(?![A-Za-z0-9_-])`)
}

/** A username as a whole token, as a list or a view would hold it (not inside a longer word). */
export const usernamePattern = (name: string) => new RegExp(`(?<![A-Za-z0-9_.@-])${name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?![A-Za-z0-9_@-])`)

/** A response body as text; Pagefind's gzip index files are read decompressed, as its engine reads them. */
export function readBody(bytes: Buffer): string {
  const text = bytes[0] === 0x1f && bytes[1] === 0x8b ? zlib.gunzipSync(bytes) : bytes
  return text.toString('latin1')
}

export interface ScanContext {
  /** The reader's own username (it may read it), or null for an anonymous visitor. */
  role: string | null
  /** Usernames that no one but their owner may read. */
  usernames: readonly string[]
  /** Section ids, and whether the role may open each. */
  sections: readonly string[]
  mayOpenSection: (id: string) => boolean
}

export interface RoleFindings {
  usernamesLeaked: string[]
  routesLeaked: string[]
  sharedCacheable: string[]
  /** Sections whose routes the role found where it may: proves the route search finds routes at all. */
  ownRoutesSeen: Set<string>
}

export const noFindings = (): RoleFindings => ({ usernamesLeaked: [], routesLeaked: [], sharedCacheable: [], ownRoutesSeen: new Set() })

export interface ServedFile {
  key: string
  status: number
  cacheControl: string | null
  body: string
  /** Whether the file may reach only some readers (so no shared cache may keep it). */
  protected: boolean
}

/** Adds what one response tells its reader that it should not to `findings`. */
export function scanServed(file: ServedFile, context: ScanContext, findings: RoleFindings): void {
  if (file.protected && sharedCacheable(file.cacheControl)) findings.sharedCacheable.push(`${file.key} (${file.status}, ${file.cacheControl})`)
  if (file.status !== 200) return
  for (const name of context.usernames) {
    if (name !== context.role && usernamePattern(name).test(file.body)) findings.usernamesLeaked.push(`${name} in ${file.key}`)
  }
  for (const id of context.sections) {
    if (!sectionRoutePattern(id).test(file.body)) continue
    if (context.mayOpenSection(id)) findings.ownRoutesSeen.add(id)
    else findings.routesLeaked.push(`/docs/${id} in ${file.key}`)
  }
}
