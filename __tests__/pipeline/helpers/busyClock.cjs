/**
 * Preloaded (`node --require`) into a process whose MDX compile should run as on a machine busy
 * with other work: in the compile's worker threads only, the wall clock moves 100 ms further at
 * each reading, as each step of the work seems to take longer when the thread waits for a core.
 * Worker threads run the parent's --require preloads; the main thread keeps the real clock.
 */
const { isMainThread } = require('node:worker_threads')

if (!isMainThread) {
  const now = Date.now
  let readings = 0
  Date.now = () => now() + 100 * ++readings
}
