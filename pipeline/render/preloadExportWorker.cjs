/**
 * Loaded with --require into the export worker the renderer forks ahead (./exportWorkerAhead.cjs):
 * requires, in order, the modules Next's export worker will load (its own module, then the server
 * pages), and takes its list out of the environment, so the process's environment is the one
 * Next's export asked for. A module that fails to load is left for the worker to meet as it would
 * have, with Next's own report.
 */
const { PRELOAD_ENV } = require('./exportWorkerAhead.cjs')

const modules = JSON.parse(process.env[PRELOAD_ENV] ?? '[]')
delete process.env[PRELOAD_ENV]
for (const file of modules) {
  try {
    require(file)
  } catch {
    break
  }
}
