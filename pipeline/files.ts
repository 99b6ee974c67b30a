/**
 * What every step does with files the same way: hash them, write one whole (never half, so a run
 * cut short leaves the last version), and list a tree. Imported by the steps, the compile, the
 * store and the deploy; it imports none of them.
 */
import crypto from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'

/** The hex sha256 of `data`. */
export const sha256 = (data: string | Buffer) => crypto.createHash('sha256').update(data).digest('hex')

/** A file's time and size, which change when it is written (not followed if it is a link); null when it is gone. */
export function stampOf(file: string): string | null {
  const stat = fs.lstatSync(file, { throwIfNoEntry: false })
  return stat ? `${stat.mtimeMs}:${stat.size}` : null
}

/** Writes `file` whole: to a partial file first, then renamed over it. */
export function writeAtomically(file: string, data: string | Buffer): void {
  fs.mkdirSync(path.dirname(file), { recursive: true })
  const partial = `${file}.${process.pid}.${crypto.randomBytes(4).toString('hex')}.partial`
  fs.writeFileSync(partial, data)
  fs.renameSync(partial, file)
}

/** Every file below `dir`, as sorted `/relative/path` keys. */
export function listFiles(dir: string): string[] {
  const keys: string[] = []
  const walk = (current: string) => {
    for (const entry of fs.readdirSync(current, { withFileTypes: true })) {
      const full = path.join(current, entry.name)
      if (entry.isDirectory()) walk(full)
      else keys.push('/' + path.relative(dir, full).split(path.sep).join('/'))
    }
  }
  walk(dir)
  return keys.sort()
}
