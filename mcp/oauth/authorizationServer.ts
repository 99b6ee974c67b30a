/**
 * The site's own authorization server for readers' AI tools, built on oidc-provider (certified;
 * no OAuth is written here): it signs a tool in as its reader through the site's own sign-in and a
 * consent page, and issues access tokens for /mcp alone.
 *
 * - Discovery (RFC 8414) at ISSUER_PATH's well-known URL; the resource metadata of /mcp names it.
 * - Clients: Client ID Metadata Documents and Dynamic Client Registration; public clients only.
 * - Authorization code with PKCE S256 only; the `resource` parameter (RFC 8707) can name /mcp alone.
 * - Redirect URIs: a loopback address on any port, or a hosted app's URI the admin listed
 *   (access.config.ts aiTools); anything else is refused with an error page, never a redirect.
 * - Access tokens are opaque, stored, and live at most 15 minutes; refresh tokens rotate. Each
 *   refresh asks the user pool about the reader again (readerCheck.ts): a disabled or deleted reader
 *   gets none, and changed groups take effect.
 * - Who the reader is comes only from the site's verified sign-in cookie, at the consent step.
 */
import type { IncomingMessage, ServerResponse } from 'node:http'
import Provider, { errors, type AdapterPayload, type KoaContextWithOIDC, type SigningAlgorithm } from 'oidc-provider'
import type { AccessLogRecord, AccessLogSink } from '../../edge/accessLog'
import type { VerifiedReader } from '../../edge/tokenVerifier'
import type { AccessUser } from '../../lib/access/types'
import { redirectProblem, type AiToolsSettings } from './aiToolsSettings'
import { errorPage } from './pages'
import { AUTHORIZATION_SERVER_METADATA_PATH, CONNECTIONS_PATH, CONSENT_HEADER, CONSENT_PAGE, DOCS_SCOPE, INTERACTION_PATH, ISSUER_PATH, isSignInPath } from '../../lib/aiTools/oauthPaths'
import type { CheckReader } from './readerCheck'
import type { OAuthStore } from './store/oauthStore'

export interface AuthorizationServerOptions {
  siteUrl: string
  settings: AiToolsSettings
  /** Grants, codes, tokens and clients (mcp/oauth/store/): in memory locally, DynamoDB on AWS. */
  store: OAuthStore
  /** Private signing keys (JWKS) and cookie-signing keys. */
  keys: { jwks: { keys: object[] }; cookies: string[] }
  /** The reader of the site's sign-in cookies, verified as the edge verifies them; null when none. */
  readerOfCookies: (cookieHeaders: readonly string[]) => Promise<AccessUser>
  checkReader: CheckReader
  log?: AccessLogSink
  /** Fetches Client ID Metadata Documents (tests serve theirs; production keeps the library's guarded fetch). */
  fetch?: typeof fetch
  /** Whether requests arrive through a proxy that sets X-Forwarded-Proto and -Host (the Lambda adapter). */
  behindProxy?: boolean
}

export interface AuthorizationServer {
  issuer: string
  /** Whether this server answers `pathname`. */
  handles(pathname: string): boolean
  handle(request: IncomingMessage, response: ServerResponse): Promise<void>
  /** The reader of an access token issued for /mcp, or null (unknown, expired, revoked, or for another audience); throws when the store fails. */
  verifyAccessToken(token: string): Promise<VerifiedReader | null>
}

/**
 * What the server keeps of the reader per grant: as verified at consent, then at each refresh. It
 * carries the grant's and the reader's ids, so revoking either removes it with the grant.
 */
interface GrantReader extends AdapterPayload {
  username: string
  groups: string[]
}
const readerRecord = (grantId: string, reader: NonNullable<AccessUser>): GrantReader => ({ grantId, accountId: reader.username, username: reader.username, groups: [...(reader.groups ?? [])] })
const GRANT_READER = 'DocsGrantReader'

const hostOf = (uri: string | undefined) => {
  try {
    return uri ? new URL(uri).host : undefined
  } catch {
    return undefined
  }
}

