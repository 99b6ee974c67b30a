/**
 * The build's record of out/: each file's object key (no leading slash), sha256 and size, named by
 * the build that wrote it and sealed by a digest of its content. The deploy takes its local files
 * from it (scripts/deploy/localFiles.ts) and so neither walks nor stats out/ when there is nothing
 * to upload.
 *
 * Written last by a finished build; set aside when a build starts, so a build stopped half way
 * leaves no record a deploy would trust (the deploy then hashes out/ itself).
 *
 * The build reconciles out/ against the last record as git's index does: a file whose `stat`
 * (size, modification time, device, inode) is the one recorded with its hash keeps that hash
 * unread (kept pages and linked files keep their inode); any other file is hashed. One case would
 * slip through: a file rewritten with the same size within the same tick of the file system's
 * clock as the write that was hashed. So a file's stat is only recorded when it was last written
 * long enough before it was read (the racy-time rule of ../files.ts); a file hashed sooner is hashed again by the
 * next build that stats it. A rebuild in place stats only the files its steps wrote
 * (./outFiles.ts OutWrites): the others keep their line unread, as out/ is the build's.
 *
 * The record also keeps each page's inline scripts (./inlineScriptHashes.ts), read from the same
 * bytes as its hash and kept by the same rule, so the scripts, csp and record steps share one
 * listing of out/ (./outFiles.ts) and one reading of each changed file, and the build keeps one
 * side store of out/, not two.
 */
import crypto from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import { fileStampOf, removeEmptyFolders, settledAt, sha256, textOf, writeFully, type FileStamp } from '../files'
import { hashedScripts, pageScripts, type HashedScripts, type PageReading } from './inlineScriptHashes'
import { isLargeChange, writeOutDelta, type DeltaEntry, type OutDelta } from './outDelta'
import { listOutFiles, writtenBy, type OutFiles, type OutWrites } from './outFiles'
import { CACHE_PATHS } from './paths'

const NEWLINE = 0x0a

/** Which folder beside the cache a record describes: a deploy of another one (`--out`) must not take out/'s record. */
const outNameOf = (outDir: string) => path.basename(path.resolve(outDir))

export interface OutRecordEntry {
  sha256: string
  size: number
  /** What `stat` said of the file when it was hashed; absent when that was too soon after its write to be trusted. */
  stat?: { mtimeMs: number; dev: number; ino: number }
  /** A page's inline scripts, as an index into the record's distinct readings (pages mostly hold the same few). */
  scripts?: number
}
export interface OutRecordHeader {
  buildId: string
  /** sha256 of the record's content: the same digest, the same files with the same bytes. */
  digest: string
  /** The fingerprint of the rules out/ was built under (edge/rulesFingerprint.ts); null in a record from before it was kept. */
  rules: string | null
  /** The user pool out/'s sign-in was built for, as `<mode> <pool id>` (lib/auth/builtFor.ts poolOf); null in a record from before it was kept. */
  pool: string | null
}
export interface OutRecord extends OutRecordHeader {
  /** By object key, sorted. */
  files: Record<string, OutRecordEntry>
}

/** The record beside out/, with the build's cache: `<out>/../.cache/out-record.json`. */
export const outRecordFileFor = (outDir: string) => path.join(path.dirname(path.resolve(outDir)), CACHE_PATHS.outRecord)
const previousFileFor = (outDir: string) => path.join(path.dirname(path.resolve(outDir)), CACHE_PATHS.previousOutRecord)

/*
 * Lines: a header (version, the folder it describes, build, the sha256 of the rest), a line per
 * file, and last the distinct script readings of the pages. The digest proves the rest whole as
 * the build wrote it, so it is not checked entry by entry (a no-op deploy's time is mostly reading
 * this record); the deploy never parses the last line.
 *
 * A file's line is its key as JSON, then its fields, tab-separated (JSON holds no raw tab), so the
 * next build reads an entry only when it compares the file's stat, and writes the line of a file
 * kept as recorded as it found it: at 30,000 pages the record names 126,000 files, which as JSON
 * objects were most of what a rebuild's collector copied (docs/benchmarks.md).
 */
const VERSION = 3
const FIELDS = 7

