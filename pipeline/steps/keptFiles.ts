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
 * emptied it) is linked again from its kept copy, unmade. The build's record of out/ then stats
 * only what the steps wrote (`written`), and takes the others as they are.
 */
import fs from 'node:fs'
import path from 'node:path'
import { linkOrCopy, listFiles, removeEmptyFolders, takeRecord, writeAtomically } from '../files'
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
  /** The keys put into out/ since opening (linked or written; not those out/ held as they were), without their leading slash. */
  written(): string[]
}

export interface KeptFilesOptions {
  /** What every file's bytes also follow from (the site's code): a record of another version holds no file's inputs. */
  version?: string
}

/** What the record keeps of a kept file: its inputs (null for a file written by its bytes), its inode, and its size and time as written. */
interface KeptEntry {
  inputs: string | null
  ino: number
  dev: number
  size?: number
  mtimeMs?: number
}

const sameFile = (a: Pick<fs.Stats, 'ino' | 'dev'>, b: Pick<fs.Stats, 'ino' | 'dev'>) => a.ino === b.ino && a.dev === b.dev
/**
 * The kept copy as it was written: out/ links the same inode, so a file of out/ edited in place
 * (by hand, by a tool) edits the kept copy too, which would then be linked again as made, `rm -rf
 * out` or not. The edit changes its size or its time.
 */
const unchanged = (stat: fs.Stats, entry: KeptEntry) => sameFile(stat, entry) && stat.size === entry.size && stat.mtimeMs === entry.mtimeMs

/** The record: the version its inputs were made under, and each kept file's entry by key. */
interface KeptRecord {
  version: string
  files: Record<string, KeptEntry>
}

const RECORDS = { [CACHE_PATHS.markdownFiles]: CACHE_PATHS.markdownFilesRecord, [CACHE_PATHS.publicFiles]: CACHE_PATHS.publicFilesRecord } as const

/** The kept files of one step, in `dir` (one of CACHE_PATHS) under the project `root`. */
export function openKeptFiles(root: string, out: string, dir: (typeof CACHE_PATHS)['markdownFiles' | 'publicFiles'], { version = '' }: KeptFilesOptions = {}): KeptFiles {
  const keptRoot = path.join(root, dir)
  const recordFile = path.join(root, RECORDS[dir])
  // Taken as the step opens (../files.ts takeRecord): without one, the step compares every file by its bytes and walks the folder to prune.
  const taken = takeRecord(recordFile) as Partial<KeptRecord> | null
  const last = taken !== null && typeof taken === 'object' && typeof taken.version === 'string' && taken.files !== null && typeof taken.files === 'object' ? taken.files : null
  // Inputs count only under the version they were made by; the entries still name what to prune.
  const lastInputs = taken?.version === version ? last : null
  const next: Record<string, KeptEntry> = {}
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
    next[key] = { inputs, ino: keptStat.ino, dev: keptStat.dev, size: keptStat.size, mtimeMs: keptStat.mtimeMs }
    return changed
  }
  return {
    write: (key, bytes) => write(key, bytes, null),
    writeFrom(key, inputs, make) {
      const entry = lastInputs?.[key]
      if (entry && entry.inputs === inputs) {
        const present = statOf(path.join(out, key))
        if (present && unchanged(present, entry)) {
          next[key] = entry
          return false
        }
        const kept = path.join(keptRoot, key)
        const keptStat = statOf(kept)
        if (keptStat && unchanged(keptStat, entry)) {
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
        for (const key of listFiles(keptRoot)) if (!(key in next)) removeUnwritten(path.join(keptRoot, key), key)
      }
      // A page's folder goes with its last file, whichever step removes that (the render its HTML).
      removeEmptyFolders(out, removed)
      removeEmptyFolders(keptRoot, removed)
      save()
    },
    written: () => [...linked],
  }
}
