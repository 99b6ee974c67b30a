/**
 * Files a step puts in out/, kept between builds and linked into out/: the Markdown step's, and the
 * public files. `next build` empties out/ every build, and a file written again, even with the
 * same bytes, has a new time and inode, so the build's record of out/ would hash it again
 * (./outRecord.ts). Each file is kept under its step's folder of .cache/ and
 * hard-linked into out/; a file whose bytes equal its kept copy's is linked as it was, so an edit
 * rewrites only the files it changes (its page's Markdown, its part of the full text, its
 * audience's index and catalog, an image).
 */
import fs from 'node:fs'
import path from 'node:path'
import { CACHE_PATHS } from './paths'


export interface KeptFiles {
  /** Puts `bytes` at `key` (from `/`) in out/; whether they differ from the kept copy (and were written). */
  write(key: string, bytes: Buffer): boolean
  /** Removes the kept copies of files not written since opening, and their links in out/ (out/ may be the last build's, ../render/renderPlan.ts). */
  prune(): void
}

const sameFile = (a: fs.Stats, b: fs.Stats) => a.ino === b.ino && a.dev === b.dev

/** The kept files of one step, in `dir` (one of CACHE_PATHS) under the project `root`. */
export function openKeptFiles(root: string, out: string, dir: (typeof CACHE_PATHS)['markdownFiles' | 'publicFiles']): KeptFiles {
  const keptRoot = path.join(root, dir)
  const written = new Set<string>()
  const statOf = (file: string) => fs.statSync(file, { throwIfNoEntry: false })
  return {
    write(key, bytes) {
      const kept = path.join(keptRoot, key)
      const target = path.join(out, key)
      written.add(path.resolve(kept))
      const before = statOf(kept)
      const changed = before === undefined || before.size !== bytes.length || !fs.readFileSync(kept).equals(bytes)
      if (changed) {
        fs.mkdirSync(path.dirname(kept), { recursive: true })
        // A new file, not the old one rewritten: the old inode may still be linked from out/.
        fs.writeFileSync(`${kept}.tmp`, bytes)
        fs.renameSync(`${kept}.tmp`, kept)
      }
      const keptStat = fs.statSync(kept)
      const present = statOf(target)
      if (present && sameFile(present, keptStat)) return changed
      if (present) fs.rmSync(target)
      fs.mkdirSync(path.dirname(target), { recursive: true })
      try {
        fs.linkSync(kept, target)
      } catch (error) {
        // Another file system (or one without links): a copy is as right, only read again by the deploy.
        if (!['EXDEV', 'EPERM', 'ENOTSUP'].includes((error as NodeJS.ErrnoException).code ?? '')) throw error
        fs.copyFileSync(kept, target)
      }
      return changed
    },
    prune() {
      if (!fs.existsSync(keptRoot)) return
      for (const entry of fs.readdirSync(keptRoot, { recursive: true, withFileTypes: true })) {
        const file = path.resolve(entry.parentPath, entry.name)
        if (!entry.isFile() || written.has(file)) continue
        const target = path.join(out, path.relative(keptRoot, file))
        const linked = statOf(target)
        if (linked && sameFile(linked, fs.statSync(file))) fs.rmSync(target)
        fs.rmSync(file)
      }
    },
  }
}