/** A file's line: key, sha256, size, then mtimeMs, dev and ino (empty without a stat), then the scripts' index (empty for none). */
function entryLine(key: string, { sha256: digest, size, stat, scripts }: OutRecordEntry): string {
  return `${JSON.stringify(key)}\t${digest}\t${size}\t${stat ? `${stat.mtimeMs}\t${stat.dev}\t${stat.ino}` : '\t\t'}\t${scripts ?? ''}`
}

function keyOfLine(line: string): string {
  const quoted = line.slice(0, line.indexOf('\t'))
  return quoted.includes('\\') ? (JSON.parse(quoted) as string) : quoted.slice(1, -1)
}

/** A stamp's fields as a file's line spells them, with the tabs around them: the size, mtimeMs, dev and ino. */
const stampFields = ({ size, mtimeMs, dev, ino }: FileStamp) => `\t${size}\t${mtimeMs}\t${dev}\t${ino}\t`

/** The sha256 field of a file's line. */
const digestOfLine = (line: string) => line.split('\t', 2)[1]

/** The entry a line holds; null when it is not one. */
function entryOfLine(line: string): OutRecordEntry | null {
  const fields = line.split('\t')
  if (fields.length !== FIELDS) return null
  const [, digest, size, mtimeMs, dev, ino, scripts] = fields
  const entry: OutRecordEntry = { sha256: digest, size: Number(size) }
  if (mtimeMs !== '') entry.stat = { mtimeMs: Number(mtimeMs), dev: Number(dev), ino: Number(ino) }
  if (scripts !== '') entry.scripts = Number(scripts)
  return entry
}

function parseHeader(line: string, outDir: string): OutRecordHeader | null {
  // Checked by hand: a schema library costs the build more to load than this line takes to read.
  const header = JSON.parse(line) as Partial<Record<'version' | 'out' | 'buildId' | 'digest' | 'rules' | 'pool', unknown>> | null
  if (header?.version !== VERSION || typeof header.out !== 'string' || typeof header.buildId !== 'string' || typeof header.digest !== 'string' || !/^[0-9a-f]{64}$/.test(header.digest)) return null
  const text = (value: unknown) => (typeof value === 'string' ? value : null)
  return header.out === outNameOf(outDir) ? { buildId: header.buildId, digest: header.digest, rules: text(header.rules), pool: text(header.pool) } : null
}

/** A whole record: its header, each file's line by key, and the text of its script readings. */
interface ParsedRecord extends OutRecordHeader {
  lines: Map<string, string>
  scriptSets: string
}

function parse(file: string, outDir: string): ParsedRecord | null {
  try {
    const bytes = fs.readFileSync(file)
    const newline = bytes.indexOf(NEWLINE)
    const header = newline < 0 ? null : parseHeader(bytes.toString('utf8', 0, newline), outDir)
    if (header === null) return null
    // Hashed as bytes: hashing the text would encode it again.
    const restBytes = bytes.subarray(newline + 1)
    if (sha256(restBytes) !== header.digest) return null
    const rest = textOf(restBytes)
    const last = rest.lastIndexOf('\n')
    const lines = new Map<string, string>()
    if (last > 0) for (const line of rest.slice(0, last).split('\n')) lines.set(keyOfLine(line), line)
    return { ...header, lines, scriptSets: rest.slice(last + 1) }
  } catch {
    return null
  }
}

/** The finished build's record of `outDir`; null when there is none or it is not whole (a build stopped half way, or a damaged file). */
export function readOutRecord(outDir: string): OutRecord | null {
  const record = parse(outRecordFileFor(outDir), outDir)
  if (!record) return null
  const files: OutRecord['files'] = {}
  for (const [key, line] of record.lines) {
    const entry = entryOfLine(line)
    if (!entry) return null
    files[key] = entry
  }
  return { buildId: record.buildId, digest: record.digest, rules: record.rules, pool: record.pool, files }
}

/** The longest header a record has: a build id and a folder name beside a digest. */
const HEADER_BYTES = 4096

/**
 * The record's first line alone, read without the files it names: which build, and the digest
 * that names this record's content. A deploy with nothing to do needs no more
 * (scripts/deploy/deploySeal.ts). Null where readOutRecord finds no record; the rest is not proved
 * whole here, which the deploy does not need: it compares the digest with the one it deployed.
 */
