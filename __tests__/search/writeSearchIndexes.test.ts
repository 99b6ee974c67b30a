/**
 * @jest-environment node
 *
 * The search step against the installed Pagefind: each page is one document whose sections are
 * anchors (the search box's results point at them), the section's name is metadata and not
 * searchable text, and the word list is cut into files of the size the build asks for.
 */
import { execFileSync } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { gunzipSync } from 'node:zlib'
import { generatedPlan, generatedSite } from '../../bench/search'
import { access } from '../../lib/access'
import { groupSearchRecords } from '../fixtures/searchGroups'
import { INDEX_CHUNK_BYTES, type IndexStats } from '../../pipeline/steps/buildSearchIndexes'
import { SHARD_LIST_FILE, shardFolder } from '../../lib/search/searchShards'

jest.setTimeout(120_000)

const PAGES = 400
const outRoot = fs.mkdtempSync(path.join(os.tmpdir(), 'search-indexes-'))
const { data } = generatedSite(PAGES)
const { groups } = groupSearchRecords(data, generatedPlan(data), access)
let stats: IndexStats[] = []
beforeAll(() => {
  const script = path.join(__dirname, 'fixtures/writeGeneratedIndexes.ts')
  stats = JSON.parse(execFileSync(process.execPath, ['node_modules/tsx/dist/cli.mjs', script, outRoot, String(PAGES)], { encoding: 'utf8' })) as IndexStats[]
})
afterAll(() => fs.rmSync(outRoot, { recursive: true, force: true }))

/** A Pagefind data file: gzip around "pagefind_dcd" and the payload. */
function readPagefindFile(file: string): Buffer {
  const raw = gunzipSync(fs.readFileSync(file))
  expect(raw.subarray(0, 12).toString()).toBe('pagefind_dcd')
  return raw.subarray(12)
}

/** The folders of an index's shards, as its shard list names them. */
const shardDirs = (outDir: string) => (JSON.parse(fs.readFileSync(path.join(outRoot, outDir, SHARD_LIST_FILE), 'utf8')) as number[]).map((shard) => path.join(outRoot, outDir, shardFolder(shard)))

interface Fragment {
  url: string
  content: string
  meta: Record<string, string>
  anchors: Array<{ element: string; id: string; text: string }>
}

test('one document per page: the sections are anchors, the title and section are metadata', () => {
  const leads = groups.find((group) => group.spec.id === 'leads')!
  const fragments = shardDirs(leads.spec.outDir).flatMap((dir) => fs.readdirSync(path.join(dir, 'fragment')).map((name) => JSON.parse(readPagefindFile(path.join(dir, 'fragment', name)).toString()) as Fragment))
  expect(fragments).toHaveLength(leads.pages.length)
  expect(stats.find((s) => s.id === 'leads')).toMatchObject({ pages: leads.pages.length, records: leads.records.length })

  const route = leads.pages[0]
  const fragment = fragments.find((f) => f.url === route)!
  const page = data[route]
  expect(fragment.meta).toMatchObject({ title: page.title, section: leads.spec.title })
  const headings = Object.keys(page.data).filter((key) => key !== '')
  expect(fragment.anchors.filter((anchor) => anchor.element === 'h2').map((anchor) => anchor.id)).toEqual(headings.map((key) => key.slice(0, key.indexOf('#'))))
  // The section's name would otherwise match every page of the section.
  expect(fragment.content.startsWith(page.title)).toBe(true)
  expect(fragment.content).not.toContain(leads.spec.title)
})

test(`the word list is cut into files of about ${INDEX_CHUNK_BYTES} bytes, as the build asks (Pagefind's default is twice that)`, () => {
  const internal = groups.find((group) => group.spec.id === 'internal')!
  const sizes = shardDirs(internal.spec.outDir).flatMap((dir) => fs.readdirSync(path.join(dir, 'index')).map((name) => fs.statSync(path.join(dir, 'index', name)).size)).sort((a, b) => a - b)
  expect(sizes.length).toBeGreaterThan(3)
  expect(sizes[Math.floor(sizes.length / 2)]).toBeLessThan(INDEX_CHUNK_BYTES * 1.5)
})
