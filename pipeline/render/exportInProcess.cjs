/**
 * Next's export (next/dist/export), loaded so that when it would start one export process it
 * renders in this one instead.
 *
 * The export requires Next's build module only to start its export processes
 * (createStaticWorker), and loading that module is half of the export's load; the process it
 * starts then loads Next's export worker and the server pages again. So this loads the export
 * with a stand-in for that module: it runs the export worker's `exportPages` here for the first
 * batch, with its input and result passed through JSON as the worker's messages are; asked for
 * more processes, it loads Next's build module at the second batch and starts one fewer, as Next
 * does. A private reach of Next's, listed in patches/privateReaches.ts.
 */
const Module = require('node:module')
const path = require('node:path')

/** The server pages Next's export loads for a page of the pages router, in its order (next/dist/server/load-components). */
const SERVER_PAGES = ['/_document', '/_app']

/** Where `next build` writes a page's server bundle in its dist folder (`/_app` is `server/pages/_app.js`). */
const serverPageFile = (page) => `server/pages${page}.js`

/** The messages between Next's export and its worker are JSON (child_process's own serialization). */
const asMessage = (value) => JSON.parse(JSON.stringify(value))

/** Pages this process rendered for the export, so the renderer says where they were rendered. */
let renderedHere = 0

/** Next's exportApp. Nothing else in this process asks for Next's build module, so the stand-in is only the export's. */
function loadExport() {
  const buildModule = require.resolve('next/dist/build/index.js')
  const exportWorker = require.resolve('next/dist/export/worker.js')
  const standIn = new Module(buildModule)
  standIn.filename = buildModule
  standIn.loaded = true
  const renderHere = async (input, options) => {
    const results = asMessage(await require(exportWorker).exportPages(asMessage(input)))
    renderedHere += results.length
    for (const _ of results) options.progress?.run()
    return results
  }
  standIn.exports = {
    createStaticWorker(config, options) {
      const cpus = config.experimental.cpus ?? 1
      let others = null
      let firstTaken = false
      return {
        // Next's export asks for all its batches at once: the first renders here, each other in
        // one of Next's export processes, one fewer than asked for, started at the second.
        async exportPages(input) {
          if (!firstTaken || cpus === 1) {
            firstTaken = true
            return renderHere(input, options)
          }
          if (!others) {
            delete require.cache[buildModule]
            others = require(buildModule).createStaticWorker({ ...config, experimental: { ...config.experimental, cpus: cpus - 1 } }, options)
          }
          return others.exportPages(input)
        },
        async end() {
          await others?.end()
        },
      }
    },
  }
  require.cache[buildModule] = standIn
  try {
    return require('next/dist/export').default
  } finally {
    delete require.cache[buildModule]
  }
}

/**
 * Loads what rendering `page` (as Next names it: `/[[...slug]]`) from `distDir` in this process
 * needs, in the order the export worker loads it: the worker, then the server pages. A module that
 * fails to load is left for the export to meet, with Next's own report.
 */
function preloadRender(distDir, page) {
  try {
    require('next/dist/export/worker.js')
    for (const name of [...SERVER_PAGES, page]) require(path.join(distDir, serverPageFile(name)))
  } catch {
    // Met again, and reported, when the export loads it.
  }
}

module.exports = { loadExport, preloadRender, serverPageFile, pagesRenderedHere: () => renderedHere }