export function readOutRecordHeader(outDir: string): OutRecordHeader | null {
  let fd: number | undefined
  try {
    fd = fs.openSync(outRecordFileFor(outDir), 'r')
    const bytes = Buffer.alloc(HEADER_BYTES)
    const text = bytes.subarray(0, fs.readSync(fd, bytes, 0, HEADER_BYTES, 0)).toString('utf8')
    const newline = text.indexOf('\n')
    return newline < 0 ? null : parseHeader(text.slice(0, newline), outDir)
  } catch {
    return null
  } finally {
    if (fd !== undefined) fs.closeSync(fd)
  }
}

/**
 * At a build's start: the last record is set aside (a build that stops from here on leaves none).
 * After a build stopped half way there is none to set aside, and the one set aside before stays.
 * Whether a finished build's record was set aside: only then does it name what out/ holds, but
 * for what this build writes.
 */
export function setOutRecordAside(outDir: string): boolean {
  const file = outRecordFileFor(outDir)
  // A build killed while it wrote its record left the part it wrote (writeLines): tens of megabytes at 30,000 pages.
  const folder = path.dirname(file)
  for (const name of fs.existsSync(folder) ? fs.readdirSync(folder) : []) if (name.startsWith(`${path.basename(file)}.`) && name.endsWith('.partial')) fs.rmSync(path.join(folder, name), { force: true })
  if (!fs.existsSync(file)) return false
  fs.renameSync(file, previousFileFor(outDir))
  return true
}

/** A build that stopped before any step wrote into out/ (the content check failed): out/ is as the record set aside says, so it is put back. */
export function restoreOutRecord(outDir: string): void {
  fs.renameSync(previousFileFor(outDir), outRecordFileFor(outDir))
}

/**
 * A build whose last build stopped while writing out/ writes it anew, as after `rm -rf out`: that
 * build left files no record names, new or changed (and anything copied in meanwhile), which this
 * build would not rewrite and its record would give to the deploy.
 */
export function removeUnrecordedOut(outDir: string, lastBuildFinished: boolean): void {
  if (lastBuildFinished || !fs.existsSync(outDir)) return
  fs.rmSync(outDir, { recursive: true, force: true })
  console.log(`build: the last build stopped while writing ${path.basename(outDir)}/, so it holds files no record names: it is written anew`)
}

export interface OutRecordSummary {
  files: number
  /** Files hashed because their stat was not the one recorded (written by this build, or racy). */
  hashed: number
  buildId: string
}

type Reading = Omit<OutRecordEntry, 'scripts'> & { scripts?: HashedScripts }

/** The record set aside when the build started, as the next one is made from it; none: every file of out/ is read. */
export interface LastOutRecord {
  /** Each file's line, by key (read as the build compares the file). */
  lines: ReadonlyMap<string, string>
  digest: string | null
  scripts: HashedScripts[]
}

/**
 * The record set aside (setOutRecordAside). Read apart from out/'s listing, so the build can read
 * it while the render waits on Next's process: at 30,000 pages it is tens of megabytes of JSON.
 */
export function readLastOutRecord(outDir: string): LastOutRecord {
  const last = parse(previousFileFor(outDir), outDir)
  // The digest proved the line whole as the record step wrote it.
  return { lines: last?.lines ?? new Map(), digest: last?.digest ?? null, scripts: last ? (JSON.parse(last.scriptSets) as HashedScripts[]) : [] }
}

/**
 * out/ against the record set aside: each file's entry is taken from it where the file's stamp is
 * the one recorded, and otherwise read once, for its hash and, for a page, its inline scripts.
 */
export class OutReading {
  private readonly readings = new Map<string, Reading>()
  private pageReadings: PageReading[] | undefined
  /** Files read (their stamp was not the one recorded). */
  hashed = 0

  constructor(readonly out: OutFiles, private readonly last: LastOutRecord = readLastOutRecord(out.dir)) {}

  /** Every page of out/ (its key, as `/path/page.html`) and its inline scripts. */
  pages(): PageReading[] {
    this.pageReadings ??= [...this.out.stamps.keys()].filter((key) => key.endsWith('.html')).map((key) => ({ page: `/${key}`, scripts: this.reading(key).scripts! }))
    return this.pageReadings
  }

