/**
 * Reads what a folder's `_meta` file exports, at build time, so the page maps can carry it as data.
 *
 * Nextra imports each `_meta` module whole into the page map, and the page map ships in every
 * page's JavaScript: a folder's `_meta` would tell every reader of a page the names and titles of
 * all the folder's pages, including those a finer rule keeps from them, and Nextra fails the build
 * on a `_meta` key whose page the reader's page map leaves out. Inlined as data
 * (lib/navigation/shapePageMap.ts inlineMetas), filterPageMap drops exactly those entries.
 */
import { createHash } from 'node:crypto'
import fs from 'node:fs'
import { createRequire } from 'node:module'
import path from 'node:path'
import { buildSync } from 'esbuild'
import { stampOf } from './content/contentSource'
import { writeAtomically } from './compile/compilePages'

const META_FILES = ['_meta.ts', '_meta.tsx', '_meta.js', '_meta.jsx', '_meta.mjs']

export class MetaFileError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'MetaFileError'
  }
}

/** Strings, numbers, booleans, null, arrays and plain objects: what a page map can hold as data. */
function isPlainData(value: unknown): boolean {
  if (value === null || ['string', 'number', 'boolean'].includes(typeof value)) return true
  if (Array.isArray(value)) return value.every(isPlainData)
  if (typeof value !== 'object' || Object.getPrototypeOf(value) !== Object.prototype) return false
  return Object.values(value as Record<string, unknown>).every(isPlainData)
}

/**
 * Each `_meta` file's data, with the stamps of every file its bundle read (the `_meta` and what it
 * imports): the content check and the page maps ask for the same file, and `npm run dev` asks
 * after every change, so a file is evaluated again only when one of those files changed. Bundling
 * one costs several milliseconds; a site of a few hundred folders paid it twice per build and on
 * every edit in dev, and on every build (about 2 s of a 3,000-page rebuild) until the results
 * were kept on disk too, in the project's META_CACHE_DIR, one file per `_meta` file.
 */
type Evaluated = { file: string; inputs: Array<[file: string, stamp: string | null]>; data: Record<string, unknown> }
const evaluated = new Map<string, Evaluated>()

/** Where the build keeps each `_meta` file's data and inputs between runs; `rm -rf .cache` forgets them. */
export const META_CACHE_DIR = '.cache/meta'

/**
 * By the file's absolute path, as its inputs are named: a copy of the project (whose .cache/ comes
 * along) evaluates its own files, never trusting the stamps of the files it was copied from.
 */
const diskEntryOf = (root: string, file: string) => path.join(root, META_CACHE_DIR, `${createHash('sha256').update(file).digest('hex').slice(0, 32)}.json`)

/** What `file` was last evaluated to, in this process or (with `root`) an earlier one, while its inputs are as they were then. */
function remembered(file: string, root: string | undefined): Evaluated | null {
  let known = evaluated.get(file)
  if (!known && root) {
    try {
      known = JSON.parse(fs.readFileSync(diskEntryOf(root, file), 'utf8')) as Evaluated
    } catch {
      return null // None yet, or unreadable: evaluated again.
    }
  }
  return known && known.file === file && known.inputs.every(([input, stamp]) => stampOf(input) === stamp) ? known : null
}

/**
 * A `_meta` file's default export, evaluated as the build does; MetaFileError when it is not plain
 * data. With the project's `root`, the result is kept on disk for the next run as well.
 */
export function readMetaFile(file: string, root?: string): Record<string, unknown> {
  const known = remembered(file, root)
  if (known) {
    evaluated.set(file, known)
    return known.data
  }
  const built = buildSync({ entryPoints: [file], bundle: true, format: 'cjs', platform: 'node', write: false, packages: 'external', jsx: 'automatic', logLevel: 'silent', metafile: true, absWorkingDir: path.dirname(file) })
  const inputs = Object.keys(built.metafile.inputs).map((input): [string, string | null] => {
    const absolute = path.resolve(path.dirname(file), input)
    return [absolute, stampOf(absolute)]
  })
  const module = { exports: {} as Record<string, unknown> }
  new Function('module', 'exports', 'require', built.outputFiles[0].text)(module, module.exports, createRequire(file))
  const data = (module.exports as { default?: unknown }).default
  if (!isPlainData(data) || Array.isArray(data) || data === null || typeof data !== 'object') {
    throw new MetaFileError(`${file}: its default export must be an object of plain data (titles as strings, settings as objects), so that each reader's page map can hold only their own entries`)
  }
  const entry = { file, inputs, data: data as Record<string, unknown> }
  evaluated.set(file, entry)
  if (root) writeAtomically(diskEntryOf(root, file), JSON.stringify(entry))
  return entry.data
}

/** A reader of the `_meta` data of a folder route under `pagesDir` (the project's content/). */
export function metaReader(pagesDir: string): (folderRoute: string) => Record<string, unknown> {
  return (folderRoute) => {
    const dir = path.join(pagesDir, folderRoute)
    const file = META_FILES.map((name) => path.join(dir, name)).find((candidate) => fs.existsSync(candidate))
    if (!file) throw new MetaFileError(`no _meta file in ${dir}, though Nextra listed one`)
    return readMetaFile(file, path.dirname(pagesDir))
  }
}
