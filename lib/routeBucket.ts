/**
 * A page's bucket among `count`, from its route alone: the search shards
 * (pipeline/steps/assignSearchShards.ts) and the AI tools' full-text parts (./aiTools/fullTextParts.ts)
 * are cut this way, so an edit, an added or a removed page changes only its own bucket, and no
 * bucket is named after anything of the site.
 */
import crypto from 'node:crypto'

const hashes = new Map<string, number>()

/** A route's hash: the first 32 bits of its sha256; kept, since the plan asks it of each route twice (its full-text part and its search shard). */
export function routeHash(route: string): number {
  let hash = hashes.get(route)
  if (hash === undefined) hashes.set(route, (hash = crypto.createHash('sha256').update(route).digest().readUInt32BE(0)))
  return hash
}

/** The bucket of `route` among `count`. */
export const routeBucket = (route: string, count: number): number => routeHash(route) % count