  /**
   * The last record's line of `key` and the index of its scripts, when the file's stamp is the one
   * recorded and, for a page, its scripts were read. The stamp is compared as the line spells it,
   * not parsed: the record step asks this of every file of out/, each page twice.
   */
  private kept(key: string): { line: string; scripts: number | undefined } | undefined {
    const line = this.last.lines.get(key)
    const stamp = this.out.stamps.get(key)
    // After the key and the sha256 (64 hex digits): the size, then the stamp's fields (empty when
    // none was recorded). A file no step wrote (null) is the one recorded.
    if (line === undefined || (stamp !== null && !line.startsWith(stampFields(stamp!), line.indexOf('\t') + 65))) return undefined
    const last = line.slice(line.lastIndexOf('\t') + 1)
    const scripts = last === '' ? undefined : Number(last)
    return !key.endsWith('.html') || (scripts !== undefined && this.last.scripts[scripts] !== undefined) ? { line, scripts } : undefined
  }

  private reading(key: string): Reading {
    const done = this.readings.get(key)
    if (done) return done
    const kept = this.kept(key)
    const known = kept && entryOfLine(kept.line)
    let reading: Reading
    if (known) {
      reading = { sha256: known.sha256, size: known.size, stat: known.stat, scripts: known.scripts === undefined ? undefined : this.last.scripts[known.scripts] }
    } else {
      const file = path.join(this.out.dir, key)
      const stamp = this.out.stamps.get(key) ?? fileStampOf(fs.lstatSync(file))
      const readAt = Date.now()
      const bytes = fs.readFileSync(file)
      reading = { sha256: sha256(bytes), size: bytes.length }
      if (bytes.length === stamp.size && settledAt(stamp, readAt)) reading.stat = { mtimeMs: stamp.mtimeMs, dev: stamp.dev, ino: stamp.ino }
      if (key.endsWith('.html')) reading.scripts = hashedScripts(pageScripts(bytes.toString('utf8')))
      this.hashed++
    }
    this.readings.set(key, reading)
    return reading
  }

  /**
   * Every file's line, and the distinct script readings the pages' lines name by number, in the
   * order the lines first name them. `fromLast`: the last record's readings keep their numbers,
   * and each file kept as recorded its line, so an edit rewrites a few lines of tens of thousands;
   * undefined when those numbers no longer come in that order, or one is no longer named, as the
   * record would then differ from one made anew. With them, what changed since the last record
   * (outDelta.ts): null when that is a large change.
   */
  private numbered(fromLast: boolean): { lines: string[]; sets: HashedScripts[]; changes: OutDelta['files'] | null } | undefined {
    const sets = fromLast ? [...this.last.scripts] : []
    const byText = new Map(sets.map((scripts, index) => [JSON.stringify(scripts), index]))
    const byObject = new Map<HashedScripts, number>()
    const indexOf = (scripts: HashedScripts) => {
      let index = byObject.get(scripts)
      if (index === undefined) {
        const text = JSON.stringify(scripts)
        index = byText.get(text)
        if (index === undefined) byText.set(text, (index = sets.push(scripts) - 1))
        byObject.set(scripts, index)
      }
      return index
    }
    const lines: string[] = []
    let changes: OutDelta['files'] | null = {}
    let changed = 0
    const total = this.out.stamps.size
    const change = (key: string, entry: DeltaEntry | null) => {
      if (changes === null) return
      changes[key] = entry
      if (isLargeChange(++changed, total)) changes = null
    }
    let named = 0
    for (const key of this.out.stamps.keys()) {
      const kept = this.kept(key)
      let scripts = kept?.scripts
      if (kept && fromLast) lines.push(kept.line)
      else {
        const { scripts: read, ...entry } = this.reading(key)
        scripts = read && indexOf(read)
        lines.push(entryLine(key, scripts === undefined ? entry : { ...entry, scripts }))
        // A file kept as recorded has the recorded bytes; any other is compared with them.
        if (!kept) {
          const last = this.last.lines.get(key)
          if (last === undefined || digestOfLine(last) !== entry.sha256) change(key, { sha256: entry.sha256, size: entry.size, added: last === undefined })
        }
      }
      if (scripts === undefined || scripts < named) continue
      if (scripts > named) return undefined
      named++
    }
    for (const key of this.last.lines.keys()) if (!this.out.stamps.has(key)) change(key, null)
    return named < sets.length ? undefined : { lines, sets, changes }
  }

