import fs from 'node:fs'

/**
 * Runs a command's work as its process's one task. An error ends the process with code 1 and its
 * message (after the command's name, with `prefixErrors`). So does running out of work before the task settles (a promise that nothing left
 * running can settle): Node would otherwise exit with code 0, and a build would pass with its
 * later steps never run.
 */
export function runAsMain(name: string, work: () => Promise<unknown>, options: { prefixErrors?: boolean } = {}): void {
  let settled = false
  process.on('beforeExit', () => {
    if (settled) return
    console.error(`${name}: stopped before it finished, with nothing left running that could finish it; this is a bug in ${name}, not in your content. Run it again, and report it if it stops again.`)
    process.exit(1)
  })
  work().then(
    () => {
      settled = true
    },
    (error: unknown) => {
      settled = true
      const message = error instanceof Error ? error.message : String(error)
      // A message that names the command already (`deploy: another deploy…`, `deploy --withdraw: …`) is not named twice.
      const named = new RegExp(`^${name}( --[a-z-]+)*:`).test(message)
      console.error(options.prefixErrors && !named ? `${name}: ${message}` : message)
      process.exit(1)
    }
  )
}

/**
 * Whether the process `pid` runs (a lock's or a folder's owner): EPERM means it runs, as another
 * user. A zombie (ended, not yet reaped by its parent: a build killed a moment ago) runs nothing,
 * though a signal still finds it; Linux says so in /proc. A number that names no one process (0 or
 * below: a signal to it reaches a process group; a damaged lock's) is not running.
 */
export function isRunning(pid: number): boolean {
  if (!Number.isSafeInteger(pid) || pid <= 0) return false
  try {
    process.kill(pid, 0)
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EPERM') return false
  }
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8')
    // `pid (command) state …`: the command may hold spaces and parentheses, so the state follows the last `)`.
    return stat.charAt(stat.lastIndexOf(')') + 2) !== 'Z'
  } catch {
    return true
  }
}
