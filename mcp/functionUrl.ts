/**
 * The AI tools' server on AWS: a Lambda function URL event (payload format 2.0) in, the web
 * Request the server speaks (mcp/mcpHandler.ts), its Response back out as the function URL's
 * result. Another adapter of the same shape as the local server's (mcp/nodeHttp.ts).
 *
 * The function is reached only through CloudFront, which signs each request for the function URL
 * with SigV4 (origin access control), in the Authorization header. So the reader's own
 * `Authorization: Bearer …` cannot arrive there: CloudFront's viewer-request function
 * (infra/lib/mcp-origin.ts) moves it to FORWARDED_AUTHORIZATION, and the host the reader asked for
 * to FORWARDED_HOST; this adapter reads the bearer token from that header only, never from
 * Authorization.
 */
import type { AccessLogSink } from '../edge/accessLog'
import type { VerifyIdTokenClaims } from '../edge/tokenVerifier'
import { createDocsMcpHandler, isMcpPath, type DocsMcpHandler } from './mcpHandler'
import type { DocsSite } from './readerDocs'

/** The reader's Authorization header, as CloudFront hands it to the function. */
export const FORWARDED_AUTHORIZATION = 'x-docs-authorization'
/** The Host the reader asked for (the site's custom domain or its *.cloudfront.net name), as CloudFront hands it over. */
export const FORWARDED_HOST = 'x-docs-viewer-host'

/** The parts of a function URL request event (payload format 2.0) that the adapter reads. */
export interface FunctionUrlEvent {
  version?: string
  rawPath: string
  rawQueryString?: string
  /** Lower-case names; repeated headers arrive joined with commas. */
  headers?: Record<string, string | undefined>
  cookies?: string[]
  body?: string
  isBase64Encoded?: boolean
  requestContext: { domainName?: string; http: { method: string; sourceIp?: string } }
}

/** A function URL response (payload format 2.0). */
export interface FunctionUrlResult {
  statusCode: number
  headers: Record<string, string>
  cookies?: string[]
  body: string
  isBase64Encoded: boolean
}

/** Headers that describe the hop from CloudFront, not the reader's request. */
const HOP_HEADERS = new Set(['authorization', 'host', 'content-length', 'connection', FORWARDED_AUTHORIZATION, FORWARDED_HOST])
/** Whether a (lower-case) request header describes the hop from CloudFront rather than the reader's request. */
export const isHopHeader = (name: string) => HOP_HEADERS.has(name) || name.startsWith('x-amz-')

/**
 * A host name and nothing else: no port (readers reach the distribution on 443 only, and each
 * distinct origin gets a server of its own, so a port must not mint new ones), nothing that could
 * make a URL point elsewhere.
 */
const HOST = /^[a-z0-9](?:[a-z0-9.-]*[a-z0-9])?$/i

/**
 * The site's origin as the reader reached it, from the host CloudFront forwarded (HTTPS only: the
 * distribution's /mcp behaviors accept nothing else); null when there is no usable host.
 */
export function viewerSiteUrl(event: FunctionUrlEvent): string | null {
  const host = (event.headers?.[FORWARDED_HOST] ?? event.headers?.host ?? '').trim()
  return HOST.test(host) ? `https://${host.toLowerCase()}` : null
}

/** The web Request for a function URL event, on `siteUrl`, with the reader's bearer token as its Authorization. */
export function toWebRequest(event: FunctionUrlEvent, siteUrl: string): Request {
  const url = new URL(siteUrl)
  // Assigned, never parsed against the origin: a path like `//elsewhere` stays a path on this site.
  url.pathname = event.rawPath
  url.search = event.rawQueryString ?? ''
  const headers = new Headers()
  for (const [name, value] of Object.entries(event.headers ?? {})) {
    if (value !== undefined && !isHopHeader(name.toLowerCase())) headers.set(name, value)
  }
  const bearer = event.headers?.[FORWARDED_AUTHORIZATION]
  if (bearer) headers.set('authorization', bearer)
  const method = event.requestContext.http.method.toUpperCase()
  const hasBody = method !== 'GET' && method !== 'HEAD' && event.body !== undefined
  const body = hasBody ? Buffer.from(event.body as string, event.isBase64Encoded ? 'base64' : 'utf8') : undefined
  return new Request(url, { method, headers, ...(body ? { body: new Uint8Array(body) } : {}) })
}

