import fs from 'node:fs'
import path from 'node:path'

/** Every file below `dir`, as `/relative/path` keys. */
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
