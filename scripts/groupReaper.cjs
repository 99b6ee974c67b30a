/**
 * Ends what a script left running once that script is gone, however it went. `npm test` runs each
 * step in a process group of its own, which its signal handlers end; killed outright (SIGKILL to
 * its process group, an out-of-memory kill), it has no handler, and its steps' groups kept running.
 * This process lives outside those groups and reads its orders on stdin, one a line:
 *   `+group <pgid>` / `-group <pgid>`   a process group to end, or one that ended by itself
 *   `+dir <path>` / `-dir <path>`       a temporary folder to remove, or one already removed
 * Its stdin ends when the script does (the pipe's only writer): it then ends each group it still
 * holds (SIGTERM, then SIGKILL after `GRACE_MS`), removes each folder, and exits.
 */
'use strict'
const { spawn } = require('node:child_process')
const fs = require('node:fs')

const GRACE_MS = 2000

function startReaper(input = process.stdin) {
  const groups = new Set()
  const dirs = new Set()
  let pending = ''
  const take = (line) => {
    const match = /^([+-])(group|dir) (.+)$/.exec(line)
    if (!match) return
    const [, sign, kind, value] = match
    const set = kind === 'group' ? groups : dirs
    const item = kind === 'group' ? Number(value) : value
    if (kind === 'group' && !(item > 1)) return
    if (sign === '+') set.add(item)
    else set.delete(item)
  }
  input.setEncoding('utf8')
  input.on('data', (chunk) => {
    const lines = (pending + chunk).split('\n')
    pending = lines.pop()
    lines.forEach(take)
  })
  return new Promise((resolve) => {
    input.on('end', () => {
      if (pending) take(pending)
      const signal = (name) => {
        for (const group of groups) {
          try {
            process.kill(-group, name)
          } catch {
            // The group is gone.
          }
        }
      }
      const removeDirs = () => {
        for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true })
      }
      const finish = () => {
        signal('SIGKILL')
        removeDirs()
        resolve()
      }
      if (groups.size === 0) return finish()
      signal('SIGTERM')
      setTimeout(finish, GRACE_MS)
    })
  })
}

/**
 * Starts the reaper for this process, outside its groups and session, and returns its orders. It
 * holds nothing of this process's event loop: this process ends as it would without it.
 */
function spawnReaper() {
  const reaper = spawn(process.execPath, [__filename], { stdio: ['pipe', 'ignore', 'inherit'], detached: true })
  reaper.unref()
  reaper.stdin.unref()
  // A reaper that could not start leaves the script as it was without one.
  reaper.on('error', () => {})
  reaper.stdin.on('error', () => {})
  const tell = (line) => reaper.stdin.write(`${line}\n`)
  return {
    holdGroup: (pgid) => tell(`+group ${pgid}`),
    releaseGroup: (pgid) => tell(`-group ${pgid}`),
    holdDir: (dir) => tell(`+dir ${dir}`),
    releaseDir: (dir) => tell(`-dir ${dir}`),
  }
}

if (require.main === module) {
  // The terminal's Ctrl-C reaches the script's group, not this one: the script's own stop decides.
  for (const name of ['SIGINT', 'SIGHUP']) process.on(name, () => {})
  startReaper().then(() => process.exit(0))
}

module.exports = { spawnReaper, startReaper, GRACE_MS }
