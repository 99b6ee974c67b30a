/**
 * Ends this process as a SIGTERM would once the process that started it is gone. Stopping
 * `npm start` or `npm run dev` with SIGTERM (an IDE's stop button, a process manager) ends npm and
 * its shell but not their script's process, which then kept the site's ports and its children.
 * npm killed outright (SIGKILL) leaves its shell (`sh -c`) waiting on this process: so the
 * shell's own parent is watched too, where the system says it (Linux's /proc).
 * Plain CommonJS, for scripts/start.mjs and the build's own starter (pipeline/steps/build.cjs) too.
 */
'use strict'
const fs = require('node:fs')

/** The parent of process `pid`, or null where the system does not say (no /proc) or it is gone. */
function parentOf(pid) {
  try {
    // /proc/<pid>/stat: "pid (name) state ppid …"; the name may hold spaces and parentheses.
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8')
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1])
  } catch {
    return null
  }
}

function endWithParent(everyMs = 500) {
  const parent = process.ppid
  const grandparent = parentOf(parent)
  const timer = setInterval(() => {
    if (process.ppid === parent && (grandparent === null || parentOf(parent) === grandparent)) return
    clearInterval(timer)
    process.kill(process.pid, 'SIGTERM')
  }, everyMs)
  timer.unref()
}

module.exports = { endWithParent }
