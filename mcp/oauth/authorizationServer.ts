/**
 * The site's own authorization server for readers' AI tools, built on oidc-provider (certified;
 * no OAuth is written here): it signs a tool in as its reader through the site's own sign-in and a
 * consent page, and issues access tokens for /mcp alone.
 *
 * - Discovery (RFC 8414) at ISSUER_PATH's well-known URL; the resource metadata of /mcp names it.
 * - Clients: Client ID Metadata Documents and Dynamic Client Registration; public clients only,
 *   within the limits of lib/aiTools/registrationLimits.ts (registrationPolicy.ts). A registration
 *   that no reader allows within a day expires (registrationsExpire below); the local server also
 *   limits registrations per address (registrationRate), the WAF does on AWS.
 * - Authorization code with PKCE S256 only; the `resource` parameter (RFC 8707) can name /mcp alone.
 * - Scopes: docs:read (given to a tool that names none), offline_access (a refresh token), openid;
 *   any other is refused before the consent page (extraParams.scope below), so Allow always ends in a code.
 * - Redirect URIs: a loopback address on any port, or a hosted app's URI the admin listed
 *   (access.config.ts aiTools); anything else is refused with an error page, never a redirect.
 * - Access tokens are opaque, stored, and live at most 15 minutes; refresh tokens rotate, and each
 *   is good once: a second use, even racing the first, ends the grant (consumedOnce below).
 * - The grant keeps the reader's user-pool session (the refresh-token cookie of the sign-in they
 *   consented from). Consent and each refresh ask the pool about the reader with it
 *   (readerCheck.ts): a reader who is disabled, deleted, signed out by an admin, or must set a new
 *   password gets no new token and the grant ends; changed groups take effect.
 * - Who the reader is comes only from the site's verified sign-in cookie, at the consent step.
 */
import type { IncomingMessage, ServerResponse } from 'node:http'
import Provider, { errors, type AdapterPayload, type KoaContextWithOIDC, type SigningAlgorithm } from 'oidc-provider'
import type { AccessLogRecord, AccessLogSink } from '../../edge/accessLog'
import type { VerifiedReader } from '../../edge/tokenVerifier'
import type { AccessUser } from '../../lib/access/types'
import { redirectProblem, type AiToolsSettings } from './aiToolsSettings'
import { errorPage } from './pages'
import { signInUrl } from '../../lib/pathFormats'
import { createRateLimiter, type RateLimit } from './rateLimit'
import { registrationProblem } from './registrationPolicy'
import { UNGRANTED_CLIENT_SECONDS } from '../../lib/aiTools/registrationLimits'
import { AUTHORIZATION_PATH, AUTHORIZATION_SERVER_METADATA_PATH, CONNECTIONS_PATH, CONSENT_HEADER, CONSENT_PAGE, DOCS_SCOPE, INTERACTION_PATH, ISSUER_PATH, REGISTRATION_PATH, isSignInPath } from '../../lib/aiTools/oauthPaths'
import type { CheckReader } from './readerCheck'
import type { PoolSession } from '../../edge/readIdToken'
import { OAuthStoreAlreadyConsumedError, OAuthStoreGoneError } from './store/errors'
import type { AdapterPayload as StoredPayload, OAuthStore, OidcAdapter } from './store/oauthStore'

