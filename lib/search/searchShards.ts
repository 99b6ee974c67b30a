/**
 * How an audience's search index is cut into shards, as the build writes them
 * (pipeline/steps/buildSearchIndexes.ts) and the search box and the AI tools' server read them
 * (lib/search/searchClient.ts): each shard is a Pagefind bundle of its own in a numbered folder
 * under the audience's index folder (`<basePath>0/`, `<basePath>1/`, …),
 * `<basePath>shards.json` lists the shards that exist, as a JSON array of their numbers, and
 * `<basePath>pagefind.js` is the one copy of Pagefind's script (the same file in every bundle).
 *
 * An edit re-indexes only its page's shard; the other shards come from the last build's cache.
 *
 * What a reader learns from this: the list and the folder names are numbers, and how many there
 * are follows from how many pages the audience has. A reader who may load the audience's index may
 * open every one of its pages, so nothing here tells them of a page they may not open. Everything
 * lies under the audience's folder, which the edge decides as a whole.
 */

/** The file in an audience's index folder that lists its shards. */
export const SHARD_LIST_FILE = 'shards.json'

/** Pagefind's script, in the audience's index folder. */
export const PAGEFIND_SCRIPT = 'pagefind.js'

/** Thrown when a shard list is not an array of shard numbers; names the list. */
export class ShardListError extends Error {
  constructor(url: string, detail: string) {
    super(`search shard list ${url}: ${detail}`)
    this.name = 'ShardListError'
  }
}

/** A shard's folder name: its number. */
export const shardFolder = (shard: number) => String(shard)

/**
 * The base paths of the shards a shard list names, in its order. Only folder numbers are
 * accepted, so nothing in the file can make a reader's browser request anything outside the
 * audience's index folder.
 */
export function shardBasePaths(basePath: string, list: unknown): string[] {
  const url = `${basePath}${SHARD_LIST_FILE}`
  if (!Array.isArray(list) || list.length === 0) throw new ShardListError(url, 'expected a non-empty array of shard numbers')
  return list.map((shard) => {
    if (!Number.isSafeInteger(shard) || (shard as number) < 0) throw new ShardListError(url, `${JSON.stringify(shard)} is not a shard number`)
    return `${basePath}${shardFolder(shard as number)}/`
  })
}
