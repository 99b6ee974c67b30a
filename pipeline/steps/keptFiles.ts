/**
 * Files a step puts in out/, kept between builds and linked into out/: the Markdown step's, and the
 * public files. `next build` empties out/ every build, and a file written again, even with the
 * same bytes, has a new time and inode, so the build's record of out/ would hash it again
 * (./outRecord.ts). Each file is kept under its step's folder of .cache/ and
 * hard-linked into out/; a file whose bytes equal its kept copy's is linked as it was, so an edit
 * rewrites only the files it changes (its page's Markdown, its part of the full text, its
 * audience's index and catalog, an image).
 *
 * A step that can name what a file is made from (writeFrom) does not even make it when those
 * inputs are the kept copy's: the record beside the folder keeps each kept file's inputs and
 * inode, so a file out/ still links at its key costs a stat, and one out/ lost (`next build`
 * emptied it) is linked again from its kept copy, unmade. When out/ stayed in place since the
 * record was saved, not even the stat: a listing of the file's folder finds it there, and the
 * build's listing of out/ with each file's stamp, which it makes anyway for its record
 * (./outFiles.ts), proves it is still the kept copy afterwards (`proveLinks`), mending one that is
 * not; a rebuild in place stats only what its steps wrote (`written`), and takes the others as they are.
 */
import fs from 'node:fs'
import path from 'node:path'
import { linkOrCopy, presentUnder, removeEmptyFolders, takeRecord, writeAtomically } from '../files'
import { CACHE_PATHS } from './paths'

export interface KeptFiles {
  /** Puts `bytes` at `key` (from `/`) in out/; whether they differ from the kept copy (and were written). */
  write(key: string, bytes: Buffer): boolean
  /**
   * Puts the file made of `inputs` (a digest of everything its bytes follow from) at `key`: when
   * the kept copy was made of the same, it stays (or is linked again) and `make` is not called.
   * Whether the bytes were written.
   */
  writeFrom(key: string, inputs: string, make: () => Buffer): boolean
  /**
   * Removes the kept copies of files not written since opening, and their links in out/ (out/ may
   * be the last build's, ../render/renderPlan.ts), and saves the record for the next build.
   */
  prune(): void
  /**
   * With `outInPlace`: takes out/'s stamps as listed after the step (`stampOf`, by key) and links
   * again each file writeFrom left unchecked that out/ no longer holds as its kept copy (made again
   * when the kept copy is gone too); a stamp of null is a file out/ holds as the step left it
   * (../steps/outFiles.ts). The keys it wrote.
   */
  proveLinks(stampOf: (key: string) => Pick<fs.Stats, 'ino' | 'dev'> | null | undefined): string[]
  /** The keys put into out/ since opening (linked or written; not those out/ held as they were), without their leading slash. */
  written(): string[]
}

export interface KeptFilesOptions {
  /** What every file's bytes also follow from (the site's code): a record of another version holds no file's inputs. */
  version?: string
  /**
   * out/ is the one the record was saved beside, untouched by the build since (a rebuild in place):
   * writeFrom takes a file of the same inputs that out/ holds as its kept copy, unchecked until proveLinks.
   */
  outInPlace?: boolean
}

/** What the record keeps of a kept file: its inputs (null for a file written by its bytes) and its inode. */
interface KeptEntry {
  inputs: string | null
  ino: number
  dev: number
}

const sameFile = (a: Pick<fs.Stats, 'ino' | 'dev'>, b: Pick<fs.Stats, 'ino' | 'dev'>) => a.ino === b.ino && a.dev === b.dev

/** The record: the version its inputs were made under, and each kept file's entry by key. */
interface KeptRecord {
  version: string
  files: Record<string, KeptEntry>
}

const RECORDS = { [CACHE_PATHS.markdownFiles]: CACHE_PATHS.markdownFilesRecord, [CACHE_PATHS.publicFiles]: CACHE_PATHS.publicFilesRecord } as const

