/**
 * The local stand-in for CloudFront + S3: serves the site's files (out/, or the bucket a deploy
 * filled: scripts/server/siteObjects.ts) on 127.0.0.1 through the same authorizer the edge runs
 * (edge/authorizeRequest). Only where the keys come from differs from production.
 */
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import type { Jwks } from 'aws-jwt-verify/jwk'
import { access as shippedAccess, type CompiledAccess } from '../../lib/access'
import type { AssetRoutes } from '../../lib/access/governingRoute'
import type { AudienceSummary } from '../../lib/access/readerView'
import type { AuthSettings } from '../../lib/auth/authSettings'
import { authorizeRequest, REFUSALS } from '../../edge/authorizeRequest'
import { CACHE_CONTROL } from '../../edge/cacheHeaders'
import { gzipOnce, shouldGzip } from './compression'
import { openAccessLog } from './accessLogFile'
import { AMPLIFY_COOKIE_PREFIX } from '../../lib/auth/amplifyCookies'
import { cognitoOriginFor, securityHeaders } from '../../edge/securityHeaders'
import { createIdTokenClaimsVerifier, readerOnly } from '../../edge/tokenVerifier'
import { createDocsMcpHandler, isMcpPath, MAX_BODY_BYTES, type DocsMcpHandler } from '../../mcp/mcpHandler'
import { sendWebResponse, toWebRequest } from '../../mcp/nodeHttp'
import { bearerReader } from '../../mcp/bearerTokens'
import { searchIndexes } from '../../mcp/searchDocs'
import type { SiteFiles } from '../../mcp/siteFiles'
import type { AuthorizationServer } from '../../mcp/oauth/authorizationServer'
import { aiToolsSettings, type AiToolsSettings } from '../../mcp/oauth/aiToolsSettings'
import { freshAuthorizationKeys } from '../../mcp/oauth/freshKeys'
import { cognitoReaderCheck } from '../../mcp/oauth/readerCheck'
import { createMemoryOAuthStore } from '../../mcp/oauth/store/memoryAdapter'
import type { OAuthStore } from '../../mcp/oauth/store/oauthStore'
import type { RateLimit } from '../../mcp/oauth/rateLimit'
import { REGISTRATION_RATE } from '../../lib/aiTools/registrationLimits'
import { readerOfCookies, readRefreshToken } from '../../edge/readIdToken'
import { issuerFor, sessionClientIds } from '../../lib/auth/authSettings'
import shippedConfig from '../../access.config'
import { CONTENT_TYPES } from './contentTypes'
import type { SiteObjects } from './siteObjects'
import { SITE_NAME } from '../../lib/siteName'
import { SIGN_IN_PAGE } from '../../lib/pathFormats'
import { SITE_PORT } from './ports'
import { refuseForeign } from './thisMachineOnly.cjs'

/** CloudFront refuses a request whose headers exceed this (its documented quota). */
export const CLOUDFRONT_MAX_REQUEST_HEADER_BYTES = 20480

