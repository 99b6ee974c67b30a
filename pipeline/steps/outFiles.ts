/**
 * out/ as the build's last steps find it: every file with its `lstat` stamp, as the last step that
 * writes into out/ listed it (routes; the edge and mcp steps write only their own folders).
 * The scripts, csp and record steps all take this one listing (./outRecord.ts reads what changed),
 * so out/ is walked and stat'ed once per build, not once per step.
 */
import fs from 'node:fs'
import path from 'node:path'
import { fileStampOf, listFiles, type FileStamp } from '../files'

export interface OutFiles {
  dir: string
  /** Each file by its object key (no leading slash), sorted. */
  stamps: ReadonlyMap<string, FileStamp>
}

/**
 * Lists `outDir` (../files.ts listFiles), with one `lstat` per file (a link is a file, not
 * followed). `listed`: its keys as a step that wrote into it last listed them (the routes step), not walked again.
 */
export function listOutFiles(outDir: string, listed?: readonly string[]): OutFiles {
  // Keys start with `/`: joined to the folder as they are, not normalised once per file.
  const base = path.resolve(outDir)
  return { dir: outDir, stamps: new Map((listed ?? listFiles(outDir)).map((key) => [key.slice(1), fileStampOf(fs.lstatSync(base + key))])) }
}