/** The kept files of one step, in `dir` (one of CACHE_PATHS) under the project `root`. */
export function openKeptFiles(root: string, out: string, dir: (typeof CACHE_PATHS)['markdownFiles' | 'publicFiles'], { version = '', outInPlace = false }: KeptFilesOptions = {}): KeptFiles {
  const keptRoot = path.join(root, dir)
  const recordFile = path.join(root, RECORDS[dir])
  // Taken as the step opens (../files.ts takeRecord): without one, the step compares every file by its bytes and walks the folder to prune.
  const taken = takeRecord(recordFile) as Partial<KeptRecord> | null
  const last = taken !== null && typeof taken === 'object' && typeof taken.version === 'string' && taken.files !== null && typeof taken.files === 'object' ? taken.files : null
  // Inputs count only under the version they were made by; the entries still name what to prune.
  const lastInputs = taken?.version === version ? last : null
  const next: Record<string, KeptEntry> = {}
  // Files taken as linked without a stat (outInPlace), and how each is made.
  const unchecked = new Map<string, () => Buffer>()
  let inOut: ((key: string) => boolean) | undefined
  const linked = new Set<string>()
  const save = () => writeAtomically(recordFile, JSON.stringify({ version, files: next } satisfies KeptRecord))
  const statOf = (file: string) => {
    try {
      return fs.statSync(file, { throwIfNoEntry: false })
    } catch (error) {
      // A file where the path has a folder (a public folder named like a page's file, which the content check now refuses, in a last build's record): not there.
      if ((error as NodeJS.ErrnoException).code === 'ENOTDIR') return undefined
      throw error
    }
  }
  /** Links the kept copy at `key` into out/, unless out/ has it there already. */
  const link = (key: string, kept: string, keptStat: fs.Stats) => {
    const target = path.join(out, key)
    const present = statOf(target)
    if (present && sameFile(present, keptStat)) return
    // A folder put there by hand goes too: out/ is the build's.
    if (present) fs.rmSync(target, { recursive: true })
    fs.mkdirSync(path.dirname(target), { recursive: true })
    linkOrCopy(kept, target)
    linked.add(key.slice(1))
  }
  const write = (key: string, bytes: Buffer, inputs: string | null): boolean => {
    const kept = path.join(keptRoot, key)
    const before = statOf(kept)
    const changed = before === undefined || before.size !== bytes.length || !fs.readFileSync(kept).equals(bytes)
    if (changed) {
      fs.mkdirSync(path.dirname(kept), { recursive: true })
      // A new file, not the old one rewritten: the old inode may still be linked from out/.
      fs.writeFileSync(`${kept}.tmp`, bytes)
      fs.renameSync(`${kept}.tmp`, kept)
    }
    const keptStat = fs.statSync(kept)
    link(key, kept, keptStat)
    next[key] = { inputs, ino: keptStat.ino, dev: keptStat.dev }
    return changed
  }
  return {
    write: (key, bytes) => write(key, bytes, null),
    writeFrom(key, inputs, make) {
      const entry = lastInputs?.[key]
      if (entry && entry.inputs === inputs) {
        // out/'s folder listed once names the file: whether it is still the kept copy is proved later.
        if (outInPlace && (inOut ??= presentUnder(out))(key.slice(1))) {
          next[key] = entry
          unchecked.set(key, make)
          return false
        }
        const present = statOf(path.join(out, key))
        if (present && sameFile(present, entry)) {
          next[key] = entry
          return false
        }
        const kept = path.join(keptRoot, key)
        const keptStat = statOf(kept)
        if (keptStat && sameFile(keptStat, entry)) {
          link(key, kept, keptStat)
          next[key] = entry
          return false
        }
      }
      return write(key, make(), inputs)
    },
    prune() {
      // Out/'s link goes when it is the kept copy (or, the copy gone, the file the record names).
      const removed: string[] = []
      const removeUnwritten = (file: string, key: string, recorded?: KeptEntry) => {
        const keptStat = statOf(file) ?? recorded
        if (!keptStat) return
        const target = path.join(out, key)
        const linked = statOf(target)
        if (linked && sameFile(linked, keptStat)) fs.rmSync(target)
        fs.rmSync(file, { force: true })
        removed.push(key.slice(1))
      }
      if (last) {
        for (const [key, entry] of Object.entries(last)) if (!(key in next)) removeUnwritten(path.join(keptRoot, key), key, entry)
      } else if (fs.existsSync(keptRoot)) {
        // No record (the first build, or one that stopped half way): what the folder holds is the truth.
        for (const entry of fs.readdirSync(keptRoot, { recursive: true, withFileTypes: true })) {
          const file = path.join(entry.parentPath, entry.name)
          const key = `/${path.relative(keptRoot, file).split(path.sep).join('/')}`
          if (entry.isFile() && !(key in next)) removeUnwritten(file, key)
        }
      }
      // A page's folder goes with its last file, whichever step removes that (the render its HTML).
      removeEmptyFolders(out, removed)
      removeEmptyFolders(keptRoot, removed)
      save()
    },
    proveLinks(stampOf) {
      const written: string[] = []
      for (const [key, make] of unchecked) {
        const entry = next[key]
        const stamp = stampOf(key)
        if (stamp === null || (stamp && sameFile(stamp, entry))) continue
        const kept = path.join(keptRoot, key)
        const keptStat = statOf(kept)
        if (keptStat && sameFile(keptStat, entry)) link(key, kept, keptStat)
        else write(key, make(), entry.inputs)
        written.push(key)
      }
      unchecked.clear()
      if (written.length > 0) save()
      return written
    },
    written: () => [...linked],
  }
}
