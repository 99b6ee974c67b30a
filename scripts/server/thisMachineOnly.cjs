/**
 * The servers `npm start` and `npm run dev` run (the site and its authority, Next's dev server, the
 * open pages' events, the local Cognito) answer this machine's own pages and tools only. Listening
 * on 127.0.0.1 is not enough: a web page whose host name its owner points at 127.0.0.1 (DNS
 * rebinding) reaches them as its own origin, with `npm run dev` serving every section to anyone;
 * and a page of any site may send them a request or open a WebSocket (Next's updates name each
 * page opened). So a request whose Host is not a loopback name, or that a page of another origin
 * sends, is refused before any of them reads it. Plain CommonJS: Next's dev server is started
 * without tsx (./nextDevServer.cjs).
 */
'use strict'

/** Names only this machine answers to: browsers take *.localhost to be loopback without asking DNS. */
function isThisMachine(hostname) {
  const name = hostname.toLowerCase().replace(/\.$/, '')
  return name === '127.0.0.1' || name === '[::1]' || name === 'localhost' || name.endsWith('.localhost')
}

/** The host name of a URL's origin or of a Host header; null when it has none. */
function hostnameOf(url) {
  try {
    const parsed = new URL(url)
    return parsed.protocol === 'http:' || parsed.protocol === 'https:' ? parsed.hostname : null
  } catch {
    return null
  }
}

/** Next's own endpoints in `npm run dev` (its editor opener, its compiled code): never a page to follow a link to. */
const NEXT_OWN = /^\/(_next|__nextjs)/

/**
 * Why a request with `headers` (for `url`) comes from somewhere other than this machine's pages and
 * tools, or null when it does not: its Host is not a loopback name, its Origin (a page's) is not one
 * of this machine's, or it has no Origin and the browser says another site's page sent it
 * (`Sec-Fetch-Site: cross-site`, as an image or a script of that page is loaded), unless it is a
 * link followed to a page. A request with none of them (a tool of this machine, HTTP/1.0) is this machine's.
 */
function foreignRequest(headers, url = '/') {
  const host = headers.host
  if (typeof host === 'string' && !isThisMachine(hostnameOf(`http://${host}`) ?? '')) return `its Host (${host}) is not this machine`
  const origin = headers.origin
  if (typeof origin === 'string' && !isThisMachine(hostnameOf(origin) ?? '')) return `a page of ${origin} sent it`
  // With an Origin of this machine's, another port or name of it (localhost beside 127.0.0.1) is cross-site to the browser, and is ours.
  if (origin === undefined && headers['sec-fetch-site'] === 'cross-site' && (headers['sec-fetch-mode'] !== 'navigate' || NEXT_OWN.test(url))) return 'a page of another site sent it'
  return null
}

const REFUSAL = 'This server answers pages and tools of this machine only'

/** Answers `response` 403 when its request is foreign (foreignRequest); true when it did. */
function refuseForeign(request, response) {
  const why = foreignRequest(request.headers, request.url)
  if (why === null) return false
  response.writeHead(403, { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store' })
  response.end(`${REFUSAL}: ${why}.\n`)
  return true
}

/** Ends the upgrade's `socket` with a 403 when its request is foreign; true when it did. */
function refuseForeignUpgrade(request, socket) {
  const why = foreignRequest(request.headers, request.url)
  if (why === null) return false
  const body = `${REFUSAL}: ${why}.\n`
  socket.end(`HTTP/1.1 403 Forbidden\r\ncontent-type: text/plain; charset=utf-8\r\ncache-control: no-store\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`)
  return true
}

module.exports = { foreignRequest, refuseForeign, refuseForeignUpgrade }
