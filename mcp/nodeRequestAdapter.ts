/**
 * A Node HTTP handler (the authorization server's: oidc-provider runs Koa) behind a Lambda function
 * URL: the event in as a real `IncomingMessage`/`ServerResponse` pair, the response back out as
 * the function URL's result. Another adapter of the same shape as functionUrl.ts, which speaks web
 * Requests to the MCP server instead.
 *
 * The pair is made by Node's own HTTP server and client over an in-memory connection (no port):
 * the client writes the event as an HTTP request, the server parses it and calls the handler, and
 * the client parses what the handler wrote. So the handler sees exactly what it would see behind a
 * socket (streams, writeHead in any form, headersSent), and repeated Set-Cookie headers come back
 * one by one.
 *
 * What the viewer sent arrives as functionUrl.ts describes: the Host the reader asked for in
 * FORWARDED_HOST, their Authorization in FORWARDED_AUTHORIZATION (CloudFront's origin access
 * control signs in Authorization), and their cookies in the event's `cookies`. The handler is told
 * the request came over HTTPS (X-Forwarded-Proto), which CloudFront's behaviors enforce: Koa sets
 * secure cookies only on a request it believes secure.
 */
import http, { type IncomingMessage, type ServerResponse } from 'node:http'
import { Duplex } from 'node:stream'
import { FORWARDED_AUTHORIZATION, isHopHeader, isTextType, type FunctionUrlEvent, type FunctionUrlResult } from './functionUrl'

export type NodeHandler = (request: IncomingMessage, response: ServerResponse) => void | Promise<void>

/** Headers a proxy sets, which only this adapter may set for the handler. */
const PROXY_HEADERS = new Set(['x-forwarded-proto', 'x-forwarded-host', 'x-forwarded-port', 'forwarded', 'cookie'])
/** Headers about the connection between the handler and the adapter, not the reader's response. */
const CONNECTION_HEADERS = new Set(['connection', 'keep-alive', 'transfer-encoding'])

/** Two ends of one in-memory connection: what one end writes, the other reads. */
function connection(): [Duplex, Duplex] {
  const ends: Duplex[] = []
  for (const index of [0, 1]) {
    const other = () => ends[1 - index]
    ends.push(
      new Duplex({
        read() {},
        write(chunk, _encoding, done) {
          other().push(chunk)
          done()
        },
        final(done) {
          other().push(null)
          done()
        },
      }),
    )
  }
  return [ends[0], ends[1]]
}

/** The request headers the handler gets: the reader's, on `host`, over HTTPS, with their Authorization and cookies. */
export function nodeRequestHeaders(event: FunctionUrlEvent, host: string, bodyBytes: number): Record<string, string> {
  const headers: Record<string, string> = {}
  for (const [name, value] of Object.entries(event.headers ?? {})) {
    const lower = name.toLowerCase()
    if (value !== undefined && !isHopHeader(lower) && !PROXY_HEADERS.has(lower)) headers[lower] = value
  }
  const authorization = event.headers?.[FORWARDED_AUTHORIZATION]
  if (authorization) headers.authorization = authorization
  // Payload format 2.0 hands the Cookie header over as a list, one cookie each.
  const cookies = [...(event.cookies ?? []), ...(event.headers?.cookie ? [event.headers.cookie] : [])]
  if (cookies.length > 0) headers.cookie = cookies.join('; ')
  headers.host = host
  headers['x-forwarded-proto'] = 'https'
  headers['content-length'] = String(bodyBytes)
  return headers
}

/**
 * Runs `handler` on the event as a request for `https://<host><rawPath>?<rawQueryString>` and
 * returns its response as a function URL result: Set-Cookie headers in `cookies`, other repeated
 * headers joined with commas, a body that is not text in base64.
 */
export async function handleWithNode(event: FunctionUrlEvent, host: string, handler: NodeHandler): Promise<FunctionUrlResult> {
  const method = event.requestContext.http.method.toUpperCase()
  const body = event.body === undefined || method === 'GET' || method === 'HEAD' ? Buffer.alloc(0) : Buffer.from(event.body, event.isBase64Encoded ? 'base64' : 'utf8')
  // The path stays a path: no scheme or authority in it can take the request elsewhere.
  const path = `/${event.rawPath.replace(/^\/+/, '')}${event.rawQueryString ? `?${event.rawQueryString}` : ''}`
  const server = http.createServer((request, response) => {
    Promise.resolve(handler(request, response)).catch((error: unknown) => {
      console.error(`oauth: handler failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`)
      if (response.headersSent) return void response.end()
      response.writeHead(500, { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store' })
      response.end('Internal Server Error')
    })
  })
  const [serverEnd, clientEnd] = connection()
  server.emit('connection', serverEnd)
  try {
    return await new Promise<FunctionUrlResult>((resolve, reject) => {
      const request = http.request({ method, path, headers: nodeRequestHeaders(event, host, body.length), createConnection: () => clientEnd as never }, (response) => {
        const chunks: Buffer[] = []
        response.on('data', (chunk: Buffer) => chunks.push(chunk))
        response.on('error', reject)
        response.on('end', () => {
          const headers: Record<string, string> = {}
          const cookies: string[] = []
          const raw = response.rawHeaders
          for (let i = 0; i + 1 < raw.length; i += 2) {
            const name = raw[i].toLowerCase()
            if (name === 'set-cookie') cookies.push(raw[i + 1])
            else if (!CONNECTION_HEADERS.has(name)) headers[name] = headers[name] === undefined ? raw[i + 1] : `${headers[name]}, ${raw[i + 1]}`
          }
          const bytes = Buffer.concat(chunks)
          const text = isTextType(headers['content-type']) || bytes.length === 0
          resolve({
            statusCode: response.statusCode ?? 500,
            headers,
            ...(cookies.length > 0 ? { cookies } : {}),
            body: bytes.toString(text ? 'utf8' : 'base64'),
            isBase64Encoded: !text,
          })
        })
      })
      request.on('error', reject)
      request.end(body)
    })
  } finally {
    serverEnd.destroy()
    clientEnd.destroy()
  }
}
