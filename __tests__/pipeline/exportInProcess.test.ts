/**
 * @jest-environment node
 *
 * Next's export as the renderer loads it (pipeline/render/exportInProcess.cjs): without Next's
 * build module, which Next's export requires only to start its export processes; it renders the
 * first batch in the caller's process, and for the others starts one fewer of Next's than asked for. Run in a plain Node
 * process: the stand-in is a module of Node's require cache, which Jest's own loader does not use.
 * (That a real render happens in the renderer's process is __tests__/integration/rebuild.test.ts's.)
 */
import { execFileSync } from 'node:child_process'
import path from 'node:path'

const MODULE = path.join(__dirname, '../../pipeline/render/exportInProcess.cjs')

/** What `script` prints as JSON, run in a production Node process with the module as `exportInProcess`. */
function inNode(script: string): unknown {
  const out = execFileSync(process.execPath, ['-e', `const exportInProcess = require(${JSON.stringify(MODULE)});\n(async () => {\n${script}\n})().then(() => process.exit(0), (error) => { console.error(error); process.exit(1) })`], {
    env: { ...process.env, NODE_ENV: 'production' },
    encoding: 'utf8',
  })
  return JSON.parse(out.trim().split('\n').pop()!)
}

test("Next's export loads without Next's build module, and still asks for its export processes through it", () => {
  const result = inNode(`
    const buildModule = require.resolve('next/dist/build/index.js')
    const exportApp = exportInProcess.loadExport()
    const exportModule = require.cache[require.resolve('next/dist/export')]
    const asksBuild = /require\\("\\.\\.\\/build"\\)/.test(require('fs').readFileSync(exportModule.filename, 'utf8'))
    console.log(JSON.stringify({ exportApp: typeof exportApp, buildLoaded: buildModule in require.cache, asksBuild }))
  `)
  // If Next's export stops asking for createStaticWorker there, the renderer would quietly start processes again.
  expect(result).toEqual({ exportApp: 'function', buildLoaded: false, asksBuild: true })
})

test('the stand-in renders the first batch here, and starts one of Next’s export processes fewer than asked for, at the second', () => {
  const result = inNode(`
    const Module = require('module')
    const buildModule = require.resolve('next/dist/build/index.js')
    exportInProcess.loadExport()
    // The stand-in Next's export holds: the export module's cached child for '../build'.
    const exportModule = require.cache[require.resolve('next/dist/export')]
    const standIn = exportModule.children.find((child) => child.filename === buildModule).exports
    // Next's export worker, as this process would load it: it renders nothing, and says what it was given.
    const workerPath = require.resolve('next/dist/export/worker.js')
    const worker = new Module(workerPath)
    Object.assign(worker, { filename: workerPath, loaded: true, exports: { exportPages: async (input) => input.exportPaths.map((path) => ({ path })) } })
    require.cache[workerPath] = worker
    const childProcess = require('child_process')
    let forked = 0
    const fork = childProcess.fork
    childProcess.fork = function (...args) { forked++; return fork.apply(this, args) }
    const one = standIn.createStaticWorker({ experimental: { cpus: 1 } }, {})
    const oneResults = [await one.exportPages({ exportPaths: ['/a'] }), await one.exportPages({ exportPaths: ['/b'] })]
    await one.end()
    const oneForked = forked
    const two = standIn.createStaticWorker({ experimental: { cpus: 3, workerThreads: false }, staticPageGenerationTimeout: 60 }, { debuggerPortOffset: -1 })
    const first = await two.exportPages({ exportPaths: ['/c'] })
    const atFirst = { forked: forked - oneForked, buildLoaded: buildModule in require.cache }
    // Sent to Next's process, which cannot render it: only that it was started counts here.
    two.exportPages({ exportPaths: ['/d'] }).catch(() => undefined)
    const atSecond = forked - oneForked
    await two.end()
    console.log(JSON.stringify({ oneShape: Object.keys(one).sort(), oneResults, oneForked, first, atFirst, atSecond, buildLoaded: buildModule in require.cache, renderedHere: exportInProcess.pagesRenderedHere() }))
  `)
  expect(result).toEqual({
    oneShape: ['end', 'exportPages'],
    oneResults: [[{ path: '/a' }], [{ path: '/b' }]],
    oneForked: 0,
    first: [{ path: '/c' }],
    atFirst: { forked: 0, buildLoaded: false },
    atSecond: 2,
    buildLoaded: true,
    renderedHere: 3,
  })
})
