/**
 * "Last updated on <date>" for each docs page, from git: one `git log` for the whole repository at
 * build time, not one query per page. A file that git does not track has no date,
 * and neither has any file of a shallow clone, whose history is cut off: no date is better than a
 * wrong one. The page step (pipeline/render/pageProps.ts) puts the date into each page's props.
 *
 * The dates follow from the commits alone, so they are kept in .cache/ under the commit HEAD
 * names: a rebuild with no new commit (a writer's edits) does not read the whole history again.
 */
import childProcess from 'node:child_process'
import path from 'node:path'
import { keepUnder, keptUnder } from './files'
import { CACHE_PATHS } from './steps/paths'

/** Repository-relative path (forward slashes) → last commit time in milliseconds. */
export type LastUpdated = Record<string, number>

/** git's output; null when it fails. Not a synchronous call: the build's thread goes on meanwhile. */
function git(root: string, args: string[]): Promise<string | null> {
  return new Promise((resolve) => {
    childProcess.execFile('git', args, { cwd: root, encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 }, (error, stdout) => resolve(error ? null : stdout))
  })
}

/** The last commit time of every file git tracks under `dirs` (relative to `root`). */
export async function readLastUpdated(root: string, dirs: readonly string[] = ['content']): Promise<LastUpdated> {
  // No commit yet, or no repository: HEAD does not resolve, and there is nothing to date.
  const [top, shallow, head] = (await git(root, ['rev-parse', '--show-toplevel', '--is-shallow-repository', 'HEAD']))?.trim().split('\n') ?? []
  if (!top || shallow !== 'false' || !head) return {}
  const keptFile = path.join(root, CACHE_PATHS.lastUpdated)
  const key = JSON.stringify([head, top, dirs])
  const kept = keptUnder<LastUpdated>(keptFile, key)
  if (kept) return kept
  const log = await git(root, ['log', '--format=%x00%ct', '--name-only', '--no-renames', head, '--', ...dirs])
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
  keepUnder(keptFile, key, dates)
  return dates
}
