/**
 * out/ as the build's last steps find it: every file with its `lstat` stamp, listed once, after the
 * last step that writes into out/ (routes; the edge and mcp steps write only their own folders).
 * The scripts, csp and record steps all take this one listing (./outRecord.ts reads what changed),
 * so out/ is walked and stat'ed once per build, not once per step.
 */
import fs from 'node:fs'
import path from 'node:path'
import { fileStampOf, type FileStamp } from '../files'

export interface OutFiles {
  dir: string
  /** Each file by its object key (no leading slash), sorted. */
  stamps: ReadonlyMap<string, FileStamp>
}

/** Lists `outDir`: one `readdir` per folder and one `lstat` per file (a link is a file, not followed). */
export function listOutFiles(outDir: string): OutFiles {
  const found: Array<[string, FileStamp]> = []
  const walk = (folder: string, prefix: string) => {
    for (const entry of fs.readdirSync(folder, { withFileTypes: true })) {
      const full = path.join(folder, entry.name)
      if (entry.isDirectory()) walk(full, `${prefix}${entry.name}/`)
      else found.push([`${prefix}${entry.name}`, fileStampOf(fs.lstatSync(full))])
    }
  }
  walk(outDir, '')
  found.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
  return { dir: outDir, stamps: new Map(found) }
}
