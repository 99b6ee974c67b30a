/**
 * Which shard of its audience's search index each page goes to (the folders and the list are named
 * in lib/search/searchShards.ts). The assignment is stable: a page's shard depends only on its
 * route and on how many shards its audience has, so an edit of a page's text changes one shard,
 * and adding or removing a page changes one shard too unless it moves the count across a multiple
 * of SHARD_PAGES (then every shard of that audience is indexed again, once).
 *
 * Shards are cut by a hash of the route, not by folder: each shard is then a fair sample of the
 * audience (Pagefind ranks within an index by its own word statistics, so like shards rank alike),
 * a large folder cannot make one large shard, and no shard is named after anything of the site.
 */
import { routeBucket } from '../../lib/routeBucket'
import { NamedError } from '../content/contentError'

/**
 * The most pages a shard holds on average. Indexing costs Pagefind a fixed amount an index plus a
 * little a page, so a shard of this size is indexed again quickly after an edit, while every shard
 * a reader holds costs a query one more word-list file (the figures: docs/benchmarks.md).
 */
export const SHARD_PAGES = 500

/** The environment variable that sets the build's shard size instead of SHARD_PAGES. */
export const SHARD_PAGES_ENV = 'DOCS_SEARCH_SHARD_PAGES'

/** Thrown when DOCS_SEARCH_SHARD_PAGES is not a whole number of pages. */
export class ShardPagesError extends NamedError {
  constructor(value: string) {
    super(`${SHARD_PAGES_ENV} must be a whole number of pages, at least 1; it is ${JSON.stringify(value)}`)
  }
}

/**
 * The build's shard size: SHARD_PAGES, or the number in DOCS_SEARCH_SHARD_PAGES. The audit site
 * (scripts/audit/buildAuditSite.ts) sets a small one, so its audiences, far smaller than the real
 * site's, are cut into several shards and the browser tests search across them.
 */
export function buildShardPages(env: Record<string, string | undefined> = process.env): number {
  const value = env[SHARD_PAGES_ENV]
  if (value === undefined || value === '') return SHARD_PAGES
  if (!/^[1-9][0-9]*$/.test(value)) throw new ShardPagesError(value)
  return Number(value)
}

export interface Shard {
  shard: number
  /** Its pages, in the audience's order. */
  pages: string[]
}

/** How many shards an audience of `pages` pages has. */
export const shardCount = (pages: number, shardPages = SHARD_PAGES) => Math.max(1, Math.ceil(pages / shardPages))

/** The shard of `route` among `count`. */
export const shardOf = routeBucket

/** The audience's pages cut into its shards, in shard order; a shard that gets no page is left out. */
export function shardGroup(pages: readonly string[], shardPages = SHARD_PAGES): Shard[] {
  const count = shardCount(pages.length, shardPages)
  const shards: Shard[] = Array.from({ length: count }, (_, shard) => ({ shard, pages: [] }))
  for (const route of pages) shards[shardOf(route, count)].pages.push(route)
  return shards.filter((shard) => shard.pages.length > 0)
}