const TEXT = /^(text\/|application\/(json|javascript|xml)\b)|\+(json|xml)\b/i
/** Whether a body of this Content-Type goes back as it is (text) rather than in base64. */
export const isTextType = (contentType: string | null | undefined) => TEXT.test(contentType ?? '')

/** The function URL result for a Response: text as it is, anything else base64. */
export async function toFunctionUrlResult(response: Response, method: string): Promise<FunctionUrlResult> {
  const headers: Record<string, string> = {}
  response.headers.forEach((value, name) => {
    if (name !== 'set-cookie') headers[name] = value
  })
  const cookies = response.headers.getSetCookie()
  const bytes = method.toUpperCase() === 'HEAD' ? Buffer.alloc(0) : Buffer.from(await response.arrayBuffer())
  const text = isTextType(response.headers.get('content-type')) || bytes.length === 0
  return {
    statusCode: response.status,
    headers,
    ...(cookies.length > 0 ? { cookies } : {}),
    body: bytes.toString(text ? 'utf8' : 'base64'),
    isBase64Encoded: !text,
  }
}

/** A plain-text answer that nothing may keep (refusals and failures). */
export const plainResult = (statusCode: number, body: string): FunctionUrlResult => ({
  statusCode,
  headers: { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store' },
  body,
  isBase64Encoded: false,
})

export interface McpFunctionOptions {
  /** The site without its URL: that is the reader's (viewerSiteUrl) unless `siteUrl` fixes it. */
  site: Omit<DocsSite, 'siteUrl'>
  /** The site's canonical origin (its custom domain), when it has one. */
  siteUrl?: string
  verifyReader: VerifyIdTokenClaims
  authorizationServers: readonly string[]
  /**
   * The verifier and authorization servers for readers who reach the site at `siteUrl`, when they
   * depend on it (the site's own sign-in issues tokens per origin); `verifyReader` and
   * `authorizationServers` otherwise.
   */
  readerAuthFor?: (siteUrl: string) => { verifyReader: VerifyIdTokenClaims; authorizationServers: readonly string[] }
  log?: AccessLogSink
}

export interface McpFunction {
  handle(event: FunctionUrlEvent): Promise<FunctionUrlResult>
  close(): Promise<void>
}

/** The distribution's names are few (its own and the custom domain); more than this is not CloudFront. */
export const MAX_SITE_URLS = 4

export function createMcpFunction(options: McpFunctionOptions): McpFunction {
  // One server per origin the readers use, so the resource metadata names the URL they connected
  // to; they share the site's files and search sessions.
  const servers = new Map<string, DocsMcpHandler>()
  const serverFor = (siteUrl: string): DocsMcpHandler | null => {
    let server = servers.get(siteUrl)
    if (!server && servers.size < MAX_SITE_URLS) {
      server = createDocsMcpHandler({ ...options, ...options.readerAuthFor?.(siteUrl), site: { ...options.site, siteUrl } })
      servers.set(siteUrl, server)
    }
    return server ?? null
  }
  return {
    async handle(event) {
      if (!isMcpPath(event.rawPath)) return plainResult(404, 'Not Found')
      try {
        const siteUrl = options.siteUrl ?? viewerSiteUrl(event)
        const server = siteUrl === null ? null : serverFor(siteUrl)
        if (siteUrl === null || server === null) return plainResult(400, 'Bad Request')
        const answer = await server.handle(toWebRequest(event, siteUrl))
        return answer ? await toFunctionUrlResult(answer, event.requestContext.http.method) : plainResult(404, 'Not Found')
      } catch (error) {
        console.error(`mcp: request failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`)
        return plainResult(500, 'Internal Server Error')
      }
    },
    async close() {
      await Promise.all([...servers.values()].map((server) => server.close()))
      servers.clear()
    },
  }
}