export interface AuthorizationServerOptions {
  siteUrl: string
  settings: AiToolsSettings
  /** Grants, codes, tokens and clients (mcp/oauth/store/): in memory locally, DynamoDB on AWS. */
  store: OAuthStore
  /** Private signing keys (JWKS) and cookie-signing keys. */
  keys: { jwks: { keys: object[] }; cookies: string[] }
  /** The reader of the site's sign-in cookies, verified as the edge verifies them; null when none. */
  readerOfCookies: (cookieHeaders: readonly string[]) => Promise<AccessUser>
  /** The user-pool session (refresh token and its app client) of `username` in the site's sign-in cookies, or null. Kept with the grant; never logged or returned. */
  poolSessionOf: (cookieHeaders: readonly string[], username: string) => PoolSession | null
  checkReader: CheckReader
  log?: AccessLogSink
  /** Fetches Client ID Metadata Documents (tests serve theirs; production keeps the library's guarded fetch). */
  fetch?: typeof fetch
  /** Whether requests arrive through a proxy that sets X-Forwarded-Proto and -Host (the Lambda adapter). */
  behindProxy?: boolean
  /**
   * Registrations (POST /oauth/reg) one source address may make in a window; over it, 429. The local
   * server sets REGISTRATION_RATE; on AWS the WAF counts them before the request arrives, so none.
   */
  registrationRate?: RateLimit
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
  /**
   * The reader's user-pool session: the refresh token of the site sign-in they consented from, and
   * the app client it was issued to, which alone can renew it. Each refresh asks the pool to renew
   * it (readerCheck.ts), so an admin's global sign-out, which revokes it, ends the grant. A secret:
   * stored (DynamoDB, encrypted at rest), never logged or sent.
   */
  poolSession?: PoolSession
}
const readerRecord = (grantId: string, reader: NonNullable<AccessUser>, poolSession: PoolSession): GrantReader => ({ grantId, accountId: reader.username, username: reader.username, groups: [...(reader.groups ?? [])], poolSession })
const GRANT_READER = 'DocsGrantReader'
/**
 * `pathname` as a check of one endpoint reads it: decoded, lowercased, without trailing slashes, so
 * it takes at least every spelling the library's router does (which folds case and takes a
 * trailing slash).
 */
