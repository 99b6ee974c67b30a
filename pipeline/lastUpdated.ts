/**
 * "Last updated on <date>" for each docs page, from git: one `git log` for the whole repository at
 * build time, not one query per page. A file that git does not track has no date,
 * and neither has any file of a shallow clone, whose history is cut off: no date is better than a
 * wrong one. The page step (pipeline/render/pageProps.ts) puts the date into each page's props.
 */
import { execFileSync } from 'node:child_process'
import path from 'node:path'

/** Repository-relative path (forward slashes) → last commit time in milliseconds. */
export type LastUpdated = Record<string, number>

function git(root: string, args: string[]): string | null {
  try {
    return execFileSync('git', args, { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'], maxBuffer: 256 * 1024 * 1024 })
  } catch {
    return null
  }
}

/** The last commit time of every file git tracks under `dirs` (relative to `root`). */
export function readLastUpdated(root: string, dirs: readonly string[] = ['content']): LastUpdated {
  const top = git(root, ['rev-parse', '--show-toplevel'])?.trim()
  if (!top || git(root, ['rev-parse', '--is-shallow-repository'])?.trim() !== 'false') return {}
  const log = git(root, ['log', '--format=%x00%ct', '--name-only', '--no-renames', '--', ...dirs])
  if (log === null) return {}
  const prefix = path.relative(top, root).split(path.sep).join('/')
  const dates: LastUpdated = {}
  // Newest commit first, so a file's first appearance is its last change.
  for (const commit of log.split('\0').slice(1)) {
    const [time, ...files] = commit.split('\n').filter(Boolean)
    for (const file of files) {
      const relative = prefix ? path.posix.relative(prefix, file) : file
      if (!(relative in dates)) dates[relative] = Number(time) * 1000
    }
  }
  return dates
}

