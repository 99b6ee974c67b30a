/**
 * Next's dev server for `npm run dev`, in a process of its own (./dev.ts runs it), made with
 * Next's custom-server API (`next({ dev: true })`, documented for the pages router) rather than
 * `next dev`. `next dev` loads next.config.ts in a first process, only to start a second one that
 * loads it again and serves: the docs route could start compiling about 1.7 s later at 3,000 pages
 * (docs/benchmarks.md). What that first process gave a writer is kept here: an edit of
 * next.config.ts starts the server again (exit code 77, which dev.ts takes as "start me again").
 *
 * Plain CommonJS, so that Node starts it without tsx: ./startDev.mjs forks it first of all, and it
 * loads Next's modules while the dev server loads and picks its ports, then sends it the
 * environment to serve with (PORT and the URLs next.config.ts reads). It binds 127.0.0.1 only.
 */
'use strict'
const fs = require('node:fs')
const http = require('node:http')
const path = require('node:path')

/** What `next dev` sets before it loads anything (next/dist/bin/next): a dev server is one. */
process.env.NODE_ENV = 'development'
process.env.NEXT_RUNTIME = 'nodejs'

const next = require('next')

/** The exit code that asks dev.ts to start this server again. */
const RESTART = 77
const CONFIG_FILE = 'next.config.ts'
const hostname = '127.0.0.1'

/** Serves once it has the environment next.config.ts reads (PORT, the local Cognito's and the dev server's URLs). */
function serve(env) {
  Object.assign(process.env, env)
  // Checked by dev.ts, which names a bad one.
  const port = Number(process.env.PORT)
  const dir = process.cwd()
  const server = http.createServer()
  const app = next({ dev: true, dir, hostname, port, httpServer: server })
  app.prepare().then(
    () => {
      const handle = app.getRequestHandler()
      server.on('request', (request, response) => handle(request, response))
      server.on('error', (error) => {
        console.error(`Next's dev server could not listen on ${hostname}:${port}: ${error.message}`)
        process.exit(1)
      })
      server.listen(port, hostname, () => {
        console.log(`Next listening in ${process.uptime().toFixed(1)}s; compiling the docs route`)
      })
      // Polled, not watched: an editor that saves by renaming would leave a watch on the old file.
      fs.watchFile(path.join(dir, CONFIG_FILE), { interval: 500 }, (now, before) => {
        if (now.mtimeMs === before.mtimeMs) return
        console.log(`${CONFIG_FILE} changed: starting Next's dev server again`)
        process.exit(RESTART)
      })
    },
    (error) => {
      console.error(`Next's dev server did not start: ${error instanceof Error ? error.message : error}`)
      process.exit(1)
    }
  )
}

if (process.send) {
  // Forked by the dev server before it has chosen its ports: Next's modules load meanwhile.
  process.once('message', (message) => serve(message.env))
  // The dev server is gone: nobody would stop this one.
  process.once('disconnect', () => process.exit(0))
} else {
  serve({})
}