  /** The `record` step: every file of out/ with its hash (and a page's scripts), written whole; the record set aside goes. */
  write(buildId: string, rules?: string, pool?: string): OutRecordSummary {
    // Made anew, the readings are numbered as first named, so that record always is.
    const { lines, sets, changes } = this.numbered(true) ?? this.numbered(false)!
    lines.push(JSON.stringify(sets))
    const file = outRecordFileFor(this.out.dir)
    const { digest, partial } = writeLines(file, (digest) => JSON.stringify({ version: VERSION, out: outNameOf(this.out.dir), buildId, digest, ...(rules && { rules }), ...(pool && { pool }) }), lines)
    try {
      // Before the record: a build stopped between the two leaves a delta to no record, which nothing takes.
      writeOutDelta(this.out.dir, this.last.digest, digest, changes, this.out.stamps.size)
      fs.renameSync(partial, file)
    } finally {
      fs.rmSync(partial, { force: true })
    }
    fs.rmSync(previousFileFor(this.out.dir), { force: true })
    removeEmptyFolders(this.out.dir, [...this.last.lines.keys()].filter((key) => !this.out.stamps.has(key)))
    return { files: this.out.stamps.size, hashed: this.hashed, buildId }
  }
}

/**
 * Lines encoded and written at a time. The record is tens of megabytes at 30,000 pages, and memory
 * a process touches for the first time costs it more than the encoding: a few hundred lines make a
 * buffer the allocator takes from memory freed before, not from fresh pages (docs/benchmarks.md).
 */
const LINES_PER_WRITE = 512

/**
 * Writes a record's `lines` to a partial file beside `file` (../files.ts writeAtomically, which the
 * caller's rename completes), LINES_PER_WRITE at a time, after the header `head` makes of their
 * sha256: its length does not depend on the digest, so the lines go first, after room for it.
 */
function writeLines(file: string, head: (digest: string) => string, lines: readonly string[]): { digest: string; partial: string } {
  const partial = `${file}.${process.pid}.partial`
  fs.mkdirSync(path.dirname(file), { recursive: true })
  const fd = fs.openSync(partial, 'w')
  let written = false
  try {
    const hash = crypto.createHash('sha256')
    let position = Buffer.byteLength(`${head('0'.repeat(64))}\n`)
    for (let start = 0; start < lines.length; start += LINES_PER_WRITE) {
      const end = Math.min(start + LINES_PER_WRITE, lines.length)
      const bytes = Buffer.from(`${lines.slice(start, end).join('\n')}${end < lines.length ? '\n' : ''}`)
      hash.update(bytes)
      writeFully(fd, bytes, bytes.length, position)
      position += bytes.length
    }
    const digest = hash.digest('hex')
    writeFully(fd, Buffer.from(`${head(digest)}\n`), undefined, 0)
    written = true
    return { digest, partial }
  } finally {
    fs.closeSync(fd)
    if (!written) fs.rmSync(partial, { force: true })
  }
}

/**
 * `listing` without the files that neither this build's steps wrote nor the last build's record
 * names (`last`, when out/ stayed in place since that finished build), which are removed from out/:
 * something else put them there (a file copied in by hand, a `.DS_Store`), a clean build would not
 * have them, and the record would give them to the deploy.
 */
function withoutStrays(listing: OutFiles, last: LastOutRecord | undefined): OutFiles {
  if (!last || last.digest === null) return listing
  const strays = [...listing.stamps].flatMap(([key, stamp]) => (stamp === null && !last.lines.has(key) ? [key] : []))
  if (strays.length === 0) return listing
  for (const key of strays) fs.rmSync(path.join(listing.dir, key), { force: true })
  removeEmptyFolders(listing.dir, strays)
  console.log(`build: removed ${strays.length} file(s) from out/ that no build wrote (${strays.slice(0, 3).join(', ')}${strays.length > 3 ? ', …' : ''}): only what the build makes is deployed`)
  const gone = new Set(strays)
  return { dir: listing.dir, stamps: new Map([...listing.stamps].filter(([key]) => !gone.has(key))) }
}

/**
 * out/ as it is now, listed once (./outFiles.ts), against the record set aside when the build
 * started (`last`, if read already); `listed`: its keys, from the last step that wrote into it
 * (./outFiles.ts listOutFiles). `writes`: what this build's steps wrote, when `last` is the
 * finished build's record of out/ as they found it; only those files are stat'ed (none: every file is).
 */
export function readOut(outDir: string, listed?: readonly string[], last?: LastOutRecord, writes?: readonly OutWrites[]): OutReading {
  return new OutReading(withoutStrays(listOutFiles(outDir, listed, writes && writtenBy(writes)), writes && last), last)
}