/** A self-contained page (its request's own headers were too large to load anything else). */
export function oversizedHeadersPage(): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Sign-in data too large – ${SITE_NAME}</title></head><body>
<main><h1>Your browser is sending too much sign-in data</h1>
<p>The cookies this site stored in your browser have grown larger than the site accepts, so no page can load.</p>
<p><button type="button" id="clear">Clear this site's sign-in cookies and sign in again</button></p></main>
<script>document.getElementById('clear').onclick=function(){document.cookie.split(';').forEach(function(c){var n=c.split('=')[0].trim();
if(n.indexOf(${JSON.stringify(AMPLIFY_COOKIE_PREFIX)})===0)document.cookie=n+'=; Path=/; Expires=Thu, 01 Jan 1970 00:00:00 GMT'});location.assign(${JSON.stringify(SIGN_IN_PAGE)})}</script></body></html>`
}

/** A request header's value, as CloudFront hands its first one to the edge; null when not sent. */
const oneHeader = (value: string | string[] | undefined): string | null => (Array.isArray(value) ? value[0] : value) ?? null

export interface LocalServerOptions {
  /** The site's files: out/ (outDirObjects) or a deployed bucket (bucketObjects). */
  objects: SiteObjects
  auth: AuthSettings
  jwks: Jwks
  assetRoutes: AssetRoutes
  /** The pages' inline-script hashes (.next/script-hashes.json), for the Content-Security-Policy. */
  scriptHashes: readonly string[]
  /** The build's audiences (lib/access/planAggregates.ts audienceSummaries), for the reader's view. */
  audiences: readonly AudienceSummary[]
  access?: CompiledAccess
  host?: string
  port?: number
  /** The access log's destination (scripts/server/accessLogFile.ts): a file, `-` for stdout; unset or `off`: none. */
  accessLog?: string
  /** How AI tools may sign in (access.config.ts aiTools); the shipped settings when left out. */
  aiTools?: AiToolsSettings
  /** Fetches AI tools' Client ID Metadata Documents (tests serve their own); the library's guarded fetch when left out. */
  clientMetadataFetch?: typeof fetch
  /**
   * Whether AI tools may sign in through the site (mcp/oauth/); on unless a caller that reads only
   * the site's files turns it off (its library is an ES module, which jest's CommonJS cannot load).
   */
  aiToolSignIn?: boolean
  /**
   * How many AI-tool registrations one address may make in a window (429 past it): REGISTRATION_RATE,
   * the WAF's figure on AWS, unless a caller that registers many tools from one address (the
   * browser tests) sets its own.
   */
  registrationRate?: RateLimit
  /** Where the AI tools' sign-in keeps grants and tokens; a fresh in-memory store when left out (tests give the DynamoDB one). */
  oauthStore?: OAuthStore
}

export interface RunningServer {
  url: string
  stop(): Promise<void>
}

export async function startLocalServer(options: LocalServerOptions): Promise<RunningServer> {
  const objects = options.objects
  const headers = securityHeaders({
    cognitoOrigin: cognitoOriginFor(options.auth.region, options.auth.endpoint),
    hostedDomain: options.auth.federation?.domain,
    scriptHashes: options.scriptHashes,
  })
  const access = options.access ?? shippedAccess
  // One verifier of the local Cognito's ID tokens, for the site's cookie and the AI tools' bearer token alike.
  const idTokens = createIdTokenClaimsVerifier({ userPoolId: options.auth.userPoolId, clientId: sessionClientIds(options.auth), jwks: options.jwks, fetchUnknownKeys: false, groupsClaim: access.groupsClaim })
  const deps = {
    access,
    assetRoutes: options.assetRoutes,
    audiences: options.audiences,
    clientId: sessionClientIds(options.auth),
    verifyIdToken: readerOnly(idTokens),
  }
  const accessLog = openAccessLog(options.accessLog)
  // The AI tools' server on the same origin (mcp/); made once the server knows its own URL.
  let mcp: DocsMcpHandler | null = null
  let oauth: AuthorizationServer | null = null
  // The AI tools' server reads the same files, as it reads the bucket on AWS (mcp/lambda.ts).
  const files: SiteFiles = { read: async (key) => (await objects.read(key))?.body ?? null }
  const search = searchIndexes(files)

  const server = http.createServer({ maxHeaderSize: CLOUDFRONT_MAX_REQUEST_HEADER_BYTES }, async (request, response) => {
    const send = (status: number, extra: Record<string, string | number>, body?: Buffer | string) => {
      response.writeHead(status, { ...headers, ...extra })
      response.end(request.method === 'HEAD' ? undefined : body)
    }
    // This machine's site: a page of another site, or one reached through a host name pointed here, is refused (./thisMachineOnly.cjs).
    if (refuseForeign(request, response)) return
    try {
      const pathname = (request.url ?? '/').split('?', 1)[0]
      if (oauth?.handles(pathname)) {
        // CloudFront gives the sign-in's answers the site's headers over its own (infra/lib/site-stack.ts, override): set as they are sent.
        const writeHead = response.writeHead
        const site = new Set(Object.keys(headers).map((name) => name.toLowerCase()))
        response.writeHead = function (this: typeof response, status: number, ...rest: unknown[]) {
          // Its own headers, an object or a flat list of names and values, without the site's.
          const own = rest.findIndex((arg) => typeof arg === 'object' && arg !== null)
          if (own >= 0) {
            const list = Array.isArray(rest[own])
            const pairs: [string, unknown][] = list ? (rest[own] as unknown[]).flatMap((value, at, all) => (at % 2 === 0 ? [[String(value), all[at + 1]] as [string, unknown]] : [])) : Object.entries(rest[own] as object)
            const kept = pairs.filter(([name]) => !site.has(name.toLowerCase()))
            rest[own] = list ? kept.flat() : Object.fromEntries(kept)
          }
          for (const [name, value] of Object.entries(headers)) this.setHeader(name, value)
          return (writeHead as (...args: unknown[]) => typeof response).call(this, status, ...rest)
        } as typeof writeHead
        return await oauth.handle(request, response)
      }
      // A Web Request cannot carry TRACE (CloudFront refuses it before any function): the 405 below.
      // (Node hands CONNECT to a 'connect' listener, never here, and does not parse TRACK.)
      if (mcp && isMcpPath(pathname) && request.method !== 'TRACE') {
        const answer = await mcp.handle(await toWebRequest(request, siteUrl, MAX_BODY_BYTES))
        if (answer) return await sendWebResponse(response, answer, headers)
      }
      if (request.method !== 'GET' && request.method !== 'HEAD') return send(405, { allow: 'GET, HEAD', 'cache-control': CACHE_CONTROL.never }, 'Method Not Allowed')
      const raw = request.url ?? '/'
      const at = raw.indexOf('?')
      const requestPath = (at < 0 ? raw : raw.slice(0, at)).split('#', 1)[0]
      const query = at < 0 ? '' : raw.slice(at + 1)
      const cookieHeader = request.headers.cookie
      const fetchMetadata = { mode: oneHeader(request.headers['sec-fetch-mode']), dest: oneHeader(request.headers['sec-fetch-dest']) }
      const outcome = await authorizeRequest(
        { path: requestPath, query, cookieHeaders: cookieHeader ? [cookieHeader] : [], fetchMetadata },
        deps,
        accessLog?.write
      )
      switch (outcome.kind) {
        case 'view':
          return send(200, { 'content-type': CONTENT_TYPES['.json'], 'cache-control': CACHE_CONTROL.readerView }, JSON.stringify(outcome.view))
        case 'llms':
          return send(200, { 'content-type': CONTENT_TYPES['.txt'], 'cache-control': CACHE_CONTROL.readerView }, outcome.text)
        case 'redirect':
          return send(302, { location: outcome.location, 'cache-control': CACHE_CONTROL.never })
        case 'unauthorized':
        case 'forbidden':
        case 'badRequest': {
          const { status, text } = REFUSALS[outcome.kind]
          return send(status, { 'content-type': 'text/plain; charset=utf-8', 'cache-control': CACHE_CONTROL.never }, text)
        }
      }
      const object = await objects.read(outcome.objectKey)
      if (!object) {
        const notFound = await objects.read('/404.html')
        return send(404, { 'content-type': CONTENT_TYPES['.html'], 'cache-control': CACHE_CONTROL.never }, notFound?.body ?? 'Not Found')
      }
      const compress = shouldGzip(object.contentType, object.body.length, request.headers['accept-encoding'])
      const body = compress ? gzipOnce(objects.where + outcome.objectKey, object.version, object.body) : object.body
      return send(200, {
        'content-type': object.contentType,
        'content-length': body.length,
        ...(compress ? { 'content-encoding': 'gzip' } : {}),
        vary: 'accept-encoding',
        ...(object.cacheControl === null ? {} : { 'cache-control': object.cacheControl }),
      }, body)
    } catch (error) {
      // The operator reads what failed; the client is told nothing of it (a message may name a file).
      console.error(`local server: ${request.method} ${request.url}:`, error)
      send(500, { 'content-type': 'text/plain; charset=utf-8', 'cache-control': CACHE_CONTROL.never }, 'Internal error: try again.')
    }
  })

  // Past CloudFront's header limit no request reaches the authorizer. Node would answer a bare 431;
  // this answers with a page that says why and clears the site's sign-in cookies.
  server.on('clientError', (error: NodeJS.ErrnoException, socket) => {
    if (!socket.writable) return
    if (error.code !== 'HPE_HEADER_OVERFLOW') return socket.destroy()
    const body = oversizedHeadersPage()
    socket.end(
      `HTTP/1.1 431 Request Header Fields Too Large\r\ncontent-type: text/html; charset=utf-8\r\ncache-control: ${CACHE_CONTROL.never}\r\n` +
        `content-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`
    )
  })

  const host = options.host ?? '127.0.0.1'
  let siteUrl = ''
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(options.port ?? SITE_PORT, host, resolve)
  }).catch((error) => {
    accessLog?.close()
    throw error
  })
  const { port } = server.address() as AddressInfo
  siteUrl = `http://${host}:${port}`
  // The AI tools' sign-in: fresh keys and an empty store each start, like the local Cognito.
  const signIn = options.aiToolSignIn === false ? null : await (await import('../../mcp/oauth/authorizationServer')).createAuthorizationServer({
    siteUrl,
    settings: options.aiTools ?? aiToolsSettings(shippedConfig.aiTools),
    store: options.oauthStore ?? createMemoryOAuthStore(),
    keys: freshAuthorizationKeys(),
    readerOfCookies: (cookieHeaders) => readerOfCookies(cookieHeaders, deps.clientId, deps.verifyIdToken),
    poolSessionOf: (cookieHeaders, username) => readRefreshToken(cookieHeaders, deps.clientId, username),
    checkReader: cognitoReaderCheck(options.auth, access.groupsClaim),
    log: accessLog?.write,
    registrationRate: options.registrationRate ?? REGISTRATION_RATE,
    ...(options.clientMetadataFetch ? { fetch: options.clientMetadataFetch } : {}),
  })
  oauth = signIn
  mcp = createDocsMcpHandler({
    site: { access, assetRoutes: options.assetRoutes, audiences: options.audiences, files, search, siteUrl },
    verifyReader: bearerReader(idTokens, signIn ? (token) => signIn.verifyAccessToken(token) : null),
    authorizationServers: signIn ? [signIn.issuer] : [issuerFor(options.auth)],
    log: accessLog?.write,
  })
  return {
    url: siteUrl,
    stop: () =>
      new Promise((resolve) => {
        server.closeAllConnections()
        server.close(() => {
          accessLog?.close()
          void mcp?.close().finally(resolve)
        })
      }),
  }
}
