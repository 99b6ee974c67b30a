/**
 * How an audience's full text is cut into parts of at most about FULL_TEXT_PART_BYTES, so that a
 * model can take one whole, and an edit changes one part (the one its page is in) rather than the
 * whole text, which grows with the audience's pages.
 *
 * A page's part is its route's bucket among the part count, as its search shard is
 * (../routeBucket.ts): it does not depend on the other pages, so an edit, an added or
 * a removed page changes only its own part. The count is a power of two, the smallest that keeps
 * the average part at most half the bound and every part of several pages within it. So the count
 * changes (and every part of the audience with it) only when its text doubles or halves, or when
 * one part overflows despite the headroom: rewriting all parts then costs, over the text's growth,
 * a constant share of what was added, as a doubling array does. One part holds the whole text
 * while it fits the bound. A part is over the bound only when one page alone is (it is not cut).
 */
import { routeHash } from '../routeBucket'

/** The bound on a part: half a megabyte, a few hundred pages, which a model with a large context can take whole. */
export const FULL_TEXT_PART_BYTES = 500_000

export interface FullTextPage {
  route: string
  /** The most bytes it takes in a part. */
  bytes: number
}

/** Thrown when the bound leaves no room for a part's header. */
export class FullTextBoundError extends Error {
  constructor(bound: number) {
    super(`full text parts: a bound of ${bound} bytes is no larger than a part's header`)
    this.name = 'FullTextBoundError'
  }
}

export interface FullTextCut {
  /** How many parts the hash cuts into: a part keeps its number whatever the others hold. */
  count: number
  /** The parts some page falls in, by number (from 0), each with its pages in the given order. */
  parts: Array<{ part: number; routes: string[] }>
}

/** The pages cut into parts. `headerBytes(count)` is the most bytes a part's header takes when there are `count`. */
export function cutFullText(pages: readonly FullTextPage[], headerBytes: (count: number) => number, bound = FULL_TEXT_PART_BYTES): FullTextCut {
  const total = pages.reduce((sum, page) => sum + page.bytes, 0)
  if (pages.length <= 1 || headerBytes(1) + total <= bound) return { count: 1, parts: [{ part: 0, routes: pages.map((page) => page.route) }] }
  if (headerBytes(2 * pages.length) >= bound) throw new FullTextBoundError(bound)
  let count = 2
  while (count * (bound / 2) < total) count *= 2
  // Each route's hash once, whatever the count tried.
  const hashes = pages.map((page) => routeHash(page.route))
  // Past four parts a page, a part of several pages over the bound is left (vanishingly rare with the headroom).
  for (;;) {
    const parts = Array.from({ length: count }, () => ({ routes: [] as string[], bytes: headerBytes(count) }))
    for (const [i, page] of pages.entries()) {
      const part = parts[hashes[i] % count]
      part.routes.push(page.route)
      part.bytes += page.bytes
    }
    const fits = parts.every((part) => part.routes.length <= 1 || part.bytes <= bound)
    if (fits || count >= 4 * pages.length) return { count, parts: parts.flatMap(({ routes }, part) => (routes.length > 0 ? [{ part, routes }] : [])) }
    count *= 2
  }
}
