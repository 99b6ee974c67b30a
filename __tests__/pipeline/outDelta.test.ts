/**
 * @jest-environment node
 *
 * The build's steps of out/ (pipeline/steps/outDelta.ts): what changed since each earlier record,
 * merged from any of them; the oldest dropped when they would be large, all when a build has no
 * record to start from.
 */
import fs from 'node:fs'
import path from 'node:path'
import { outDeltaSince } from '../../pipeline/steps/outDelta'
import { readOut, readOutRecordHeader, setOutRecordAside } from '../../pipeline/steps/outRecord'
import { tempSite } from '../fixtures/tempSite'

const BUILT_AT = Math.floor(Date.now() / 1000) - 3600

/** out/ with `files`, as a finished build left it (with its record). */
function builtOut(files: Record<string, string>) {
  const root = tempSite('out-delta-', Object.fromEntries(Object.entries(files).map(([key, text]) => [`out/${key}`, text])))
  const outDir = path.join(root, 'out')
  for (const key of Object.keys(files)) fs.utimesSync(path.join(outDir, key), BUILT_AT, BUILT_AT)
  setOutRecordAside(outDir)
  readOut(outDir).write('b1')
  /** A build: files written, or removed (null), between setting the record aside and writing the new one. */
  const rebuild = (edits: Record<string, string | null>) => {
    setOutRecordAside(outDir)
    for (const [key, text] of Object.entries(edits)) {
      const file = path.join(outDir, key)
      if (text === null) fs.rmSync(file)
      else {
        fs.mkdirSync(path.dirname(file), { recursive: true })
        fs.writeFileSync(file, text)
      }
    }
    readOut(outDir).write('b1')
    return readOutRecordHeader(outDir)!.digest
  }
  return { outDir, rebuild, digest: () => readOutRecordHeader(outDir)!.digest }
}

const summary = (outDir: string, from: string) => {
  const delta = outDeltaSince(outDir, from)
  return delta && Object.fromEntries(Object.entries(delta.files).map(([key, entry]) => [key, entry === null ? 'removed' : entry.added ? 'added' : 'changed']))
}

test('a build records what changed since the last record: rewritten with other bytes (of the same size too), added, removed; a file rewritten with the same bytes is not named', () => {
  const out = builtOut({ 'index.html': 'home', 'a.html': 'a', 'b.html': 'b', 'c.html': 'c' })
  const first = out.digest()
  const second = out.rebuild({ 'a.html': 'a, edited', 'b.html': 'B', 'index.html': 'home', 'c.html': null, 'd/new.html': 'new' })
  expect(outDeltaSince(out.outDir, first)).toMatchObject({ from: first, to: second })
  expect(summary(out.outDir, first)).toEqual({ 'a.html': 'changed', 'b.html': 'changed', 'c.html': 'removed', 'd/new.html': 'added' })
  expect(outDeltaSince(out.outDir, second)).toEqual({ from: second, to: second, files: {} })
  expect(outDeltaSince(out.outDir, first)!.files['a.html']).toEqual({ sha256: expect.stringMatching(/^[0-9a-f]{64}$/), size: 'a, edited'.length, added: false })
})

test('what changed since any earlier record: a file added and then removed is not named, one removed and then added again has changed', () => {
  const out = builtOut({ 'index.html': 'home', 'a.html': 'a', 'b.html': 'b' })
  const first = out.digest()
  const second = out.rebuild({ 'new.html': 'new', 'b.html': null })
  const third = out.rebuild({ 'new.html': null, 'b.html': 'b again', 'a.html': 'a, edited' })
  expect(outDeltaSince(out.outDir, first)).toMatchObject({ from: first, to: third })
  expect(summary(out.outDir, first)).toEqual({ 'a.html': 'changed', 'b.html': 'changed' })
  expect(summary(out.outDir, second)).toEqual({ 'a.html': 'changed', 'b.html': 'added', 'new.html': 'removed' })
  expect(outDeltaSince(out.outDir, 'f'.repeat(64))).toBeNull()
})

test('none when the build had no record to start from (one stopped half way); the oldest go when they would name more than a quarter of a large out/', () => {
  const out = builtOut({ 'index.html': 'home', 'a.html': 'a' })
  const first = out.digest()
  out.rebuild({ 'a.html': 'a, edited' })
  expect(outDeltaSince(out.outDir, first)).not.toBeNull()
  // A build stopped after setting the record aside, and its set-aside record lost: the next build starts from none.
  setOutRecordAside(out.outDir)
  fs.rmSync(path.join(path.dirname(out.outDir), '.cache/out-record.previous.json'))
  readOut(out.outDir).write('b1')
  expect(outDeltaSince(out.outDir, first)).toBeNull()

  const pages = Object.fromEntries(Array.from({ length: 4400 }, (_, i) => [`docs/page-${i}.html`, `page ${i}`]))
  const large = builtOut(pages)
  const start = large.digest()
  const next = large.rebuild(Object.fromEntries(Array.from({ length: 1000 }, (_, i) => [`docs/page-${i}.html`, `page ${i}, edited`])))
  expect(Object.keys(outDeltaSince(large.outDir, start)!.files)).toHaveLength(1000)
  // With the next build's 200, the steps would name 1,200 of 4,400 files: more than a quarter, so the first goes.
  large.rebuild(Object.fromEntries(Array.from({ length: 200 }, (_, i) => [`docs/page-${4000 + i}.html`, 'rewritten'])))
  expect(outDeltaSince(large.outDir, start)).toBeNull()
  expect(Object.keys(outDeltaSince(large.outDir, next)!.files)).toHaveLength(200)
  // One build that rewrites more than a quarter leaves none.
  large.rebuild(Object.fromEntries(Array.from({ length: 1200 }, (_, i) => [`docs/page-${i}.html`, 'all rewritten'])))
  expect(outDeltaSince(large.outDir, next)).toBeNull()
})
