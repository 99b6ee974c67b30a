// After compiling, `next build` traces which files Next's own server needs (node-file-trace of
// next-server.js and next-minimal-server.js, written to .next/*.nft.json) for standalone and
// serverless hosting. A static export deploys no server, so nothing reads them, and the trace
// walks Next's whole dist on every build, a tenth of a rebuild of this site (docs/benchmarks.md, figures behind choices in the code).
//
// Next calls the tracer through the exports of its compiled @vercel/nft at the moment it traces
// (`(0, _nft.nodeFileTrace)(…)` in next/dist/build/collect-build-traces.js), so the tracer is
// replaced there, in the build's main process, by one that finds no files. Next then writes its
// trace files, empty, and goes on.
//
// Measured by: the `next build` step's time in `npm run bench build`. Tested in
// __tests__/patches/next.test.ts.
const nft = require('next/dist/compiled/@vercel/nft')

const TRACER = 'nodeFileTrace'
const CALLER_FILE = 'next/dist/build/collect-build-traces.js'

async function traceNothing() {
  return { fileList: new Set(), esmFileList: new Set(), reasons: new Map(), warnings: new Set() }
}

function skipServerTraces() {
  const property = Object.getOwnPropertyDescriptor(nft, TRACER)
  if (!property || !property.configurable) {
    throw new Error(`patches/next/noServerTraces.cjs: next/dist/compiled/@vercel/nft no longer exports a replaceable ${TRACER}; check how ${CALLER_FILE} traces now`)
  }
  Object.defineProperty(nft, TRACER, { value: traceNothing, enumerable: true, configurable: true, writable: true })
}

module.exports = { skipServerTraces, TRACER, CALLER_FILE }
