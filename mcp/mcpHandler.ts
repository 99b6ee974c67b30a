/**
 * The AI tools' server: a stateless Streamable HTTP MCP endpoint at MCP_PATH, web-standard
 * (Request in, Response out), so the local server and the Lambda function are thin adapters of it.
 *
 * Who the reader is comes from `Authorization: Bearer <token>`, verified as the edge verifies the
 * sign-in cookie (edge/tokenVerifier.ts). A request without a valid token gets 401 with a
 * `WWW-Authenticate` challenge that names the protected-resource metadata (RFC 9728), which names
 * the authorization servers a client may sign in with. The MCP SDK parses and answers the
 * protocol; this module only resolves the reader and builds their tools.
 */
import {
  McpServer,
  OAuthError,
  OAuthErrorCode,
  bearerAuthChallengeResponse,
  createMcpHandler,
  originValidationResponse,
  verifyBearerToken,
  type AuthInfo,
} from '@modelcontextprotocol/server'
import type { AccessLogRecord, AccessLogSink } from '../edge/accessLog'
import type { VerifyIdTokenClaims } from '../edge/tokenVerifier'
import type { AccessUser } from '../lib/access/types'
import { SITE_NAME } from '../lib/siteName'
import { DOCS_SCOPE } from '../lib/aiTools/oauthPaths'
import { MCP_PATH, MCP_SERVER_NAME } from '../lib/aiTools/connectLinks'
import { registerDocsTools } from './docsTools'
import { readerDocs, type DocsSite } from './readerDocs'

export { MCP_PATH }
/** RFC 9728's place for the metadata of the resource at MCP_PATH. */
export const RESOURCE_METADATA_PATH = `/.well-known/oauth-protected-resource${MCP_PATH}`
/** Whether the AI tools' server answers `pathname` (the site's other paths go to the authorizer). */
export const isMcpPath = (pathname: string) => pathname === MCP_PATH || pathname === RESOURCE_METADATA_PATH

/** The largest request body read: a tool call is a few hundred bytes. */
export const MAX_BODY_BYTES = 64 * 1024

export const SERVER_INFO = { name: MCP_SERVER_NAME, title: SITE_NAME, version: '1.0.0' }

const INSTRUCTIONS =
  `${SITE_NAME}: the company's internal engineering and support documentation, limited to what the signed-in user may read. ` +
  'Search with search_docs, read a page with get_page, browse with list_pages; whoami tells whose access this is.'

export interface DocsMcpOptions {
  site: DocsSite
  verifyReader: VerifyIdTokenClaims
  /** Issuers a client may get a token from, for the resource metadata (today the site's Cognito user pool). */
  authorizationServers: readonly string[]
  /** The access log's writer; none when the log is off. */
  log?: AccessLogSink
}

export interface DocsMcpHandler {
  /** Answers MCP_PATH and RESOURCE_METADATA_PATH; null for any other path (the caller serves it). */
  handle(request: Request): Promise<Response | null>
  close(): Promise<void>
}

const json = (body: unknown, status = 200, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', 'cache-control': 'no-store', ...headers } })

/** Every answer at MCP_PATH is one reader's (or a refusal that depends on the request): no cache may keep it. */
function noStore(response: Response): Response {
  response.headers.set('cache-control', 'no-store')
  return response
}

export function createDocsMcpHandler(options: DocsMcpOptions): DocsMcpHandler {
  const { site } = options
  const resource = new URL(MCP_PATH, site.siteUrl).href
  const siteHostnames = [new URL(site.siteUrl).hostname]
  const siteOrigin = new URL(site.siteUrl).origin
  const resourceMetadataUrl = new URL(RESOURCE_METADATA_PATH, site.siteUrl).href
  const metadata = {
    resource,
    authorization_servers: [...options.authorizationServers],
    bearer_methods_supported: ['header'],
    // The scope a client asks the authorization server for (its one scope: reading the docs).
    scopes_supported: [DOCS_SCOPE],
    resource_name: SERVER_INFO.title,
    resource_documentation: new URL('/', site.siteUrl).href,
  }

  const write = (user: AccessUser, fields: Omit<AccessLogRecord, 'time' | 'user' | 'path' | 'route' | 'rule'>) =>
    options.log?.({ time: new Date().toISOString(), user: user?.username ?? 'anonymous', path: MCP_PATH, route: null, rule: null, ...fields })

  const verifier = {
    async verifyAccessToken(token: string): Promise<AuthInfo> {
      const reader = await options.verifyReader(token)
      if (reader === null) throw new OAuthError(OAuthErrorCode.InvalidToken, 'The token is not a valid, unexpired sign-in to this docs site')
      return { token, clientId: 'docs-site', scopes: [], expiresAt: Math.floor(reader.expiresAtMs / 1000), extra: { user: reader.user } }
    },
  }

  const mcp = createMcpHandler(
    (context) => {
      const user = context.authInfo?.extra?.user as NonNullable<AccessUser> | undefined
      // The gate below hands every request its verified reader; without one there is nothing to serve.
      if (!user) throw new Error('mcp: a request reached the tools without a verified reader')
      const server = new McpServer(SERVER_INFO, { instructions: INSTRUCTIONS })
      registerDocsTools(server, readerDocs(site, user), site.access, (fields) => write(user, { outcome: 'tool', ...fields }))
      return server
    },
    {
      maxRequestBodySize: MAX_BODY_BYTES,
      // The docs change only at a deploy, and a function URL answers whole responses only: no
      // subscription streams (one would hang until the function's timeout).
      maxSubscriptions: 0,
      // Reporting only: the SDK has already answered the client with a JSON-RPC error.
      onerror: (error) => console.error(`mcp: ${error.message}`),
    }
  )

  return {
    async handle(request) {
      const { pathname } = new URL(request.url)
      if (pathname === RESOURCE_METADATA_PATH) {
        if (request.method !== 'GET' && request.method !== 'HEAD') return json({ error: 'method_not_allowed' }, 405, { allow: 'GET, HEAD' })
        return json(metadata, 200, { 'access-control-allow-origin': '*' })
      }
      if (pathname !== MCP_PATH) return null
      // A page of another site, in a reader's browser, is refused (the MCP transport's rule against
      // DNS rebinding); AI tools send no Origin, and this site's own pages are its origin. The SDK
      // compares host names only: the same host on another scheme or port is another site, refused too.
      const origin = request.headers.get('origin')
      const foreignOrigin = originValidationResponse(request, origin === null || origin === siteOrigin ? siteHostnames : [])
      if (foreignOrigin) return noStore(foreignOrigin)
      let authInfo: AuthInfo
      try {
        authInfo = await verifyBearerToken(request.headers.get('authorization'), { verifier, resourceMetadataUrl })
      } catch (error) {
        if (error instanceof OAuthError) write(null, { decision: 'login', outcome: 'unauthorized', reason: 'no valid token' })
        else {
          // The token could not be checked (the sign-in store failed): not the tool's fault, so no
          // 401 that would send it to sign in again; the SDK answers 500 and the tool retries.
          console.error(`mcp: the bearer token could not be checked: ${error instanceof Error ? error.message : String(error)}`)
          write(null, { decision: 'deny', outcome: 'error', detail: 'the bearer token could not be checked' })
        }
        return noStore(bearerAuthChallengeResponse(error, { resourceMetadataUrl, requiredScopes: [DOCS_SCOPE] }))
      }
      return noStore(await mcp.fetch(request, { authInfo }))
    },
    close: () => mcp.close(),
  }
}