export async function createAuthorizationServer(options: AuthorizationServerOptions): Promise<AuthorizationServer> {
  const issuer = new URL(ISSUER_PATH, options.siteUrl).href
  const resource = new URL('/mcp', options.siteUrl).href
  const { settings, store } = options
  const readers = store.adapterFor(GRANT_READER)

  const log = (fields: Omit<AccessLogRecord, 'time' | 'path' | 'route' | 'rule'> & { path?: string }) =>
    options.log?.({ time: new Date().toISOString(), path: ISSUER_PATH, route: null, rule: null, ...fields })

  const provider = new Provider(issuer, {
    adapter: (name: string) => store.adapterFor(name),
    jwks: options.keys.jwks as never,
    cookies: { keys: options.keys.cookies },
    findAccount: async (_ctx, sub) => ({ accountId: sub, claims: async () => ({ sub }) }),
    interactions: { url: async (_ctx, interaction) => `${INTERACTION_PATH}${interaction.uid}` },
    features: {
      devInteractions: { enabled: false },
      registration: { enabled: true },
      revocation: { enabled: true },
      clientIdMetadataDocument: {
        enabled: true,
        ack: 'draft-02',
        // Only https documents are fetched (the library's own fetch also refuses private addresses).
        allowFetch: async (_ctx, clientId) => clientId.startsWith('https://'),
        allowClient: async (_ctx, client) => redirectProblem(client.redirectUris ?? [], settings) === null,
      },
      resourceIndicators: {
        enabled: true,
        defaultResource: async () => resource,
        useGrantedResource: async () => true,
        getResourceServerInfo: async (_ctx, indicator) => {
          if (indicator !== resource) throw new errors.InvalidTarget(`this server issues tokens for ${resource} only`)
          return { scope: DOCS_SCOPE, audience: resource, accessTokenTTL: settings.accessTokenSeconds, accessTokenFormat: 'opaque' }
        },
      },
    },
    pkce: { required: () => true },
    // The docs scope is also the resource's (getResourceServerInfo above); it is listed here because
    // clients register with the scopes they will ask for, and registration checks them against this.
    scopes: ['offline_access', DOCS_SCOPE],
    clientDefaults: {
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
      application_type: 'native',
      // The library's default (RS256) must be an algorithm of the keys given: on AWS they are ES256 (keysSecret.ts).
      id_token_signed_response_alg: (options.keys.jwks.keys[0] as { alg?: SigningAlgorithm } | undefined)?.alg ?? 'RS256',
    },
    // Every client's redirect URIs are checked when it registers (the library calls this validator with the whole metadata).
    extraClientMetadata: {
      properties: ['docs_redirect_policy'],
      validator: (_ctx, key, _value, metadata) => {
        if (key !== 'docs_redirect_policy') return
        const problem = redirectProblem((metadata.redirect_uris as string[] | undefined) ?? [], settings)
        if (problem) throw new errors.InvalidRedirectUri(problem)
      },
    },
    ttl: {
      AccessToken: settings.accessTokenSeconds,
      AuthorizationCode: 60,
      RefreshToken: settings.refreshTokenSeconds,
      Grant: settings.refreshTokenSeconds,
      Interaction: 600,
      Session: 600,
    },
    // A refresh asks the user pool about the reader again here, before the library uses up the old
    // refresh token: if the pool cannot be asked, the tool gets an error and keeps a refresh token
    // it can retry with; a reader who is gone gets invalid_grant and the grant ends.
    rotateRefreshToken: async (ctx) => {
      const refreshToken = ctx.oidc.entities.RefreshToken
      const grantId = refreshToken?.grantId
      const reader = grantId ? ((await readers.find(grantId)) as GrantReader | undefined) : undefined
      if (!grantId || !reader) throw new errors.InvalidGrant('the grant has no reader')
      const now = await options.checkReader(reader.username)
      if (now === null) {
        await store.revokeGrant(reader.username, grantId)
        log({ user: reader.username, decision: 'deny', outcome: 'oauth', event: 'refresh', client: refreshToken?.clientId, detail: 'the reader is disabled or deleted' })
        throw new errors.InvalidGrant('the reader can no longer sign in')
      }
      await readers.upsert(grantId, readerRecord(grantId, now), settings.refreshTokenSeconds)
      log({ user: now.username, decision: 'allow', outcome: 'oauth', event: 'refresh', client: refreshToken?.clientId })
      return true
    },
    // A tool's grant outlives the short sign-in session; its refresh token is what keeps it.
    expiresWithSession: async () => false,
    issueRefreshToken: async (_ctx, client) => client.grantTypeAllowed('refresh_token'),
    // Consent is asked every time, so every code is issued to the reader who is signed in now.
    loadExistingGrant: async (ctx) => {
      const grantId = ctx.oidc.result?.consent?.grantId
      return grantId ? ctx.oidc.provider.Grant.find(grantId) : undefined
    },
    // The reader as verified at consent, or at the last refresh (rotateRefreshToken above).
    extraTokenClaims: async (_ctx, token) => {
      if (token.kind !== 'AccessToken' || !token.grantId) return undefined
      const reader = (await readers.find(token.grantId)) as GrantReader | undefined
      if (!reader) throw new errors.InvalidGrant('the grant has no reader')
      return { username: reader.username, groups: reader.groups }
    },
    renderError: async (ctx, out) => {
      ctx.type = 'html'
      ctx.body = errorPage(out.error_description ?? out.error)
    },
    ...(options.fetch ? { fetch: options.fetch as never } : {}),
  })
  // Behind CloudFront the request's scheme and host arrive in X-Forwarded-* (set by the Lambda
  // adapter, never by the viewer); the local server is reached directly and trusts none.
  provider.proxy = options.behindProxy === true
  provider.on('authorization.error', (ctx: KoaContextWithOIDC, error: Error & { error?: string; error_description?: string }) =>
    log({ user: 'anonymous', decision: 'deny', outcome: 'oauth', event: 'refusal', client: ctx.oidc?.client?.clientId, redirectHost: hostOf(ctx.oidc?.params?.redirect_uri as string | undefined), detail: error.error_description ?? error.message })
  )
  provider.on('grant.error', (ctx: KoaContextWithOIDC, error: Error & { error_description?: string }) =>
    log({ user: 'anonymous', decision: 'deny', outcome: 'oauth', event: 'refusal', client: ctx.oidc?.client?.clientId, detail: error.error_description ?? error.message })
  )
  provider.on('grant.revoked', (ctx: KoaContextWithOIDC, grantId: string) => log({ user: 'anonymous', decision: 'allow', outcome: 'oauth', event: 'revocation', client: ctx.oidc?.client?.clientId, detail: `a grant (${grantId.slice(0, 6)}…) revoked by its client` }))
  const callback = provider.callback()

  const json = (response: ServerResponse, status: number, body: unknown) => {
    response.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' })
    response.end(JSON.stringify(body))
  }
  const cookiesOf = (request: IncomingMessage) => (request.headers.cookie ? [request.headers.cookie] : [])
  const readBody = async (request: IncomingMessage): Promise<Record<string, unknown>> => {
    let text = ''
    for await (const chunk of request) {
      text += chunk
      if (text.length > 4096) throw new errors.InvalidRequest('the body is too large')
    }
    const parsed = JSON.parse(text || '{}')
    return typeof parsed === 'object' && parsed !== null ? parsed : {}
  }

  /** The consent page's API: the interaction's details, and the reader's decision. */
  async function interaction(request: IncomingMessage, response: ServerResponse, uid: string, action: string): Promise<void> {
    // The browser's navigation to the interaction (the library sends it here) goes on to the static consent page.
    if (action === '' && request.method === 'GET') {
      response.writeHead(303, { location: `${CONSENT_PAGE}?uid=${encodeURIComponent(uid)}`, 'cache-control': 'no-store' })
      return void response.end()
    }
    const reader = await options.readerOfCookies(cookiesOf(request))
    if (reader === null) return json(response, 401, { error: 'sign_in', message: 'Sign in to the docs site first.' })
    let details
    try {
      details = await provider.interactionDetails(request, response)
    } catch {
      return json(response, 400, { error: 'expired', message: 'This sign-in request has expired or was started in another browser. Start it again from your AI tool.' })
    }
    if (details.uid !== uid) return json(response, 400, { error: 'expired', message: 'This sign-in request does not match the one this browser started.' })
    const client = await provider.Client.find(String(details.params.client_id))
    const redirectUri = String(details.params.redirect_uri ?? '')
    const about = { client: client?.clientName ?? client?.clientId ?? 'an unnamed tool', clientId: client?.clientId, redirectHost: hostOf(redirectUri), reader: reader.username }
    if (action === 'details' && request.method === 'GET') return json(response, 200, about)
    if (action !== 'decision' || request.method !== 'POST') return json(response, 405, { error: 'method_not_allowed' })
    if (request.headers[CONSENT_HEADER] !== '1') return json(response, 403, { error: 'forbidden', message: `the consent page sends ${CONSENT_HEADER}` })
    const { decision } = await readBody(request)
    if (decision !== 'allow') {
      log({ user: reader.username, decision: 'deny', outcome: 'oauth', event: 'refusal', client: about.clientId, redirectHost: about.redirectHost, detail: 'the reader denied access' })
      const redirectTo = await provider.interactionResult(request, response, { error: 'access_denied', error_description: 'The reader denied access' }, { mergeWithLastSubmission: false })
      return json(response, 200, { redirectTo })
    }
    const grant = new provider.Grant({ accountId: reader.username, clientId: String(details.params.client_id) })
    // What the tool asked for, of the scopes there are: the library checks the grant against the request.
    const asked = String(details.params.scope ?? '').split(' ').filter((scope) => ['openid', 'offline_access', DOCS_SCOPE].includes(scope))
    if (asked.length > 0) grant.addOIDCScope(asked.join(' '))
    grant.addResourceScope(resource, DOCS_SCOPE)
    const grantId = await grant.save()
    await readers.upsert(grantId, readerRecord(grantId, reader), settings.refreshTokenSeconds)
    log({ user: reader.username, decision: 'allow', outcome: 'oauth', event: 'grant', client: about.clientId, redirectHost: about.redirectHost })
    const redirectTo = await provider.interactionResult(request, response, { login: { accountId: reader.username }, consent: { grantId } }, { mergeWithLastSubmission: false })
    return json(response, 200, { redirectTo })
  }

  /** The reader's connected tools: GET lists them; POST revokes one (`grantId`) or all. */
  async function connections(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const reader = await options.readerOfCookies(cookiesOf(request))
    if (reader === null) return json(response, 401, { error: 'sign_in', message: 'Sign in to the docs site first.' })
    const grants = await store.grantsOfAccount(reader.username)
    if (request.method === 'GET') {
      const listed = await Promise.all(grants.map(async (grant) => ({ ...grant, client: (await provider.Client.find(grant.clientId).catch(() => undefined))?.clientName ?? grant.clientId })))
      return json(response, 200, { reader: reader.username, connections: listed })
    }
    if (request.method !== 'POST') return json(response, 405, { error: 'method_not_allowed' })
    if (request.headers[CONSENT_HEADER] !== '1') return json(response, 403, { error: 'forbidden', message: `the site's pages send ${CONSENT_HEADER}` })
    const { grantId } = await readBody(request)
    if (grantId === undefined) await store.revokeByAccountId(reader.username)
    else if (typeof grantId !== 'string' || !(await store.revokeGrant(reader.username, grantId))) {
      return json(response, 404, { error: 'not_found', message: 'You have no such connection.' })
    }
    log({ user: reader.username, decision: 'allow', outcome: 'oauth', event: 'revocation', ...(typeof grantId === 'string' ? {} : { detail: 'every connection' }) })
    return json(response, 200, { revoked: grantId === undefined ? grants.length : 1 })
  }

  return {
    issuer,
    handles: isSignInPath,
    async handle(request, response) {
      const url = new URL(request.url ?? '/', options.siteUrl)
      try {
        if (url.pathname.startsWith(INTERACTION_PATH)) {
          const [uid, action = ''] = url.pathname.slice(INTERACTION_PATH.length).split('/')
          return await interaction(request, response, decodeURIComponent(uid), action)
        }
        if (url.pathname === CONNECTIONS_PATH) return await connections(request, response)
        // The library is mounted at ISSUER_PATH: it sees the path below it, and the mount from originalUrl.
        const below = url.pathname === AUTHORIZATION_SERVER_METADATA_PATH ? '/.well-known/openid-configuration' : url.pathname.slice(ISSUER_PATH.length) || '/'
        Object.assign(request, { originalUrl: `${ISSUER_PATH}${below}${url.search}`, url: `${below}${url.search}` })
        await callback(request, response)
      } catch (error) {
        if (response.headersSent) return void response.end()
        const message = error instanceof errors.OIDCProviderError ? (error.error_description ?? error.message) : 'The sign-in service could not answer.'
        if (!(error instanceof errors.OIDCProviderError)) console.error(`oauth: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`)
        response.writeHead(400, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' })
        response.end(errorPage(message))
      }
    },
    async verifyAccessToken(token) {
      // A store that cannot be read is an error (the tool should retry), not "no such token" (it would sign in again).
      const found = await provider.AccessToken.find(token)
      if (!found || found.isExpired) return null
      const audiences = Array.isArray(found.aud) ? found.aud : [found.aud]
      if (!audiences.includes(resource)) return null
      // A revoked grant (the reader revoked the tool, or signed out everywhere) ends its tokens at once.
      if (!found.grantId || !(await provider.Grant.find(found.grantId))) return null
      const extra = (found.extra ?? {}) as { username?: unknown; groups?: unknown }
      if (typeof extra.username !== 'string') return null
      const groups = Array.isArray(extra.groups) ? extra.groups.filter((group): group is string => typeof group === 'string') : []
      return { user: { username: extra.username, groups }, expiresAtMs: (found.exp ?? 0) * 1000 }
    },
  }
}


