/**
 * out/ as the build's last steps find it: every file with its `lstat` stamp, as the routes step
 * listed it (the edge and mcp steps write only their own folders).
 * The scripts, csp and record steps all take this one listing (./outRecord.ts reads what changed),
 * so out/ is walked and stat'ed once per build, not once per step.
 *
 * A rebuild in place stats only what its steps wrote (`OutWrites`): out/ is the build's, and
 * every other file is the one the last record names. Each step that writes into out/ returns what it wrote.
 */
import fs from 'node:fs'
import path from 'node:path'
import { fileStampOf, listFiles, type FileStamp } from '../files'

export interface OutFiles {
  dir: string
  /**
   * Each file by its object key (no leading slash), sorted, with its stamp; null for a file no
   * step of this build wrote, taken as the last record names it, unstat'ed (`OutWrites`).
   */
  stamps: ReadonlyMap<string, FileStamp | null>
}

/** What a step wrote into out/: object keys (no leading slash), and folders (`a/b/`) any file under which it may have written. */
export interface OutWrites {
  files: readonly string[]
  folders?: readonly string[]
}

/** Whether a key (no leading slash) is one of `writes`' files, or under one of their folders. */
export function writtenBy(writes: readonly OutWrites[]): (key: string) => boolean {
  const files = new Set(writes.flatMap((each) => each.files))
  const folders = new Set(writes.flatMap((each) => each.folders ?? []))
  // Each of the key's folders looked up: a search step that indexed every shard names hundreds.
  const inFolder = (key: string) => {
    for (let slash = key.indexOf('/'); slash >= 0; slash = key.indexOf('/', slash + 1)) if (folders.has(key.slice(0, slash + 1))) return true
    return false
  }
  return (key) => files.has(key) || (folders.size > 0 && inFolder(key))
}

/**
 * Lists `outDir` (../files.ts listFiles), with one `lstat` per file (a link is a file, not
 * followed). `listed`: its keys as a step that wrote into it last listed them (the routes step), not walked again.
 * `written`: the keys this build's steps wrote, the only ones stat'ed (others: null); none, every one is.
 */
export function listOutFiles(outDir: string, listed?: readonly string[], written?: (key: string) => boolean): OutFiles {
  // Keys start with `/`: joined to the folder as they are, not normalised once per file.
  const base = path.resolve(outDir)
  const stamps = new Map<string, FileStamp | null>()
  for (const key of listed ?? listFiles(outDir)) {
    const name = key.slice(1)
    stamps.set(name, !written || written(name) ? fileStampOf(fs.lstatSync(base + key)) : null)
  }
  return { dir: outDir, stamps }
}
