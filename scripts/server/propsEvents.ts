/**
 * `npm run dev`: tells the open docs pages that the pages' props were written again, so that they
 * fetch theirs anew (lib/render/useDevServerEvents.ts) and Next compiles nothing for a content
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
 *
 * It also tells them what the last content check found (PROBLEMS_EVENT): how many problems, and
 * the tokens of the pages they are in. A page that has one asks for its messages
 * (`?problems=<token>`), so a page shows its own messages, and of others only how many there are.
 */
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { routeToken, PROBLEMS_EVENT, PROBLEMS_QUERY, problemsEvent, propsEvent } from '../../lib/render/devPropsEvents'
import { refuseForeign } from './thisMachineOnly.cjs'

/**
 * A comment line this often keeps a quiet stream open: Next's rewrite proxy ends a request whose
 * connection is idle for 30 s.
 */
const KEEP_OPEN_MS = 15_000

/** A problem the content check found, with the route of the page it is in (null: not in a page, as in a `_meta` file or access.config.ts). */
export interface CheckProblem {
  route: string | null
  message: string
}

export interface PropsEvents {
  /** Where it listens, without a path: it answers every path with the stream, or with a page's problems when asked for them (PROBLEMS_QUERY). */
  url: string
  /** Tells the open pages that props were written, just now: those of `routes`, or every page's. */
  changed: (routes?: readonly string[]) => void
  /** Tells the open pages what the last check found (none: it passed). */
  problems: (problems: readonly CheckProblem[]) => void
  stop: () => Promise<void>
}

export async function startPropsEvents(): Promise<PropsEvents> {
  let written = 0
  let found: readonly CheckProblem[] = []
  const open = new Set<http.ServerResponse>()
  // A page that connects is told the last write as one for every page.
  const send = (response: http.ServerResponse, data = propsEvent(written)) => response.write(`data: ${data}\n\n`)
  const sendProblems = (response: http.ServerResponse) => response.write(`event: ${PROBLEMS_EVENT}\ndata: ${problemsEvent(found.map(({ route }) => route))}\n\n`)
  const server = http.createServer((request, response) => {
    // Which pages changed is the open pages' to hear, not another site's (./thisMachineOnly.cjs).
    if (refuseForeign(request, response)) return
    const asked = new URL(request.url ?? '/', 'http://127.0.0.1').searchParams.get(PROBLEMS_QUERY)
    if (asked !== null) {
      const messages = found.filter(({ route }) => route !== null && routeToken(route) === asked).map(({ message }) => message)
      response.writeHead(200, { 'Content-Type': 'application/json', 'Cache-Control': 'no-store' })
      return void response.end(JSON.stringify(messages))
    }
    response.writeHead(200, {
      'Content-Type': 'text/event-stream',
      // no-transform: Next's dev server gzips what it proxies unless told not to, and gzip holds the events back.
      'Cache-Control': 'no-cache, no-transform',
      Connection: 'keep-alive',
    })
    send(response)
    sendProblems(response)
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
    problems: (problems) => {
      // A check that passed after one that passed says nothing new.
      if (problems.length === 0 && found.length === 0) return
      found = problems
      open.forEach(sendProblems)
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
