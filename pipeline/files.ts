/**
 * What every step does with files the same way: hash them, write one whole (never half, so a run
 * cut short leaves the last version), and list a tree. Imported by the steps, the compile, the
 * store and the deploy; it imports none of them.
 */
import { isAscii } from 'node:buffer'
import crypto from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import { TextEncoder } from 'node:util'

/** The hex sha256 of `data`: the one-shot `crypto.hash` (Node 20.12) where there is one, a third of a Hash object's cost on the short texts a build hashes by the page. */
export const sha256: (data: string | Buffer) => string = typeof crypto.hash === 'function' ? (data) => crypto.hash('sha256', data, 'hex') : (data) => crypto.createHash('sha256').update(data).digest('hex')

/**
 * How long before its reading a file must have been last written for that reading to be trusted
 * by its stamp ("racy git"): a file rewritten with the same size within one tick of the file
 * system's clock keeps its time, so a reading taken sooner is taken again next time.
 */
export const RACY_MS = 2_000

/** What `lstat` says of a file that changes when it is written or replaced (as git's index keeps it). */
export interface FileStamp {
  size: number
  mtimeMs: number
  dev: number
  ino: number
}

export const fileStampOf = (stat: fs.Stats): FileStamp => ({ size: stat.size, mtimeMs: stat.mtimeMs, dev: stat.dev, ino: stat.ino })

/** A file's stamp now (a link's own, not followed); null when it is gone. */
export function stampOf(file: string): FileStamp | null {
  const stat = fs.lstatSync(file, { throwIfNoEntry: false })
  return stat ? fileStampOf(stat) : null
}

export const sameStamp = (a: FileStamp, b: FileStamp) => a.size === b.size && a.mtimeMs === b.mtimeMs && a.dev === b.dev && a.ino === b.ino

/**
 * Whether each file under `root` (a key relative to it, `/`-separated) is there, as a plain file (a
 * folder of its name is not it), by one listing of each folder asked about: many files of few
 * folders (a site's pages) cost a few reads, not a stat each.
 */
export function presentUnder(root: string): (file: string) => boolean {
  const folders = new Map<string, ReadonlySet<string> | null>()
  return (file) => {
    const slash = file.lastIndexOf('/')
    const folder = file.slice(0, Math.max(slash, 0))
    let names = folders.get(folder)
    if (names === undefined) {
      const dir = path.join(root, folder)
      names = fs.existsSync(dir) ? new Set(fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => (entry.isFile() ? [entry.name] : []))) : null
      folders.set(folder, names)
    }
    return names !== null && names.has(file.slice(slash + 1))
  }
}

/** Whether a file with `stamp`, read at `readAt` (ms), was last written long enough before for its reading to be trusted next time. */
export const settledAt = (stamp: Pick<FileStamp, 'mtimeMs'>, readAt: number) => stamp.mtimeMs <= readAt - RACY_MS

/** Writes `file` whole: to a partial file first, then renamed over it. */
export function writeAtomically(file: string, data: string | Buffer): void {
  fs.mkdirSync(path.dirname(file), { recursive: true })
  const partial = `${file}.${process.pid}.${crypto.randomBytes(4).toString('hex')}.partial`
  if (typeof data === 'string') writeText(partial, data)
  else fs.writeFileSync(partial, data)
  fs.renameSync(partial, file)
}

/** The first `length` bytes of `bytes` into `fd`, at `position` (none: where the file's offset is), however many calls it takes. */
export function writeFully(fd: number, bytes: Uint8Array, length = bytes.length, position: number | null = null): void {
  for (let done = 0; done < length; ) done += fs.writeSync(fd, bytes, done, length - done, position === null ? null : position + done)
}

const encoder = new TextEncoder()
/** One buffer the text of every write is encoded into, a piece at a time. */
const scratch = new Uint8Array(64 * 1024)

/**
 * `text` as UTF-8, encoded into one small buffer a piece at a time: Node 20 writes a long string
 * more slowly than its encoding and write take, and its whole encoding would be memory this process
 * touches for the first time, which costs more than the encoding (docs/benchmarks.md).
 */
function writeText(file: string, text: string): void {
  const fd = fs.openSync(file, 'w')
  try {
    for (let read = 0; read < text.length; ) {
      const piece = encoder.encodeInto(read === 0 ? text : text.slice(read), scratch)
      if (piece.read === 0) throw new Error(`writeAtomically: the encoder took nothing of ${file} at character ${read}`)
      read += piece.read
      writeFully(fd, scratch, piece.written)
    }
  } finally {
    fs.closeSync(fd)
  }
}

/**
 * Puts `source` at `target` as a hard link: the two share the file, which is safe for a file nothing
 * rewrites in place. A copy where links cannot be made (another file system, or one without
 * links): as right, only read again by whatever hashes it.
 */
export function linkOrCopy(source: string, target: string): void {
  try {
    fs.linkSync(source, target)
  } catch (error) {
    if (!['EXDEV', 'EPERM', 'ENOTSUP'].includes((error as NodeJS.ErrnoException).code ?? '')) throw error
    fs.copyFileSync(source, target)
  }
}

