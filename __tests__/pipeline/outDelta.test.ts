/**
 * @jest-environment node
 *
 * The build's delta of out/ (pipeline/steps/outDelta.ts): what changed since an earlier record,
 * carried across builds from the first, dropped when it would be large or has nothing to run from.
 */
import fs from 'node:fs'
import path from 'node:path'
import { readOutDelta } from '../../pipeline/steps/outDelta'
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

const summary = (outDir: string) => {
  const delta = readOutDelta(outDir)
  return delta && Object.fromEntries(Object.entries(delta.files).map(([key, entry]) => [key, entry === null ? 'removed' : entry.added ? 'added' : 'changed']))
}

test('a build records what changed since the last record: rewritten with other bytes (of the same size too), added, removed; a file rewritten with the same bytes is not named', () => {
  const out = builtOut({ 'index.html': 'home', 'a.html': 'a', 'b.html': 'b', 'c.html': 'c' })
  const first = out.digest()
  const second = out.rebuild({ 'a.html': 'a, edited', 'b.html': 'B', 'index.html': 'home', 'c.html': null, 'd/new.html': 'new' })
  expect(readOutDelta(out.outDir)).toMatchObject({ from: first, to: second })
  expect(summary(out.outDir)).toEqual({ 'a.html': 'changed', 'b.html': 'changed', 'c.html': 'removed', 'd/new.html': 'added' })
  expect(readOutDelta(out.outDir)!.files['a.html']).toEqual({ sha256: expect.stringMatching(/^[0-9a-f]{64}$/), size: 'a, edited'.length, added: false })
})

test('builds carry the delta on from the first record: a file added and then removed is not named, one removed and then added again has changed', () => {
  const out = builtOut({ 'index.html': 'home', 'a.html': 'a', 'b.html': 'b' })
  const first = out.digest()
  out.rebuild({ 'new.html': 'new', 'b.html': null })
  const third = out.rebuild({ 'new.html': null, 'b.html': 'b again', 'a.html': 'a, edited' })
  expect(readOutDelta(out.outDir)).toMatchObject({ from: first, to: third })
  expect(summary(out.outDir)).toEqual({ 'a.html': 'changed', 'b.html': 'changed' })
})

test('no delta when the build had no record to start from (one stopped half way), or when it would name more than a quarter of a large out/', () => {
  const out = builtOut({ 'index.html': 'home', 'a.html': 'a' })
  out.rebuild({ 'a.html': 'a, edited' })
  expect(readOutDelta(out.outDir)).not.toBeNull()
  // A build stopped after setting the record aside, and its set-aside record lost: the next build starts from none.
  setOutRecordAside(out.outDir)
  fs.rmSync(path.join(path.dirname(out.outDir), '.cache/out-record.previous.json'))
  readOut(out.outDir).write('b1')
  expect(readOutDelta(out.outDir)).toBeNull()

  const pages = Object.fromEntries(Array.from({ length: 4400 }, (_, i) => [`docs/page-${i}.html`, `page ${i}`]))
  const large = builtOut(pages)
  large.rebuild(Object.fromEntries(Array.from({ length: 1000 }, (_, i) => [`docs/page-${i}.html`, `page ${i}, edited`])))
  expect(Object.keys(readOutDelta(large.outDir)!.files)).toHaveLength(1000)
  // Carried on, it would name 1,200 of 4,400 files: more than a quarter.
  large.rebuild(Object.fromEntries(Array.from({ length: 200 }, (_, i) => [`docs/page-${4000 + i}.html`, 'rewritten'])))
  expect(readOutDelta(large.outDir)).toBeNull()
})
