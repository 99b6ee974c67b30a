/**
 * Node's HTTP types to and from the web-standard Request and Response that the AI tools' server
 * speaks (mcp/mcpHandler.ts), for the local server. A body is read only up to one byte past
 * `maxBodyBytes`, so an oversized one costs no memory and the handler still refuses it (413).
 */
import type { IncomingMessage, ServerResponse } from 'node:http'

export async function toWebRequest(request: IncomingMessage, origin: string, maxBodyBytes: number): Promise<Request> {
  const headers = new Headers()
  for (const [name, value] of Object.entries(request.headers)) {
    if (value === undefined) continue
    for (const one of Array.isArray(value) ? value : [value]) headers.append(name, one)
  }
  const method = request.method ?? 'GET'
  let body: Buffer | undefined
  if (method !== 'GET' && method !== 'HEAD') {
    const chunks: Buffer[] = []
    let size = 0
    // Past the limit the rest is read and dropped, so the client that is still sending gets its 413.
    for await (const chunk of request as AsyncIterable<Buffer>) {
      if (size <= maxBodyBytes) chunks.push(chunk)
      size += chunk.length
    }
    body = Buffer.concat(chunks).subarray(0, maxBodyBytes + 1)
    headers.set('content-length', String(body.length))
  }
  return new Request(new URL(request.url ?? '/', origin), { method, headers, ...(body ? { body: new Uint8Array(body) } : {}) })
}

export async function sendWebResponse(response: ServerResponse, answer: Response, extraHeaders: Record<string, string>): Promise<void> {
  const headers: Record<string, string> = { ...extraHeaders }
  answer.headers.forEach((value, name) => (headers[name] = value))
  response.writeHead(answer.status, headers)
  if (!answer.body) return void response.end()
  for await (const chunk of answer.body as unknown as AsyncIterable<Uint8Array>) response.write(chunk)
  response.end()
}
