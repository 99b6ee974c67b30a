/**
 * One build at a time in a project: two would write the same out/ and .cache/ at once, each taking
 * the other's half-written files for its own. A build holds CACHE_PATHS.buildLock (its process
 * id) from its start to its end; a lock whose process is gone (a build that was killed) is taken
 * over. `npm run dev` does not take it (docs/architecture.md says not to run it beside a build).
 */
import fs from 'node:fs'
import path from 'node:path'
import { readJsonObject } from '../files'
import { isRunning } from '../mainProcess'
import { CACHE_PATHS } from './paths'
import { NamedError } from '../content/contentError'

/** Another build of the project runs: named, with what to do. */
export class BuildBusyError extends NamedError {
  constructor(holder: LockHolder | null) {
    super(
      `another build is running in this project${holder ? ` (process ${holder.pid}, started ${holder.started})` : ''}: two at once would write the same out/ and .cache/. ` +
        `Wait for it to end, or stop it, then build again. If no build is running, remove ${CACHE_PATHS.buildLock}.`
    )
  }
}

interface LockHolder {
  pid: number
  started: string
}

/** A lock file just made and not yet written is its maker's for this long. */
const WRITING_MS = 5_000

function holderOf(file: string): LockHolder | null {
  const holder = readJsonObject(file)
  return typeof holder?.pid === 'number' && typeof holder.started === 'string' ? { pid: holder.pid, started: holder.started } : null
}

/** Takes the project's build lock until this process exits; BuildBusyError while another build holds it. */
export function holdBuildLock(root: string): void {
  const file = path.join(root, CACHE_PATHS.buildLock)
  fs.mkdirSync(path.dirname(file), { recursive: true })
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      fs.writeFileSync(file, JSON.stringify({ pid: process.pid, started: new Date().toISOString() } satisfies LockHolder), { flag: 'wx' })
      process.once('exit', () => {
        if (holderOf(file)?.pid === process.pid) fs.rmSync(file, { force: true })
      })
      return
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error
      const holder = holderOf(file)
      if (holder ? holder.pid !== process.pid && isRunning(holder.pid) : Date.now() - (fs.statSync(file, { throwIfNoEntry: false })?.mtimeMs ?? 0) < WRITING_MS) throw new BuildBusyError(holder)
      // Left by a build that is gone: taken over. Moved aside first, in one step, so that of two
      // builds taking it over, one moves the stale lock and the other finds none (or the winner's).
      const aside = `${file}.${process.pid}`
      try {
        fs.renameSync(file, aside)
      } catch (renameError) {
        if ((renameError as NodeJS.ErrnoException).code !== 'ENOENT') throw renameError
        continue
      }
      const moved = holderOf(aside)
      if (moved && moved.pid !== holder?.pid) {
        // Another build took it over between the read and the move: its lock goes back.
        fs.renameSync(aside, file)
        throw new BuildBusyError(moved)
      }
      fs.rmSync(aside, { force: true })
    }
  }
  throw new BuildBusyError(holderOf(file))
}
