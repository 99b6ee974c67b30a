/**
 * Ends this process as a SIGTERM would once the process that started it is gone. Stopping
 * `npm start` or `npm run dev` with SIGTERM (an IDE's stop button, a process manager) ends npm and
 * its shell but not their script's process, which then kept the site's ports and its children.
 * Plain Node, for scripts/start.mjs too.
 */
export function endWithParent(everyMs = 500) {
  const parent = process.ppid
  const timer = setInterval(() => {
    if (process.ppid === parent) return
    clearInterval(timer)
    process.kill(process.pid, 'SIGTERM')
  }, everyMs)
  timer.unref()
}
