/**
 * The order keys that each audience's page-map fragment gives its `_meta` entries
 * (PageMapFragment['order'], lib/navigation/mergePageMaps.ts), so that a reader who holds several
 * audiences sees their entries interleaved in the writer's order.
 *
 * A key must not tell its reader what the fragment leaves out. An entry's place in the whole
 * `_meta` (0, 1, 3) counted the pages the reader may not open and said where they were. So the keys
 * of a folder are made entry by entry from what every reader of that entry may see:
 * - An entry's readers are the readers of the audiences of its pages (a folder's: of every page
 *   inside). Entries whose readers are the same form a class; a class whose readers all see a
 *   second class's entries is keyed after it, between the keys that class's entries already have.
 * - So an entry's key follows only from entries that each of its readers sees: adding, moving or
 *   editing an entry they may not see changes no key they receive.
 * - Two classes neither of whose readers see the other's entries (a folder given to a list of its
 *   own, beside the section's pages) still need one scale, for whoever holds both. The one keyed
 *   second is placed between the first's keys: its keys change when the first's entries change,
 *   and that is all its readers can learn. The first is the class of the folder's own rule, so the
 *   folder's main readers get keys that nothing hidden from them moves.
 * - Keys are spaced by hashes of the entries' names and start at an offset and scale hashed from
 *   the first class's names, so neither gaps nor values count or place anything: a reader who holds
 *   one key of a folder cannot tell where in the folder's range it lies.
 * - Names alone would let a reader test guesses, though: a class keyed between the keys of one its
 *   readers do not see could recompute those keys from a guessed list of the hidden names, and a
 *   match would confirm the list. So such a class's hashes (the one keyed first, and any other some
 *   later class's readers do not see) also take a secret: the digest of the text of one of its pages
 *   (secretPage), which those readers may not open. Its keys change when that page's text does.
 */
import crypto from 'node:crypto'
import type { CompiledAccess } from '../lib/access/compileAccess'
import { readersOfMayOpen } from '../lib/access/decideAccess'
import { normalisePath } from '../lib/access/normalisePath'
import type { PageMapFragment } from '../lib/navigation/mergePageMaps'
import { isFolder, isMetaData, pageRoutes, type RawItem } from '../lib/navigation/shapePageMap'
import { audienceIdOf, type AggregatePlan } from '../lib/access/planAggregates'
import { sha256 } from './files'
import { NamedError } from './content/contentError'

export class OrderKeyError extends NamedError {
  constructor(message: string) {
    super(`navigation order: ${message}`)
  }
}

/** A number in [0, 1) from a hash of `parts`: the same parts give the same number on every build. */
function unit(...parts: string[]): number {
  const digest = crypto.createHash('sha256').update(parts.join('\u0000')).digest()
  return digest.readUIntBE(0, 6) / 2 ** 48
}

interface Entry {
  key: string
  /** The pages at or under it, in the writer's order (canonical routes). */
  routes: string[]
  /** Its place in the folder's `_meta` (never shipped). */
  at: number
  /** The audiences of its pages, sorted; a key that names no page (a separator, a link) has the folder's. */
  audiences: string[]
}

/** Whether every reader of `lower` may see an entry of `upper`'s audiences (the rules decide; no list is read). */
type SeenBy = (lower: readonly string[], upper: readonly string[]) => boolean

/** A page's secret by its route: the digest of its text (ContentPage.digest), which only its readers could compute. */
export type PageSecret = (route: string) => string | undefined

/**
 * The keys of one folder's `_meta` entries (in the writer's order), made as the module comment
 * says. `folderAudience` is the audience of the folder's own route.
 */
function folderKeys(folderRoute: string, entries: readonly Entry[], seenBy: SeenBy, folderAudience: string, secretOf: PageSecret): Map<string, number> {
  // Classes: entries whose audiences are the same, or whose readers see each other's entries.
  const signatures = [...new Map(entries.map((entry) => [entry.audiences.join(' '), entry.audiences])).values()]
  const classes: string[][][] = []
  for (const signature of signatures) {
    const same = classes.find((group) => seenBy(group[0], signature) && seenBy(signature, group[0]))
    if (same) same.push(signature)
    else classes.push([signature])
  }
  const below = (a: string[][], b: string[][]) => seenBy(a[0], b[0]) && !seenBy(b[0], a[0])
  const ownsFolder = (group: string[][]) => group.some((signature) => signature.includes(folderAudience))
  const name = (group: string[][]) => group.map((signature) => signature.join(' ')).sort()[0]
  // The order the classes are keyed in: each next, of those no remaining class's readers are hidden from, the folder's own first, then by name.
  const ordered: string[][][] = []
  const remaining = [...classes]
  while (remaining.length > 0) {
    const maximal = remaining.filter((group) => !remaining.some((other) => other !== group && below(group, other)))
    const ready = maximal.length > 0 ? maximal : [...remaining]
    ready.sort((a, b) => Number(ownsFolder(b)) - Number(ownsFolder(a)) || (name(a) < name(b) ? -1 : name(a) > name(b) ? 1 : 0))
    ordered.push(ready[0])
    remaining.splice(remaining.indexOf(ready[0]), 1)
  }
  const keys = new Map<string, number>()
  let range: { lo: number; hi: number } | null = null
  ordered.forEach((group, at) => {
    const members = new Set(group.map((signature) => signature.join(' ')))
    const own = entries.filter((entry) => members.has(entry.audiences.join(' ')))
    const hidden = ordered.slice(at + 1).some((later) => !seenBy(later[0], group[0]))
    const keyPage = hidden ? secretPage(own.flatMap((entry) => entry.routes)) : undefined
    const secret = keyPage === undefined ? [] : [secretOf(keyPage) ?? missingSecret(keyPage)]
    if (range === null) {
      const names = own.map((entry) => entry.key).join('\u0000')
      const lo = Math.floor(unit(folderRoute, 'offset', names, ...secret) * 2 ** 30)
      range = { lo, hi: lo + Math.floor(2 ** 20 * (1 + unit(folderRoute, 'scale', names, ...secret))) }
    }
    placeBetween(folderRoute, own, entries, keys, range, secret)
  })
  return keys
}