const routedPath = (pathname: string) => {
  let decoded = pathname
  try {
    decoded = decodeURIComponent(pathname)
  } catch {
    // Not valid percent-encoding: the router does not match it either.
  }
  return decoded.toLowerCase().replace(/\/+$/, '')
}
const isRegistrationPath = (pathname: string) => routedPath(pathname) === REGISTRATION_PATH
/** The authorization endpoint, and its resumption after the consent (`/oauth/auth/<uid>`). */
const isAuthorizationPath = (pathname: string) => {
  const routed = routedPath(pathname)
  return routed === AUTHORIZATION_PATH || routed.startsWith(`${AUTHORIZATION_PATH}/`)
}
/** Every scope a tool may ask for; anything else is refused before consent (extraParams.scope). */
const GRANTABLE_SCOPES: readonly string[] = ['openid', 'offline_access', DOCS_SCOPE]

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

  /** A one-time token used twice: a sign of theft (or a tool that lost its answer), never routine. */
  const logReuse = (grantType: unknown, token: Pick<StoredPayload, 'accountId' | 'clientId'> | undefined, clientId?: string) =>
    log({
      user: token?.accountId ?? 'anonymous',
      decision: 'deny',
      outcome: 'oauth',
      event: grantType === 'refresh_token' ? 'refresh-reuse' : 'code-reuse',
      client: token?.clientId ?? clientId,
      detail: `a ${grantType === 'refresh_token' ? 'refresh token' : 'code'} was used twice: the grant is revoked`,
    })

  /**
   * The library detects reuse by reading a token as consumed before it uses it; two requests with
   * one refresh token can both read it unused (the pool check in rotateRefreshToken runs between
   * that read and consume). The store's consume lets only one of them win; the other is reuse, and
   * ends as the library ends reuse it sees itself (OAuth 2.1's rule): the whole grant is revoked,
   * and the request gets invalid_grant.
   */
  const consumedOnce = (model: string, adapter: OidcAdapter): OidcAdapter => ({
    ...adapter,
    async consume(id) {
      try {
        await adapter.consume(id)
      } catch (error) {
        if (error instanceof OAuthStoreGoneError) {
          // A racing reuse revoked the grant after this request read the token: it fails too, and
          // the reader's record its rotation wrote back meanwhile (it holds their session) goes.
          const token = Provider.ctx?.oidc.entities[model === 'RefreshToken' ? 'RefreshToken' : 'AuthorizationCode']
          if (token?.grantId) await readers.destroy(token.grantId)
          throw new errors.InvalidGrant(`${model === 'RefreshToken' ? 'refresh token' : 'authorization code'} revoked`)
        }
        if (!(error instanceof OAuthStoreAlreadyConsumedError)) throw error
        const used = await adapter.find(id)
        if (used?.grantId && used.accountId) await store.revokeGrant(used.accountId, used.grantId)
        const grantType = model === 'RefreshToken' ? 'refresh_token' : 'authorization_code'
        logReuse(grantType, used)
        throw new errors.InvalidGrant(`${grantType === 'refresh_token' ? 'refresh token' : 'authorization code'} already used`)
      }
    },
    // The library's grant.revoked event comes once the grant is gone, and a reused code's request
    // holds no token that names the reader: note whose grant this request destroys, for the log.
    ...(model === 'Grant'
      ? {
          async destroy(id: string) {
            const ctx = Provider.ctx
            const accountId = ctx ? (await adapter.find(id))?.accountId : undefined
            if (ctx && accountId) revokedReaders.set(ctx, accountId)
            await adapter.destroy(id)
          },
        }
      : {}),
  })
  /** The reader whose grant a request revoked (the Grant adapter's destroy, above). */
  const revokedReaders = new WeakMap<object, string>()
  /** The reader each refresh checked, for that refresh's access token (a racing reuse may revoke the stored record meanwhile). */
  const checkedAtRefresh = new WeakMap<object, GrantReader>()

  /**
   * oidc-provider saves a registered client with no lifetime; here it gets UNGRANTED_CLIENT_SECONDS,
   * so a registration that no reader allows is removed (DynamoDB's TTL on AWS, the memory store's
   * sweep locally). The reader's Allow saves it again with the grant's lifetime (interaction below).
   * Client ID Metadata Document clients are never saved: their document is fetched and cached.
   */
  const registrationsExpire = (model: string, adapter: OidcAdapter): OidcAdapter =>
    model !== 'Client' ? adapter : { ...adapter, upsert: (id, payload, expiresIn) => adapter.upsert(id, payload, expiresIn ?? UNGRANTED_CLIENT_SECONDS) }
  const clients = store.adapterFor('Client')
  const registrations = options.registrationRate ? createRateLimiter(options.registrationRate) : null
  const wrongTarget = () => new errors.InvalidTarget(`this server issues tokens for ${resource} only`)

  const provider = new Provider(issuer, {
    adapter: (name: string) => consumedOnce(name, registrationsExpire(name, store.adapterFor(name))),
    jwks: options.keys.jwks as never,
    cookies: { keys: options.keys.cookies },
    findAccount: async (_ctx, sub) => ({ accountId: sub, claims: async () => ({ sub }) }),
    interactions: { url: async (_ctx, interaction) => `${INTERACTION_PATH}${interaction.uid}` },
    features: {
      devInteractions: { enabled: false },
      // On by default in the library, and none of them serves the docs' one flow (a public client,
      // its code, its Bearer token at /mcp): DPoP would bind tokens /mcp cannot check the proof of;
      // the logout endpoint redirects to what a registration names; pushed requests and userinfo
      // are more anonymous writes and reads of the sign-in's store.
      dPoP: { enabled: false },
      rpInitiatedLogout: { enabled: false },
      pushedAuthorizationRequests: { enabled: false },
      userinfo: { enabled: false },
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
          if (indicator !== resource) throw wrongTarget()
          return { scope: DOCS_SCOPE, audience: resource, accessTokenTTL: settings.accessTokenSeconds, accessTokenFormat: 'opaque' }
        },
      },
    },
    pkce: { required: () => true },
    // Public clients with the authorization code only: discovery advertises no more, and a
    // registration asking for more (implicit, id_token, a client secret) is invalid_client_metadata.
    // The grant types follow (authorization_code and refresh_token alone).
    responseTypes: ['code'],
    clientAuthMethods: ['none'],
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
    // Every client's sizes and redirect URIs are checked when it registers (the library calls this
    // validator with the whole metadata, for a registration and a metadata document alike).
    extraClientMetadata: {
      properties: ['docs_redirect_policy'],
      validator: (_ctx, key, _value, metadata) => {
        if (key !== 'docs_redirect_policy') return
        const tooMuch = registrationProblem(metadata)
        if (tooMuch) throw new errors.InvalidClientMetadata(tooMuch)
        const problem = redirectProblem((metadata.redirect_uris as string[] | undefined) ?? [], settings)
        // The library's InvalidRedirectUri keeps its own description; this error, for a field named
        // redirect_uris, is RFC 7591's invalid_redirect_uri with the tool's URI and why it is refused.
        if (problem) throw new errors.InvalidClientMetadata(`redirect_uris: ${problem}`)
      },
    },
    /**
     * The scopes a tool may ask for, checked with the rest of the authorization request, so that a
     * request the server would not grant is refused before the reader sees the consent page (the
     * error goes to the tool's redirect URI, naming the scope). extraParams validators may assign a
     * parameter's value; this one settles the scope the consent page grants:
     * - a tool that names no docs scope (no scope at all, or offline_access alone) is given
     *   docs:read, RFC 6749 §3.3's default: the one thing a token of this server is for;
     * - offline_access stays when the tool asked for it. The library drops it from a request
     *   without prompt=consent (OpenID Connect's rule, so that a refresh token follows the user's
     *   explicit consent); here every request ends on the consent page, whatever its prompt.
     */
    extraParams: {
      scope: (ctx: KoaContextWithOIDC, value: string | undefined) => {
        const raw = (ctx.method === 'POST' ? (ctx.oidc.body as Record<string, unknown> | undefined) : ctx.query)?.scope
        const asked = (typeof raw === 'string' ? raw : (value ?? '')).split(' ').filter(Boolean)
        const unknown = asked.filter((scope) => !GRANTABLE_SCOPES.includes(scope))
        if (unknown.length > 0) throw new errors.InvalidScope(`this server grants ${GRANTABLE_SCOPES.join(', ')} only`, unknown.join(' '))
        const client = ctx.oidc.client!
        const registered = client.scope ? client.scope.split(' ') : GRANTABLE_SCOPES
        const granted = new Set((value ?? '').split(' ').filter(Boolean))
        if (asked.includes('offline_access') && client.grantTypeAllowed('refresh_token') && registered.includes('offline_access')) granted.add('offline_access')
        granted.add(DOCS_SCOPE)
        ctx.oidc.params!.scope = [...granted].join(' ')
      },
    },
    ttl: {
      AccessToken: settings.accessTokenSeconds,
      AuthorizationCode: 60,
      RefreshToken: settings.refreshTokenSeconds,
      Grant: settings.refreshTokenSeconds,
      Interaction: 600,
      Session: 600,
      // It only reads the client's registration back; it ends with a registration no reader allowed.
      RegistrationAccessToken: UNGRANTED_CLIENT_SECONDS,
    },
    // A refresh asks the user pool about the reader again here, before the library uses up the old
    // refresh token: if the pool cannot be asked, the tool gets an error and keeps a refresh token
    // it can retry with; a reader who is gone, or whose site sign-in has ended, gets invalid_grant
    // and the grant ends.
    rotateRefreshToken: async (ctx) => {
      // The library asks about the resource only once the old refresh token is used up: a refresh
      // for another one would end the tool's grant at its retry (read as reuse), not be refused.
      const asked = ctx.oidc.params?.resource
      if (asked !== undefined && [asked].flat().some((indicator) => indicator !== resource)) throw wrongTarget()
      const refreshToken = ctx.oidc.entities.RefreshToken
      const grantId = refreshToken?.grantId
      const reader = grantId ? ((await readers.find(grantId)) as GrantReader | undefined) : undefined
      if (!grantId || !reader) throw new errors.InvalidGrant('the grant has no reader')
      // A grant made before sessions were kept has none to ask about: it ends, and the tool signs in again.
      const kept = reader.poolSession
      const now = kept ? await options.checkReader(reader.username, kept) : { ended: 'the grant keeps no site sign-in (granted before they were kept)' }
      if ('ended' in now) {
        await store.revokeGrant(reader.username, grantId)
        log({ user: reader.username, decision: 'deny', outcome: 'oauth', event: 'refresh', client: refreshToken?.clientId, detail: now.ended })
        throw new errors.InvalidGrant('the reader can no longer sign in')
      }
      const record = readerRecord(grantId, now.reader, kept!)
      // The record (it holds the reader's session) ends with the grant, not 30 days after this refresh.
      const grantExp = ctx.oidc.entities.Grant?.exp
      const remaining = typeof grantExp === 'number' ? Math.max(1, grantExp - Math.floor(Date.now() / 1000)) : settings.refreshTokenSeconds
      await readers.upsert(grantId, record, Math.min(remaining, settings.refreshTokenSeconds))
      checkedAtRefresh.set(ctx, record)
      log({ user: now.reader.username, decision: 'allow', outcome: 'oauth', event: 'refresh', client: refreshToken?.clientId })
      return true
    },
    // A tool's grant outlives the short sign-in session; its refresh token is what keeps it.
    expiresWithSession: async () => false,
    // A refresh token goes to a tool that asked for offline_access (the library's rule, OpenID
    // Connect's): others, which asked for none, get an access token alone and sign in again.
    issueRefreshToken: async (_ctx, client, code) => client.grantTypeAllowed('refresh_token') && code.scopes.has('offline_access'),
    // Consent is asked every time, so every code is issued to the reader who is signed in now.
    loadExistingGrant: async (ctx) => {
      const grantId = ctx.oidc.result?.consent?.grantId
      return grantId ? ctx.oidc.provider.Grant.find(grantId) : undefined
    },
    // The reader as verified at consent, or at the last refresh (rotateRefreshToken above).
    extraTokenClaims: async (ctx, token) => {
      if (token.kind !== 'AccessToken' || !token.grantId) return undefined
      const reader = checkedAtRefresh.get(ctx) ?? ((await readers.find(token.grantId)) as GrantReader | undefined)
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
  // The library revokes a grant when its client revokes a token (the revocation endpoint), and when
  // a code or refresh token is used again at the token endpoint: the latter is reuse, logged apart.
  provider.on('grant.revoked', (ctx: KoaContextWithOIDC, grantId: string) => {
    const { entities, route, params, client } = ctx.oidc ?? {}
    const found = (entities?.RefreshToken ?? entities?.AccessToken ?? entities?.AuthorizationCode) as { accountId?: string; clientId?: string } | undefined
    const token = { clientId: found?.clientId, accountId: found?.accountId ?? revokedReaders.get(ctx) }
    if (route === 'token') return logReuse(params?.grant_type, token, client?.clientId)
    log({ user: token.accountId ?? 'anonymous', decision: 'allow', outcome: 'oauth', event: 'revocation', client: client?.clientId, detail: `a grant (${grantId.slice(0, 6)}…) revoked by its client` })
  })
  const callback = provider.callback()
  const siteHost = new URL(options.siteUrl).host

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
    // The grant keeps the reader's user-pool session, so what ends that session (an admin's global
    // sign-out) ends the grant at the tool's next refresh. The pool is asked once now: the session
    // must be live and the reader's own, or no grant is made.
    const poolSession = options.poolSessionOf(cookiesOf(request), reader.username)
    const now = poolSession ? await options.checkReader(reader.username, poolSession) : { ended: 'the sign-in cookies hold no user-pool session' }
    if ('ended' in now) {
      log({ user: reader.username, decision: 'deny', outcome: 'oauth', event: 'refusal', client: about.clientId, redirectHost: about.redirectHost, detail: now.ended })
      return json(response, 401, { error: 'sign_in', message: 'Sign in to the docs site again, then allow the tool.' })
    }
    const grant = new provider.Grant({ accountId: reader.username, clientId: String(details.params.client_id) })
    // What the tool asked for, which the authorization request has already held to GRANTABLE_SCOPES
    // (docs:read included, asked or not: extraParams.scope): the library checks the grant against it.
    const asked = String(details.params.scope ?? '').split(' ').filter((scope) => GRANTABLE_SCOPES.includes(scope))
    if (asked.length > 0) grant.addOIDCScope(asked.join(' '))
    grant.addResourceScope(resource, DOCS_SCOPE)
    const grantId = await grant.save()
    await readers.upsert(grantId, readerRecord(grantId, now.reader, poolSession!), settings.refreshTokenSeconds)
    // A registration the reader allowed lives as long as this grant (it would expire a day after it
    // was made, registrationsExpire above). A metadata document's client is not stored: nothing to keep.
    const registered = await clients.find(String(details.params.client_id))
    if (registered) await clients.upsert(String(details.params.client_id), registered, settings.refreshTokenSeconds)
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
      // The library builds its URLs (endpoints in the metadata, redirects) from the request's host:
      // reached directly, that is whatever the client sent, so it is the site's own.
      if (!options.behindProxy) request.headers.host = siteHost
      keptByNoCache(response)
      try {
        if (url.pathname.startsWith(INTERACTION_PATH)) {
          const [uid, action = ''] = url.pathname.slice(INTERACTION_PATH.length).split('/')
          return await interaction(request, response, decodeURIComponent(uid), action)
        }
        if (url.pathname === CONNECTIONS_PATH) return await connections(request, response)
        // The library stores an interaction for each authorization request: a visitor who is not
        // signed in to the site signs in first, and comes back, so no anonymous request writes one.
        if (isAuthorizationPath(url.pathname) && (await options.readerOfCookies(cookiesOf(request))) === null) {
          if (request.method !== 'GET' && request.method !== 'HEAD') return json(response, 401, { error: 'sign_in', message: 'Sign in to the docs site first.' })
          response.writeHead(303, { location: signInUrl(url.pathname + url.search), 'cache-control': 'no-store' })
          return void response.end()
        }
        if (registrations && request.method === 'POST' && isRegistrationPath(url.pathname)) {
          const decided = registrations.take(request.socket.remoteAddress ?? 'unknown')
          if (!decided.allowed) {
            log({ user: 'anonymous', decision: 'deny', outcome: 'oauth', event: 'refusal', detail: 'too many registrations from one address' })
            response.writeHead(429, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store', 'retry-after': String(decided.retryAfterSeconds) })
            return void response.end(JSON.stringify({ error: 'too_many_requests', error_description: `at most ${options.registrationRate!.limit} registrations in ${options.registrationRate!.windowSeconds} seconds from one address; retry after ${decided.retryAfterSeconds} seconds` }))
          }
        }
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
      // A token bound to a key (DPoP, a certificate) is refused: /mcp takes Bearer tokens, with no proof to check.
      if (!found || found.isExpired || found.isSenderConstrained()) return null
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

/**
 * Every answer of the sign-in service says `no-store` unless it says otherwise: the library's own
 * (its metadata, keys, revocations and 404s) say nothing, and a shared cache would keep them.
 */
function keptByNoCache(response: ServerResponse): void {
  const writeHead = response.writeHead
  response.writeHead = function (this: ServerResponse, ...args: Parameters<ServerResponse['writeHead']>) {
    if (!this.hasHeader('cache-control')) this.setHeader('cache-control', 'no-store')
    return writeHead.apply(this, args)
  } as ServerResponse['writeHead']
}
