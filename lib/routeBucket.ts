/**
 * A page's bucket among `count`, from its route alone: the search shards
 * (pipeline/steps/assignSearchShards.ts) and the AI tools' full-text parts (./aiTools/fullTextParts.ts)
 * are cut this way, so an edit, an added or a removed page changes only its own bucket, and no
 * bucket is named after anything of the site.
 */
import crypto from 'node:crypto'

const hashes = new Map<string, number>()

/** The first 32 bits of a sha256: in one call where Node has it (20.12), which takes a fifth of a Hash object's time. */
const first32Bits: (route: string) => number =
  typeof crypto.hash === 'function' ? (route) => parseInt(crypto.hash('sha256', route, 'hex').slice(0, 8), 16) : (route) => crypto.createHash('sha256').update(route).digest().readUInt32BE(0)

/** A route's hash: the first 32 bits of its sha256; kept, since the plan asks it of each route twice (its full-text part and its search shard). */
export function routeHash(route: string): number {
  let hash = hashes.get(route)
  if (hash === undefined) hashes.set(route, (hash = first32Bits(route)))
  return hash
}

/** The bucket of `route` among `count`. */
export const routeBucket = (route: string, count: number): number => routeHash(route) % count
