/**
 * `npm run dev`: tells the open docs pages that the pages' props were written again, so that they
 * fetch theirs anew (lib/render/useDevPropsRefresh.ts) and Next compiles nothing for a content
 * edit. Server-Sent Events on 127.0.0.1; next.config.ts rewrites DEV_PROPS_EVENTS_PATH here, so
 * the browser asks its own origin.
 *
 * Each event is the time of the last write (ms since the epoch) and the routes whose props it wrote,
 * each as a token (lib/render/devPropsEvents.ts), so the events name no page and only those pages
 * refetch theirs: two open tabs no longer share Next's dev server for the edited page's data
 * request. A browser that connects (again) is sent the last write at once, as one for every page:
 * a page whose props are older than that, because the write came while it loaded or while its
 * connection was lost, refreshes then. The server and the browser share a clock: the dev server
 * listens on 127.0.0.1.
 */
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { propsEvent } from '../../lib/render/devPropsEvents'
import { refuseForeign } from './thisMachineOnly.cjs'

/**
 * A comment line this often keeps a quiet stream open: Next's rewrite proxy ends a request whose
 * connection is idle for 30 s.
 */
const KEEP_OPEN_MS = 15_000

export interface PropsEvents {
  /** Where it listens, without a path: it answers every path with the stream. */
  url: string
  /** Tells the open pages that props were written, just now: those of `routes`, or every page's. */
  changed: (routes?: readonly string[]) => void
  stop: () => Promise<void>
}

export async function startPropsEvents(): Promise<PropsEvents> {
  let written = 0
  const open = new Set<http.ServerResponse>()
  // A page that connects is told the last write as one for every page.
  const send = (response: http.ServerResponse, data = propsEvent(written)) => response.write(`data: ${data}\n\n`)
  const server = http.createServer((request, response) => {
    // Which pages changed is the open pages' to hear, not another site's (./thisMachineOnly.cjs).
    if (refuseForeign(request, response)) return
    response.writeHead(200, {
      'Content-Type': 'text/event-stream',
      // no-transform: Next's dev server gzips what it proxies unless told not to, and gzip holds the events back.
      'Cache-Control': 'no-cache, no-transform',
      Connection: 'keep-alive',
    })
    send(response)
    open.add(response)
    // A browser that left is written to no more; an error on its way out is its leaving, not the server's.
    response.on('close', () => open.delete(response))
    response.on('error', () => open.delete(response))
  })
  const keepOpen = setInterval(() => open.forEach((response) => response.write(': open\n\n')), KEEP_OPEN_MS)
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(0, '127.0.0.1', resolve)
  })
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    changed: (routes) => {
      written = Date.now()
      const data = propsEvent(written, routes)
      open.forEach((response) => send(response, data))
    },
    stop: () => {
      clearInterval(keepOpen)
      open.forEach((response) => response.end())
      const closed = new Promise<void>((resolve) => server.close(() => resolve()))
      server.closeAllConnections()
      return closed
    },
  }
}
