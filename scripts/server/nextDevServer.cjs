/**
 * Next's dev server for `npm run dev`, in a process of its own (./startDev.mjs forks it, ./dev.ts
 * runs it), made with Next's custom-server API (`next({ dev: true })`, documented for the pages
 * router) rather than `next dev`. `next dev` loads next.config.ts in a first process, only to fork
 * a second one that loads it again and serves: the docs route could start compiling about 1.7 s
 * later at 3,000 pages (docs/benchmarks.md). What those two processes did for a developer is kept:
 * it listens before Next is ready (a port in use is said at once), a request that fails is answered
 * 500, Ctrl-C closes Next's workers, and an edit of next.config.ts starts the server again (it
 * tells dev.ts, which forks another).
 *
 * Plain CommonJS, so that Node starts it without tsx: it is forked first of all, loads Next's
 * modules while the dev server loads and picks its ports, and then is sent what to serve with:
 * `{ env, hostname, port }` (the environment holds the URLs next.config.ts reads).
 */
'use strict'
const { EventEmitter } = require('node:events')
const fs = require('node:fs')
const http = require('node:http')
const path = require('node:path')
const { refuseForeign, refuseForeignUpgrade } = require('./thisMachineOnly.cjs')

// A dev server is one, whatever the shell says (`next dev` would keep a "production" it was given).
process.env.NODE_ENV = 'development'
process.env.NEXT_RUNTIME = 'nodejs'

const next = require('next')

const CONFIG_FILE = 'next.config.ts'
/** How long Next gets to close its workers when stopped. */
const CLOSE_MS = 3000

function serve({ env, hostname, port }) {
  Object.assign(process.env, env)
  const dir = process.cwd()
  const server = http.createServer()
  // Next takes its WebSockets (its updates, which name each page opened) from the upgrades this
  // passes on: one from another site's page, or through a host name that is not this machine's, is
  // refused first, as every request is below (./thisMachineOnly.cjs).
  const upgrades = new EventEmitter()
  server.on('upgrade', (request, socket, head) => {
    if (refuseForeignUpgrade(request, socket)) return
    // Next listens for them from its first request on; before that, one is closed (its page retries), not left open.
    if (upgrades.listenerCount('upgrade') === 0) return socket.destroy()
    upgrades.emit('upgrade', request, socket, head)
  })
  const app = next({ dev: true, dir, hostname, port, httpServer: upgrades })
  let closing
  const close = () => (closing ??= Promise.race([app.close(), new Promise((resolve) => setTimeout(resolve, CLOSE_MS))]).finally(() => process.exit(0)))
  process.once('SIGINT', close)
  process.once('SIGTERM', close)
  // The dev server is gone: nobody would stop this one.
  process.once('disconnect', close)
  // Watched from the start, so an edit made while Next starts counts. Polled: an editor that saves
  // by renaming would leave a watch on the old file.
  fs.watchFile(path.join(dir, CONFIG_FILE), { interval: 500 }, (now, before) => {
    if (now.mtimeMs === before.mtimeMs) return
    console.log(`${CONFIG_FILE} changed: starting Next's dev server again`)
    process.send({ restart: true }, close)
  })
  // Listening before Next is ready, as `next dev` does: requests wait for it.
  const handler = app.prepare().then(() => app.getRequestHandler())
  handler.catch((error) => {
    console.error("Next's dev server did not start:")
    console.error(error)
    process.exit(1)
  })
  server.on('request', (request, response) =>
    refuseForeign(request, response) ||
    handler
      .then((handle) => handle(request, response))
      .catch((error) => {
        console.error(`Next's dev server failed on ${request.url}:`)
        console.error(error)
        if (!response.headersSent) response.statusCode = 500
        response.end()
      })
  )
  server.on('error', (error) => {
    console.error(`Next's dev server could not listen on ${hostname}:${port}: ${error.message}`)
    process.exit(1)
  })
  // Said, as `next dev` says "Ready", once it listens and Next can answer.
  const listening = new Promise((resolve) => server.listen(port, hostname, resolve))
  Promise.all([listening, handler]).then(() => console.log(`Next listening in ${process.uptime().toFixed(1)}s; compiling the docs route`), () => undefined)
}

if (!process.send) {
  console.error('scripts/server/nextDevServer.cjs is started by npm run dev (scripts/server/startDev.mjs), which sends it the ports and URLs to serve with')
  process.exit(1)
}
process.once('message', serve)