/**
 * The page whose text keys a class's order: the one whose route hashes lowest, not the first (often
 * the section's intro, edited most), so that an edit seldom changes the keys.
 */
function secretPage(routes: readonly string[]): string | undefined {
  let chosen: { route: string; hash: string } | undefined
  for (const route of routes) {
    const hash = sha256(route)
    if (!chosen || hash < chosen.hash) chosen = { route, hash }
  }
  return chosen?.route
}

function missingSecret(route: string): never {
  throw new OrderKeyError(`no text is known of ${route}, whose digest keys its folder's order; the page map and the content source disagree`)
}

/**
 * Gives `own` keys between the keys the folder's entries already have, each run of them between
 * two keyed neighbours (or the range's ends) spaced by hashes of their names.
 */
function placeBetween(folderRoute: string, own: readonly Entry[], entries: readonly Entry[], keys: Map<string, number>, range: { lo: number; hi: number }, secret: readonly string[]): void {
  const keyedAround = (at: number, step: -1 | 1): number => {
    for (let index = at + step; index >= 0 && index < entries.length; index += step) {
      const key = keys.get(entries[index].key)
      if (key !== undefined) return key
    }
    return step < 0 ? range.lo : range.hi
  }
  let start = 0
  while (start < own.length) {
    // A run: entries of the class with no keyed entry between them.
    const lo = keyedAround(own[start].at, -1)
    const hi = keyedAround(own[start].at, 1)
    let end = start + 1
    while (end < own.length && keyedAround(own[end].at, -1) === lo) end++
    const run = own.slice(start, end)
    const weights = [...run.map((entry) => entry.key), `${run[run.length - 1].key}\u0000end`].map((part) => 0.25 + unit(folderRoute, 'gap', part, ...secret))
    const total = weights.reduce((sum, weight) => sum + weight, 0)
    let sum = 0
    let previous = lo
    run.forEach((entry, index) => {
      sum += weights[index]
      const raw = lo + ((hi - lo) * sum) / total
      const next = index + 1 < run.length ? lo + ((hi - lo) * (sum + weights[index + 1])) / total : hi
      const key = shortest(raw, previous, next)
      if (!(key > previous && key < hi)) throw new OrderKeyError(`${folderRoute}: no room for a key between ${previous} and ${hi} (entry "${entry.key}"); the folder nests too many audiences`)
      keys.set(entry.key, key)
      previous = key
    })
    start = end
  }
}

/** The number with the fewest decimals strictly between `above` and `below`, near `value`: shorter fragments. */
function shortest(value: number, above: number, below: number): number {
  for (let decimals = 0; decimals <= 12; decimals++) {
    const rounded = Number(value.toFixed(decimals))
    if (rounded > above && rounded < below) return rounded
  }
  return value
}

/** The pages at or under a `_meta` key's items (a folder and the page of the same name alike), in the writer's order. */
function entryRoutes(items: readonly RawItem[], key: string): string[] {
  const named = items.filter((item) => 'name' in item && item.name === key)
  return pageRoutes(named).flatMap((route) => normalisePath(route) ?? [])
}

/**
 * The order keys of every folder of `shaped` (the whole page map, with its whole `_meta` on each
 * level), by folder route (`/` at the top), as the module comment says.
 */
export function navigationOrder(shaped: readonly RawItem[], plan: AggregatePlan, access: CompiledAccess, secretOf: PageSecret): PageMapFragment['order'] {
  const governedBy = new Map(plan.audiences.map((audience) => [audience.id, audience.governedBy]))
  const sees = new Map<string, boolean>()
  // Every reader of audience `from` may open a page of audience `to`.
  const audienceSees = (from: string, to: string) => {
    const memo = `${from} ${to}`
    let seen = sees.get(memo)
    if (seen === undefined) {
      const [source, target] = [governedBy.get(from), governedBy.get(to)]
      if (source === undefined || target === undefined) throw new OrderKeyError(`audience "${source === undefined ? from : to}" is not in the plan; the page map and the plan disagree`)
      sees.set(memo, (seen = from === to || readersOfMayOpen(access, source, target)))
    }
    return seen
  }
  const seenBy: SeenBy = (lower, upper) => lower.every((from) => upper.some((to) => audienceSees(from, to)))
  const order: PageMapFragment['order'] = {}
  const visit = (items: readonly RawItem[], folderRoute: string) => {
    for (const item of items) {
      if (isMetaData(item)) {
        const all = [...new Set(pageRoutes(items).flatMap((route) => normalisePath(route) ?? []).map((route) => audienceIdOf(access, route)))].sort()
        const entries = Object.keys(item.data).map((key, at): Entry => {
          const routes = entryRoutes(items, key)
          const audiences = [...new Set(routes.map((route) => audienceIdOf(access, route)))].sort()
          return { key, routes, at, audiences: audiences.length > 0 ? audiences : all }
        })
        const folder = normalisePath(folderRoute)
        const folderAudience = folder === null ? '' : audienceIdOf(access, folder)
        order[folderRoute] = Object.fromEntries(folderKeys(folderRoute, entries, seenBy, folderAudience, secretOf))
      } else if (isFolder(item)) visit(item.children, item.route)
    }
  }
  visit(shaped, '/')
  return order
}
