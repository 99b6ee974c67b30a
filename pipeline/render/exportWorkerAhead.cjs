/**
 * Next's export forks its worker process (jest-worker's processChild.js) only once it has its
 * routes, and that process then loads Next's renderer and the site's server pages: most of a
 * one-page render. So the renderer (./renderWithNext.cjs) forks that process ahead, while it waits
 * to be told, with the options Next's export will fork it with, and has it load those modules
 * (./preloadExportWorker.cjs). When the export forks its worker, it gets this process, but only if
 * it asks for exactly those options; otherwise it gets a new one, as without this, and only the
 * time is lost. A private reach of Next's, listed in patches/privateReaches.ts.
 */
const childProcess = require('node:child_process')
const path = require('node:path')
const { isDeepStrictEqual } = require('node:util')

/** The preload's list of modules to load, in the forked process's environment until it reads it. */
const PRELOAD_ENV = 'DOCS_EXPORT_WORKER_PRELOAD'

/** The server pages Next's export loads for a page of the pages router, in its order (next/dist/server/load-components). */
const SERVER_PAGES = ['/_document', '/_app']

/** Where `next build` writes a page's server bundle in its dist folder (`/_app` is `server/pages/_app.js`). */
const serverPageFile = (page) => `server/pages${page}.js`

/**
 * The options Next's export forks its worker with, as next/dist/lib/worker.js and jest-worker make
 * them: the renderer's environment and Node flags, less its heap limit (an export worker's memory
 * is its own) and any debugger flag.
 */
function exportWorkerOptions(resolve, config) {
  const { getParsedNodeOptionsWithoutInspect, formatNodeOptions } = require(resolve('next/dist/server/lib/utils'))
  const nodeOptions = getParsedNodeOptionsWithoutInspect()
  if (config.experimental.enablePrerenderSourceMaps) nodeOptions['enable-source-maps'] = true
  delete nodeOptions['max-old-space-size']
  delete nodeOptions['max_old_space_size']
  return {
    cwd: process.cwd(),
    env: { ...process.env, IS_NEXT_WORKER: 'true', NODE_OPTIONS: formatNodeOptions(nodeOptions) },
    execArgv: process.execArgv.filter((arg) => !/^--(debug|inspect)/.test(arg)),
    silent: true,
  }
}

/** What differs between the options asked for and those expected, by name only (an environment's values stay unsaid). */
function difference(asked, expected) {
  const keys = [...new Set([...Object.keys(asked ?? {}), ...Object.keys(expected)])].filter((key) => !isDeepStrictEqual(asked?.[key], expected[key]))
  return keys.map((key) => (key === 'env' ? `env ${Object.keys({ ...asked?.env, ...expected.env }).filter((name) => asked?.env?.[name] !== expected.env[name]).join(', ')}` : key)).join('; ')
}

/**
 * Forks the export worker of the site at `root` ahead, to load Next's export worker and the server
 * pages of `page` (as Next names it: `/[[...slug]]`) from `distDir`. `offer()` hands it to the
 * export's next fork; `close()` ends it unless it was taken, and says what happened.
 */
function forkExportWorkerAhead(root, config, distDir, page) {
  const resolve = (id) => require.resolve(id, { paths: [root] })
  const processChild = resolve('next/dist/compiled/jest-worker/processChild.js')
  const expected = exportWorkerOptions(resolve, config)
  const preload = [resolve('next/dist/build/worker.js'), ...[...SERVER_PAGES, page].map((name) => path.join(distDir, serverPageFile(name)))]
  const child = childProcess.fork(processChild, [], {
    ...expected,
    env: { ...expected.env, [PRELOAD_ENV]: JSON.stringify(preload) },
    execArgv: [...expected.execArgv, '--require', path.join(__dirname, 'preloadExportWorker.cjs')],
  })
  let taken = false
  let outcome = 'not taken: the export forked no worker'
  // Not taken, it ends with the renderer, whatever ends that.
  const endUntaken = () => taken || child.kill()
  process.once('exit', endUntaken)
  return {
    offer() {
      const fork = childProcess.fork
      childProcess.fork = function forkOnce(modulePath, args, options) {
        childProcess.fork = fork
        const alive = child.connected && child.exitCode === null && child.signalCode === null
        const why = modulePath !== processChild ? `it forked ${modulePath}` : !isDeepStrictEqual(args, []) ? 'it forked with arguments' : !alive ? 'it had exited' : difference(options, expected)
        if (!why) {
          taken = true
          outcome = 'taken'
          return child
        }
        outcome = `not taken: ${why}`
        child.kill()
        return fork.apply(this, arguments)
      }
    },
    close() {
      endUntaken()
      process.removeListener('exit', endUntaken)
      return outcome
    },
  }
}

module.exports = { forkExportWorkerAhead, serverPageFile, PRELOAD_ENV }
