/**
 * A page's bucket among `count`, from its route alone: the search shards
 * (pipeline/steps/assignSearchShards.ts) and the AI tools' full-text parts (./aiTools/fullTextParts.ts)
 * are cut this way, so an edit, an added or a removed page changes only its own bucket, and no
 * bucket is named after anything of the site.
 */
import crypto from 'node:crypto'

/** A route's hash: the first 32 bits of its sha256. */
export const routeHash = (route: string): number => parseInt(crypto.createHash('sha256').update(route).digest('hex').slice(0, 8), 16)

/** The bucket of `route` among `count`. */
export const routeBucket = (route: string, count: number): number => routeHash(route) % count
