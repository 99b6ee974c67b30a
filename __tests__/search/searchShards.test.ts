/**
 * @jest-environment node
 *
 * An audience's search index cut into shards (pipeline/steps/assignSearchShards.ts): each page in one
 * shard of its own audience, the same one from build to build; a one-page edit indexes that page's
 * shard only; and a search, run with the search box's code over the built files, finds the pages
 * of every shard.
 */
import { execFileSync } from 'node:child_process'
import crypto from 'node:crypto'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { generatedPlan, generatedSite } from '../../bench/search'
import { access } from '../../lib/access'
import { groupSearchRecords } from '../fixtures/searchGroups'
import { routeHash } from '../../lib/routeBucket'
import { SHARD_LIST_FILE } from '../../lib/search/searchShards'
import type { IndexStats } from '../../pipeline/steps/buildSearchIndexes'
import { buildShardPages, SHARD_PAGES, SHARD_PAGES_ENV, shardCount, shardGroup } from '../../pipeline/steps/assignSearchShards'

jest.setTimeout(180_000)

const { data } = generatedSite(2000)
const { groups } = groupSearchRecords(data, generatedPlan(data), access)

test('every page of an audience is in exactly one of its shards, and shards hold about SHARD_PAGES pages', () => {
  for (const group of groups) {
    const shards = shardGroup(group.pages)
    expect(shards.flatMap((shard) => shard.pages).sort()).toEqual([...group.pages].sort())
    for (const shard of shards) expect(shard.pages.length).toBeLessThan(SHARD_PAGES * 1.3)
    expect(shards.length).toBe(shardCount(group.pages.length))
  }
  expect(Math.max(...groups.map((group) => shardGroup(group.pages).length))).toBeGreaterThan(1)
})

test("a page keeps its shard when another page's text changes, or when a page joins without changing the count", () => {
  const internal = groups.find((group) => group.spec.id === 'internal')!
  const shardOfPage = (shards: ReturnType<typeof shardGroup>) => new Map(shards.flatMap((shard) => shard.pages.map((route) => [route, shard.shard] as const)))
  const before = shardOfPage(shardGroup(internal.pages))
  const joined = [...internal.pages, '/docs/internal/generated/new-page']
  expect(shardCount(joined.length)).toBe(shardCount(internal.pages.length))
  const after = shardOfPage(shardGroup(joined))
  for (const [route, shard] of before) expect(after.get(route)).toBe(shard)
})

test("a route's bucket is the first 32 bits of its sha256, on any Node: a deployed site's shards and full-text parts stay where they are across an upgrade", () => {
  const routes = ['/', '/docs/leads/a', '/docs/internal/Ünïcode page', ...Object.keys(data).slice(0, 50)]
  for (const route of routes) expect(routeHash(route)).toBe(crypto.createHash('sha256').update(route).digest().readUInt32BE(0))
  expect(routeHash('/docs/leads/a')).toBe(0x1db5930f)
})

test('the build cuts shards of SHARD_PAGES pages unless DOCS_SEARCH_SHARD_PAGES says otherwise, and refuses a value that is not a whole number of pages', () => {
  expect(buildShardPages({})).toBe(SHARD_PAGES)
  expect(buildShardPages({ [SHARD_PAGES_ENV]: '30' })).toBe(30)
  for (const value of ['0', '-5', '2.5', 'many', '030']) {
    expect(() => buildShardPages({ [SHARD_PAGES_ENV]: value })).toThrow(`DOCS_SEARCH_SHARD_PAGES must be a whole number of pages, at least 1; it is "${value}"`)
  }
})

