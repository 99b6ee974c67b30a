/** @jest-environment node */
/**
 * A `_meta` file is evaluated once for the content check and the page maps, and again only when it
 * or a file it imports changed: what `npm run dev` shows after an edit is the file as it is now.
 * The build keeps what it evaluated on disk, so the next build evaluates only what changed.
 */
import fs from 'node:fs'
import path from 'node:path'
import { buildSync } from 'esbuild'
import { readMetaFile } from '../../pipeline/readMeta'
import { tempSite } from '../fixtures/tempSite'

// esbuild's exports cannot be spied on; the same function, counted.
jest.mock('esbuild', () => {
  const actual = jest.requireActual('esbuild')
  return { ...actual, buildSync: jest.fn(actual.buildSync) }
})

/** Rewrites a file with a later time, as an editor's save does (a time within the same tick would hide nothing here: the sizes differ too). */
function save(file: string, text: string): void {
  fs.writeFileSync(file, text)
  const later = new Date(Date.now() + 5_000)
  fs.utimesSync(file, later, later)
}

test('a _meta file is bundled once while neither it nor what it imports changes, and read anew after either changes', () => {
  const root = tempSite('read-meta-', {
    'content/docs/leads/_meta.ts': "import { intro } from './titles'\nexport default { intro, quotes: 'Quotes' }\n",
    'content/docs/leads/titles.ts': "export const intro = 'Introduction'\n",
  })
  const meta = path.join(root, 'content/docs/leads/_meta.ts')
  const bundles = buildSync as jest.Mock
  expect(readMetaFile(meta)).toEqual({ intro: 'Introduction', quotes: 'Quotes' })
  expect(readMetaFile(meta)).toEqual({ intro: 'Introduction', quotes: 'Quotes' })
  expect(bundles).toHaveBeenCalledTimes(1)

  save(path.join(root, 'content/docs/leads/titles.ts'), "export const intro = 'Start here, please'\n")
  expect(readMetaFile(meta)).toEqual({ intro: 'Start here, please', quotes: 'Quotes' })
  save(meta, "import { intro } from './titles'\nexport default { intro, quotes: 'Quotes and fees' }\n")
  expect(readMetaFile(meta)).toEqual({ intro: 'Start here, please', quotes: 'Quotes and fees' })
  expect(bundles).toHaveBeenCalledTimes(3)
})

test('with the project root, the next run (a new process) takes the data from the disk while the files are as they were', () => {
  const root = tempSite('read-meta-disk-', { 'content/docs/leads/_meta.ts': "export default { intro: 'Introduction' }\n" })
  const meta = path.join(root, 'content/docs/leads/_meta.ts')
  const bundles = buildSync as jest.Mock
  bundles.mockClear()
  /** readMetaFile as a new build process has it: nothing evaluated in memory yet. */
  const fresh = () => {
    let loaded: typeof import('../../pipeline/readMeta') | undefined
    jest.isolateModules(() => {
      loaded = require('../../pipeline/readMeta')
    })
    return loaded!.readMetaFile
  }
  expect(fresh()(meta, root)).toEqual({ intro: 'Introduction' })
  expect(fresh()(meta, root)).toEqual({ intro: 'Introduction' })
  expect(bundles).toHaveBeenCalledTimes(1)
  save(meta, "export default { intro: 'Start here' }\n")
  expect(fresh()(meta, root)).toEqual({ intro: 'Start here' })
  expect(bundles).toHaveBeenCalledTimes(2)
  // Without the root, nothing is kept beyond the process.
  expect(fresh()(meta)).toEqual({ intro: 'Start here' })
  expect(bundles).toHaveBeenCalledTimes(3)
})

test("a copy of the project, .cache/ and all, evaluates its own _meta files, not the original's by the original's stamps", () => {
  const original = tempSite('read-meta-original-', { 'content/docs/leads/_meta.ts': "export default { intro: 'Introduction' }\n" })
  const readFresh = () => {
    let loaded: typeof import('../../pipeline/readMeta') | undefined
    jest.isolateModules(() => {
      loaded = require('../../pipeline/readMeta')
    })
    return loaded!.readMetaFile
  }
  expect(readFresh()(path.join(original, 'content/docs/leads/_meta.ts'), original)).toEqual({ intro: 'Introduction' })
  const copy = tempSite('read-meta-copy-', {})
  fs.cpSync(original, copy, { recursive: true })
  // The copy's pages and _meta are replaced, as the benchmarks replace them.
  fs.writeFileSync(path.join(copy, 'content/docs/leads/_meta.ts'), "export default { other: 'Other' }\n")
  expect(readFresh()(path.join(copy, 'content/docs/leads/_meta.ts'), copy)).toEqual({ other: 'Other' })
})