/**
 * A UTF-8 file's text. The build's records are JSON of ASCII text, which Node's UTF-8 read decodes
 * slowly (docs/benchmarks.md): read as bytes and found ASCII, they are the same text as Latin-1.
 */
export const readText = (file: string): string => textOf(fs.readFileSync(file))

/** UTF-8 bytes as text; all ASCII, without decoding (readText). */
export const textOf = (bytes: Buffer): string => bytes.toString(isAscii(bytes) ? 'latin1' : 'utf8')

/**
 * A step's record of what it left, taken: read and removed, so a step that stops half way leaves
 * none and the next one does everything again. Null when there is none, or it holds no JSON object.
 */
export function takeRecord(file: string): Record<string, unknown> | null {
  let text: string
  try {
    text = readText(file)
  } catch {
    return null
  }
  fs.rmSync(file, { force: true })
  return jsonObjectOf(text)
}

/**
 * The JSON object in `file`, a step's own record; null when there is none, or the file holds no
 * object (damaged, or written by hand), so a record read through it is taken as absent, never trusted.
 */
export function readJsonObject(file: string): Record<string, unknown> | null {
  try {
    return jsonObjectOf(readText(file))
  } catch {
    return null
  }
}

/** The JSON object `text` holds; null when there is no text, or it holds no object. */
export function jsonObjectOf(text: string | null): Record<string, unknown> | null {
  if (text === null) return null
  try {
    const value = JSON.parse(text) as unknown
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : null
  } catch {
    return null
  }
}

/** The first line of a file writeChecked wrote; a comment in a JavaScript module as well. */
const CHECKED_PREFIX = '// sha256 '

/**
 * Writes `text` to `file` under a first line naming its sha256, for readChecked: a kept file the
 * build trusts by its name (a page's body, a transpiled module) is proved whole when read. `inPlace`:
 * written where it is, not renamed into place (a third of the cost, for files written by the
 * thousand that no other process reads meanwhile): one cut short is refused when read.
 */
export function writeChecked(file: string, text: string, { inPlace = false } = {}): void {
  const checked = `${CHECKED_PREFIX}${sha256(text)}\n${text}`
  if (inPlace) fs.writeFileSync(file, checked)
  else writeAtomically(file, checked)
}

/** The text writeChecked kept in `file`; null when there is none, or it is not the text that was written (damaged, changed by hand). */
export function readChecked(file: string): string | null {
  let kept: string
  try {
    kept = readText(file)
  } catch {
    return null
  }
  const end = kept.indexOf('\n')
  if (end < 0 || !kept.startsWith(CHECKED_PREFIX)) return null
  const text = kept.slice(end + 1)
  return kept.slice(CHECKED_PREFIX.length, end) === sha256(text) ? text : null
}

/**
 * A value kept in `file` under `key` (what it was made from: a digest, a commit, a stamp), for a
 * later run to take instead of making it again: the value when the file holds that key, else null
 * (none yet, unreadable, made from something else, or not as written: checked, as a body is, since
 * a value that still parses after damage would be shipped).
 */
export function keptUnder<T>(file: string, key: string): T | null {
  const kept = jsonObjectOf(readChecked(file))
  return kept?.key === key && kept.value !== undefined ? (kept.value as T) : null
}

/** Keeps `value` in `file` under `key`, for keptUnder. */
export function keepUnder(file: string, key: string, value: unknown): void {
  writeChecked(file, JSON.stringify({ key, value }))
}

/** Every file below `dir`, as sorted `/relative/path` keys. */
export function listFiles(dir: string): string[] {
  const keys: string[] = []
  // Each key grows with the walk: a path.relative per file was most of a large out/'s listing.
  const walk = (current: string, key: string) => {
    for (const entry of fs.readdirSync(current, { withFileTypes: true })) {
      const child = `${key}/${entry.name}`
      if (!entry.isDirectory()) keys.push(child)
      else walk(path.join(current, entry.name), child)
    }
  }
  walk(dir, '')
  return keys.sort()
}

/**
 * Removes the folders under `root` that the removal of `keys` (paths under it) left empty, deepest
 * first, so a page or image moved away leaves no empty folder a clean build would not have. A
 * folder still holding something stays (rmdir removes only an empty one).
 */
export function removeEmptyFolders(root: string, keys: Iterable<string>): void {
  const folders = new Set<string>()
  for (const key of keys) for (let folder = path.posix.dirname(key); folder !== '.' && folder !== '/' && !folders.has(folder); folder = path.posix.dirname(folder)) folders.add(folder)
  // Each after every folder inside it: a deeper path has more segments.
  for (const folder of [...folders].sort((a, b) => b.split('/').length - a.split('/').length)) {
    try {
      fs.rmdirSync(path.join(root, folder))
    } catch {
      // Not empty, gone already, or not a folder: it stays as it is.
    }
  }
}