describe('built with Pagefind: two one-page edits, each in another shard of the internal index', () => {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'search-shards-'))
  /** One build: its indexes, how many pages' search data it read, and which it read again (to index them). */
  interface Built {
    stats: IndexStats[]
    read: number
    readAgain: string[]
  }
  interface Scenario {
    basePath: string
    pages: number
    edited: string[]
    shards: number[]
    /** The pages of each edited page's shard. */
    shardPages: string[][]
    removed: string
    /** The edited pages' shard folders, under the index's folder. */
    shardDirs: string[]
    clean: Built
    afterFirst: Built
    afterSecond: Built
    afterRemoval: Built
    afterEmptied: Built
    hits: string[]
    removedHitsBefore: string[]
    removedHitsAfter: string[]
    /** The internal index's files after the clean build and after the first edit. */
    cleanFiles: Files
    afterFirstFiles: Files
    /** All of out/: built in place to the end, built again after out/ was emptied, and the same sources built from nothing. */
    inPlace: Files
    emptied: Files
    /** Built again after a step that stopped half way, a file of a shard folder gone. */
    afterStopped: Files
    /** Built again after a file of a kept shard folder was deleted by hand. */
    afterDeleted: Files
    /** Built again after a file of a kept shard folder (and so its cache entry) was edited in place, out/ kept, then out/ emptied. */
    afterEdited: Files
    afterEditedEmptied: Files
    fresh: Files
    /** The same sources built from nothing, indexing one shard at a time and two at once. */
    oneLane: { indexed: number; files: Files }
    twoLanes: { indexed: number; files: Files }
    walkedFiles: Record<string, number>
    /** A step stopped while it copied an indexed shard into the cache; the next step of the same sources (its files, or its error); a build of them from nothing. */
    stoppedCopy: string
    afterStoppedCopy: Files | string
    stoppedCopyFresh: Files
    /** This process's Pagefind and search worker children after every build, the last of which failed. */
    pagefindLeft: string[]
    /** A page whose data was gone when its shard was indexed, two shards at a time, and the step's error. */
    vanishing: string
    failure: string
  }
  type Files = Record<string, { ino: number; size: number; sha256: string }>
  const bytes = (files: Files) => Object.fromEntries(Object.entries(files).map(([file, { sha256 }]) => [file, sha256]))
  let scenario: Scenario
  beforeAll(() => {
    // Bounded: a search worker left running keeps the scenario's process alive, and a wait here blocks jest's own timeout.
    const script = path.join(__dirname, 'fixtures/editShards.ts')
    scenario = JSON.parse(execFileSync(process.execPath, ['node_modules/tsx/dist/cli.mjs', script, path.join(root, 'out'), path.join(root, 'cache')], { encoding: 'utf8', maxBuffer: 256 * 1024 * 1024, timeout: 150_000 })) as Scenario
  })
  afterAll(() => fs.rmSync(root, { recursive: true, force: true }))
  const indexed = (stats: IndexStats[]) => Object.fromEntries(stats.map((s) => [s.id, s.indexed]))

  test('the clean build indexes every shard; each edit indexes its page\'s shard and copies the rest', () => {
    expect(scenario.shards[0]).not.toBe(scenario.shards[1])
    const internal = scenario.clean.stats.find((s) => s.id === 'internal')!
    expect(internal.shards).toBeGreaterThan(1)
    expect(scenario.clean.stats.every((s) => s.indexed === s.shards)).toBe(true)
    for (const edit of [scenario.afterFirst, scenario.afterSecond]) {
      expect(indexed(edit.stats)).toEqual({ ...Object.fromEntries(scenario.clean.stats.map((s) => [s.id, 0])), internal: 1 })
    }
  })

  test("a clean build reads every page's search data once to place it and once to index it; an edit reads only the pages of the shard it indexes, and places the others as they were", () => {
    expect([scenario.clean.read, scenario.clean.readAgain.length]).toEqual([scenario.pages, scenario.pages])
    for (const [edit, shardPages, edited] of [[scenario.afterFirst, scenario.shardPages[0], scenario.edited[0]], [scenario.afterSecond, scenario.shardPages[1], scenario.edited[1]]] as const) {
      expect(edit.read).toBe(shardPages.length)
      // The edited page alone is read to place it, then with its shard to index it.
      expect(edit.readAgain).toEqual([edited])
      expect(shardPages.length).toBeLessThan(scenario.pages / 2)
    }
  })

  test('the shard list names the shards, by number, and nothing else is in the index folder but pagefind.js', () => {
    const dir = path.join(root, 'out', scenario.basePath)
    const list = JSON.parse(fs.readFileSync(path.join(dir, SHARD_LIST_FILE), 'utf8')) as number[]
    expect(list.length).toBe(scenario.afterSecond.stats.find((s) => s.id === 'internal')!.shards)
    expect(fs.readdirSync(dir).sort()).toEqual([...list.map(String), 'pagefind.js', SHARD_LIST_FILE].sort())
  })

  test('a search for a word of both edited pages finds both, one from each shard', () => {
    expect(scenario.hits.sort()).toEqual([...scenario.edited].sort())
  })

  test("with out/ in place, an edit replaces its page's shard folder only: every other file of the index keeps its inode", () => {
    const [editedShard] = scenario.shardDirs
    const changed = Object.keys(scenario.afterFirstFiles).filter((file) => scenario.cleanFiles[file]?.ino !== scenario.afterFirstFiles[file].ino)
    expect(changed.length).toBeGreaterThan(0)
    expect(changed.filter((file) => !file.startsWith(`${editedShard}/`))).toEqual([])
    const untouched = Object.keys(scenario.cleanFiles).filter((file) => !file.startsWith(`${editedShard}/`))
    expect(untouched.length).toBeGreaterThan(Object.keys(scenario.cleanFiles).length / 3)
    for (const file of untouched) expect(scenario.afterFirstFiles[file]?.ino).toBe(scenario.cleanFiles[file].ino)
  })

  test("a removed page's shard no longer finds it, and is indexed again; the others are not", () => {
    expect(scenario.removedHitsBefore).toEqual([scenario.removed])
    expect(scenario.removedHitsAfter).toEqual([])
    expect(indexed(scenario.afterRemoval.stats)).toEqual({ ...Object.fromEntries(scenario.clean.stats.map((s) => [s.id, 0])), internal: 1 })
    expect(scenario.afterRemoval.stats.find((s) => s.id === 'internal')!.shards).toBe(scenario.clean.stats.find((s) => s.id === 'internal')!.shards)
  })

  test('out/ built in place, out/ emptied and built again from the cache, out/ built again after a step that stopped half way, and after a file of a shard was deleted, hold the same files, byte for byte, as a build from nothing', () => {
    expect(Object.keys(scenario.fresh).length).toBeGreaterThan(10)
    expect(bytes(scenario.inPlace)).toEqual(bytes(scenario.fresh))
    expect(bytes(scenario.emptied)).toEqual(bytes(scenario.fresh))
    expect(bytes(scenario.afterStopped)).toEqual(bytes(scenario.fresh))
    // A file deleted from a shard folder the step would keep is placed again, not dropped from out/ and its record.
    expect(bytes(scenario.afterDeleted)).toEqual(bytes(scenario.fresh))
    // A file edited in place (its cache entry with it, one inode) is indexed again, not placed as it was, whether out/ stays or goes (a fault review's edited fragment shipped after rm -rf out).
    expect(bytes(scenario.afterEdited)).toEqual(bytes(scenario.fresh))
    expect(bytes(scenario.afterEditedEmptied)).toEqual(bytes(scenario.fresh))
    expect(scenario.afterEmptied.stats.every((s) => s.indexed === 0)).toBe(true)
  })

  test('a step stopped while it copied a shard into the cache leaves no part of it to the next step, which builds what a build from nothing does', () => {
    expect(scenario.stoppedCopy).toBe('the step was stopped')
    expect(Object.keys(scenario.stoppedCopyFresh).length).toBeGreaterThan(10)
    expect(typeof scenario.afterStoppedCopy === 'string' ? scenario.afterStoppedCopy : bytes(scenario.afterStoppedCopy)).toEqual(bytes(scenario.stoppedCopyFresh))
  })

  test('shards indexed two at a time (the second by a search worker, with its own Pagefind) are the files of shards indexed one at a time, byte for byte', () => {
    expect(scenario.twoLanes.indexed).toBeGreaterThan(2)
    expect(scenario.twoLanes.indexed).toBe(scenario.oneLane.indexed)
    expect(bytes(scenario.twoLanes.files)).toEqual(bytes(scenario.oneLane.files))
    expect(bytes(scenario.twoLanes.files)).toEqual(bytes(scenario.fresh))
  })

  test('a page whose data is gone when its shard is indexed fails the step, naming the page, with no search worker or Pagefind left running', () => {
    expect(scenario.failure).toBe(`search: ${scenario.vanishing} had search data when it was placed, and has none now`)
    expect(scenario.pagefindLeft).toEqual([])
  })

  test('Pagefind started ahead of a step with nothing to index is ended by the step (the first edit used the index made ahead: its shard is in the files above)', () => {
    expect(scenario.pagefindLeft).toEqual([])
  })

  test("each index's reported file count and bytes are what its folder holds", () => {
    for (const stats of [scenario.afterRemoval.stats, scenario.afterEmptied.stats]) {
      for (const s of stats) {
        const files = Object.keys(scenario.fresh).filter((file) => file.startsWith(`${s.dir}/`))
        expect(s.files).toBe(files.length)
        expect(s.bytes).toBe(files.reduce((sum, file) => sum + scenario.fresh[file].size, 0))
        expect(s.files).toBe(scenario.walkedFiles[s.id])
      }
    }
  })
})
