/**
 * The embedded local Cognito: cognito-local 5.3.0 run in-process, seeded with the docs site's
 * user pool, app client and users, behind a small proxy that fills the gaps Amplify 6.22 hits.
 *
 *   client ──► proxy (public port) ──► cognito-local (127.0.0.1, random internal port)
 *
 * The proxy answers CORS (the site calls it from http://127.0.0.1:3000), implements
 * GetTokensFromRefreshToken (Amplify's refresh call), GlobalSignOut, and the admin's
 * AdminUserGlobalSignOut and AdminResetUserPassword, maps cognito-local's
 * sign-in errors onto the ones AWS returns, and forwards everything else untouched.
 *
 * Every start is clean: the pool lives in a fresh temp directory that stop() removes (or, after a
 * process that was killed, the next start).
 */
import { createPublicKey, randomUUID, verify as verifySignature } from 'node:crypto'
import { readdirSync, rmSync } from 'node:fs'
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import os from 'node:os'
import path from 'node:path'
import { Writable } from 'node:stream'
import pino from 'pino'
import { UnsupportedError } from 'cognito-local/lib/errors'
import type { Route, Router } from 'cognito-local/lib/server/Router'
import { loadConfig } from 'cognito-local/lib/server/config'
import { createServer as createCognitoLocalServer } from 'cognito-local/lib/server/server'
import { DateClock, LambdaService, MessagesService, TriggersService } from 'cognito-local/lib/services'
import type { Services } from 'cognito-local/lib/services'
import { CognitoServiceFactoryImpl, USER_POOL_AWS_DEFAULTS } from 'cognito-local/lib/services/cognitoService'
import { StormDBDataStoreFactory } from 'cognito-local/lib/services/dataStore/stormDb'
import { ConsoleMessageSender } from 'cognito-local/lib/services/messageDelivery/consoleMessageSender'
import { MessageDeliveryService } from 'cognito-local/lib/services/messageDelivery/messageDelivery'
import { otp } from 'cognito-local/lib/services/otp'
import { JwtTokenGenerator } from 'cognito-local/lib/services/tokenGenerator'
import { UserPoolServiceFactoryImpl } from 'cognito-local/lib/services/userPoolService'
import cognitoLocalPublicKey from 'cognito-local/lib/keys/cognitoLocal.public.json'
import { LOCAL_COGNITO, TOKEN_MINUTES, issuerFor, localCognitoEndpoint } from '../../lib/auth/authSettings'
import { isRunning } from '../../pipeline/mainProcess'
import { demoUsers, SEEDED_GROUPS, SEEDED_PASSWORD } from './seed'
import { refuseForeign } from '../server/thisMachineOnly.cjs'

export interface LocalCognitoOptions {
  /** Public port; 0 picks a free one. Default 9229. */
  port?: number
  /** Interface to bind. Default 127.0.0.1. */
  host?: string
  /** Silence cognito-local's log. */
  quiet?: boolean
  /** The pool's users; by default the demo users of access.config.ts as loaded (./seed.ts demoUsers). */
  users?: readonly string[]
}

export interface LocalCognito {
  /** The endpoint to give Amplify as Auth.Cognito.userPoolEndpoint, e.g. http://127.0.0.1:9229 */
  url: string
  /** Where the pool's signing keys are served (through the proxy). */
  jwksUrl: string
  stop(): Promise<void>
}

const { region, userPoolId, userPoolClientId } = LOCAL_COGNITO
const ISSUER = issuerFor({ region, userPoolId })
/** cognito-local signs tokens with iss = `${IssuerDomain}/${poolId}`; this makes it the real AWS issuer. */
const ISSUER_DOMAIN = ISSUER.slice(0, ISSUER.length - userPoolId.length - 1)
if (`${ISSUER_DOMAIN}/${userPoolId}` !== ISSUER) throw new Error(`unexpected issuer ${ISSUER}`)

const AMZ_JSON = 'application/x-amz-json-1.1'
const CORS_ALLOW_HEADERS = [
  'content-type',
  'x-amz-target',
  'x-amz-user-agent',
  'cache-control',
  'amz-sdk-invocation-id',
  'amz-sdk-request',
]
const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'transfer-encoding',
  'upgrade',
  'te',
  'trailer',
  'content-length',
])

interface JsonReply {
  status: number
  body: unknown
}

/** A pool's folder in the system's temporary folder names the process that made it: `docs-local-cognito-<pid>-<random>`. */
const POOL_DIR_PREFIX = 'docs-local-cognito-'
const POOL_DIR = new RegExp(`^${POOL_DIR_PREFIX}(\\d+)-`)

/** Removes the pools of processes that no longer run: a killed process runs no exit handler, so its folder stays until a later start. */
export function removeOrphanedPools(tmpDir = os.tmpdir()): void {
  for (const name of readdirSync(tmpDir)) {
    const pid = POOL_DIR.exec(name)?.[1]
    if (pid !== undefined && !isRunning(Number(pid))) rmSync(path.join(tmpDir, name), { recursive: true, force: true })
  }
}

/** Starts the local Cognito. Resolves once both servers listen. */
export async function startLocalCognito(opts: LocalCognitoOptions = {}): Promise<LocalCognito> {
  const host = opts.host ?? LOCAL_COGNITO.host
  const port = opts.port ?? LOCAL_COGNITO.port
  removeOrphanedPools()
  const dir = await mkdtemp(path.join(os.tmpdir(), `${POOL_DIR_PREFIX}${process.pid}-`))
  const agent = new http.Agent({ keepAlive: true })
  let internal: http.Server | undefined
  let proxy: http.Server | undefined
  // Safety net for a process that exits without stop(): never leave the temp pool behind.
  const removeDirOnExit = () => rmSync(dir, { recursive: true, force: true })
  process.once('exit', removeDirOnExit)

  const cleanUp = async () => {
    process.removeListener('exit', removeDirOnExit)
    if (proxy) await closeServer(proxy)
    if (internal) await closeServer(internal)
    agent.destroy()
    await rm(dir, { recursive: true, force: true, maxRetries: 3 })
  }

  try {
    const dataDir = path.join(dir, 'db')
    // access.config.ts read only when no caller names the users (dev reads it itself, with its own message for a broken one).
    await seedDataDirectory(dir, dataDir, opts.users ?? demoUsers((await import('../../lib/access')).access.members))

    const logger = createLogger(opts.quiet ?? false)
    const ctx = { logger }
    const config = await loadConfig(ctx, new StormDBDataStoreFactory(dir))
    const clock = new DateClock()
    const dataStoreFactory = new StormDBDataStoreFactory(dataDir)
    const cognito = await new CognitoServiceFactoryImpl(
      dataDir,
      dataStoreFactory,
      new UserPoolServiceFactoryImpl(clock, dataStoreFactory)
    ).create(ctx, config.UserPoolDefaults)
    // No Lambda triggers are configured, so the AWS SDK clients cognito-local would build for
    // them (and the KMS crypto of CustomEmailSender) are never called: pass inert stand-ins and
    // keep aws-sdk v2 out of the process.
    const lambda = new LambdaService(config.TriggerFunctions, {} as ConstructorParameters<typeof LambdaService>[1])
    const triggers = new TriggersService(clock, cognito, lambda, {} as ConstructorParameters<typeof TriggersService>[3])
    const services: Services = {
      clock,
      cognito,
      config,
      messages: new MessagesService(triggers, new MessageDeliveryService(new ConsoleMessageSender())),
      otp,
      tokenGenerator: new JwtTokenGenerator(clock, triggers, config.TokenConfig),
      triggers,
    }
    const cognitoLocal = createCognitoLocalServer(lazyRouter(services), logger, config.ServerConfig, services)
    internal = (await cognitoLocal.start()) as http.Server
    const internalPort = (internal.address() as AddressInfo).port
    // Only the proxy's keep-alive agent calls it. Node's 5 s idle close raced a request the agent sent
    // on the closing socket ("socket hang up", once in CI); the agent's owner closes them instead (stop()).
    internal.keepAliveTimeout = 0
    // It answers any origin, and its admin calls need no credentials: this machine's pages and tools
    // only (../server/thisMachineOnly.cjs), here and at the proxy below, which calls it.
    const answer = internal.listeners('request') as ((req: http.IncomingMessage, res: http.ServerResponse) => void)[]
    internal.removeAllListeners('request')
    internal.on('request', (req: http.IncomingMessage, res: http.ServerResponse) => {
      if (!refuseForeign(req, res)) for (const listener of answer) listener.call(internal, req, res)
    })

    let publicUrl = ''
    const upstream = (method: string, urlPath: string, headers: http.OutgoingHttpHeaders, body: Buffer) =>
      request(agent, internalPort, method, urlPath, headers, body)
    const callTarget = async (target: string, payload: unknown): Promise<JsonReply> => {
      const res = await upstream(
        'POST',
        '/',
        { 'content-type': AMZ_JSON, 'x-amz-target': `AWSCognitoIdentityProviderService.${target}` },
        Buffer.from(JSON.stringify(payload))
      )
      return { status: res.status, body: parseJson(res.body) }
    }

    const gaps: Record<string, (body: Record<string, unknown>) => Promise<JsonReply>> = {
      // cognito-local answers "User not found" for an unknown name and an unsupported-feature error
      // for a known one (no local user has an email): "Forgot your password?" told which names
      // exist. The real pool (preventUserExistenceErrors, infra/lib/auth-stack.ts) answers an unknown
      // name as if it sent a code; no local user can get one, so every name gets that answer.
      ForgotPassword: async (body) => {
        if (typeof body.Username !== 'string' || !body.Username) return awsError('InvalidParameterException', 'Username is required')
        return { status: 200, body: { CodeDeliveryDetails: { AttributeName: 'email', DeliveryMedium: 'EMAIL', Destination: '***@***' } } }
      },
      // Amplify >= 6.16 refreshes with this target; cognito-local 5.3.0 only knows InitiateAuth's
      // REFRESH_TOKEN_AUTH flow, which does the same job.
      GetTokensFromRefreshToken: async (body) => {
        if (typeof body.RefreshToken !== 'string' || !body.RefreshToken) {
          return awsError('InvalidParameterException', 'RefreshToken is required')
        }
        if (typeof body.ClientId !== 'string' || !body.ClientId) {
          return awsError('InvalidParameterException', 'ClientId is required')
        }
        const res = await callTarget('InitiateAuth', {
          AuthFlow: 'REFRESH_TOKEN_AUTH',
          ClientId: body.ClientId,
          AuthParameters: { REFRESH_TOKEN: body.RefreshToken },
        })
        if (res.status !== 200) return mapRefreshError(res)
        const result = (res.body as { AuthenticationResult?: Record<string, unknown> }).AuthenticationResult
        const accessToken = typeof result?.AccessToken === 'string' ? result.AccessToken : ''
        const claims = decodeJwtPayload(accessToken)
        if (!result || !claims) return awsError('InternalErrorException', 'cognito-local returned no tokens', 500)
        return {
          status: 200,
          body: {
            AuthenticationResult: {
              AccessToken: accessToken,
              IdToken: result.IdToken,
              ExpiresIn: Number(claims.exp) - Number(claims.iat),
              TokenType: 'Bearer',
            },
          },
        }
      },
      // Missing from cognito-local: invalidate every refresh token of the access token's user.
      GlobalSignOut: async (body) => {
        const claims = verifyAccessToken(body.AccessToken)
        if (!claims) return awsError('NotAuthorizedException', 'Invalid Access Token')
        try {
          const pool = await cognito.getUserPoolForClientId(ctx, String(claims.client_id))
          const user = await pool.getUserByUsername(ctx, String(claims.username))
          if (!user) return awsError('NotAuthorizedException', 'Invalid Access Token')
          await pool.saveUser(ctx, { ...user, RefreshTokens: [] })
          return { status: 200, body: {} }
        } catch (err) {
          const code = (err as { code?: unknown }).code
          if (typeof code === 'string') return awsError(code, (err as Error).message)
          throw err
        }
      },
    }

    /** The pool's user for an admin call (UserPoolId, Username), or the error AWS answers. */
    const adminUser = async (body: Record<string, unknown>) => {
      if (typeof body.UserPoolId !== 'string' || typeof body.Username !== 'string' || !body.Username) {
        return { error: awsError('InvalidParameterException', 'UserPoolId and Username are required') }
      }
      try {
        const pool = await cognito.getUserPool(ctx, body.UserPoolId)
        const user = await pool.getUserByUsername(ctx, body.Username)
        return user ? { pool, user } : { error: awsError('UserNotFoundException', 'User does not exist.') }
      } catch (err) {
        const code = (err as { code?: unknown }).code
        if (typeof code === 'string') return { error: awsError(code, (err as Error).message) }
        throw err
      }
    }
    // Missing from cognito-local; calls signed by an admin (the local Cognito takes any credentials).
    Object.assign(gaps, {
      // As AWS: every refresh token of the user stops working (the ID and access tokens already
      // issued live until they expire).
      AdminUserGlobalSignOut: async (body: Record<string, unknown>): Promise<JsonReply> => {
        const found = await adminUser(body)
        if ('error' in found) return found.error!
        await found.pool.saveUser(ctx, { ...found.user, RefreshTokens: [] })
        return { status: 200, body: {} }
      },
      // As AWS: the password no longer signs in (PasswordResetRequiredException) until the user
      // sets a new one with a code (ConfirmForgotPassword); the status is RESET_REQUIRED. AWS does
      // not document revoking the user's refresh tokens, so they are left as they are: what ends
      // an AI tool's grant is the status, which the site's authorization server reads.
      AdminResetUserPassword: async (body: Record<string, unknown>): Promise<JsonReply> => {
        const found = await adminUser(body)
        if ('error' in found) return found.error!
        await found.pool.saveUser(ctx, { ...found.user, UserStatus: 'RESET_REQUIRED', UserLastModifiedDate: new Date() })
        return { status: 200, body: {} }
      },
    })

    proxy = http.createServer((req, res) => {
      if (refuseForeign(req, res)) return
      handle(req, res).catch((err: unknown) => {
        logger.error({ err }, 'local cognito proxy failed')
        if (!res.headersSent) {
          send(req, res, 502, { 'content-type': AMZ_JSON }, jsonBuffer({ __type: 'InternalErrorException', message: String(err) }))
        } else {
          res.destroy()
        }
      })
    })

    const handle = async (req: http.IncomingMessage, res: http.ServerResponse) => {
      if (req.method === 'OPTIONS') {
        send(req, res, 204, {}, Buffer.alloc(0))
        return
      }
      const body = await readBody(req)
      const target = amzTarget(req)
      const gap = req.method === 'POST' && target ? gaps[target] : undefined
      if (gap) {
        const payload = parseJson(body)
        const reply = payload && typeof payload === 'object' ? await gap(payload as Record<string, unknown>) : awsError('SerializationException', 'request body is not JSON')
        send(req, res, reply.status, { 'content-type': AMZ_JSON }, jsonBuffer(reply.body))
        return
      }
      const pathname = (req.url ?? '/').split('?')[0]
      const oidc = /^\/([\w-]+)\/\.well-known\/openid-configuration$/.exec(pathname)
      if (req.method === 'GET' && oidc) {
        // cognito-local's own answer names http://localhost:9229 as issuer; tell the truth instead.
        send(req, res, 200, { 'content-type': 'application/json' }, jsonBuffer({
          issuer: `${ISSUER_DOMAIN}/${oidc[1]}`,
          jwks_uri: `${publicUrl}/${oidc[1]}/.well-known/jwks.json`,
          id_token_signing_alg_values_supported: ['RS256'],
          subject_types_supported: ['public'],
        }))
        return
      }

      const up = await upstream(req.method ?? 'GET', req.url ?? '/', forwardHeaders(req.headers), body)
      if (req.method === 'POST' && (target === 'InitiateAuth' || target === 'AdminInitiateAuth') && up.status === 400) {
        const mapped = mapSignInError(parseJson(body), parseJson(up.body))
        if (mapped) {
          send(req, res, 400, { 'content-type': AMZ_JSON }, jsonBuffer(mapped))
          return
        }
      }
      send(req, res, up.status, responseHeaders(up.headers), up.body)
    }

    await new Promise<void>((resolve, reject) => {
      proxy!.once('error', (err: NodeJS.ErrnoException) =>
        reject(err.code === 'EADDRINUSE' ? new Error(`local Cognito: ${host}:${port} is already in use`) : err)
      )
      proxy!.listen(port, host, () => resolve())
    })
    const actualPort = (proxy.address() as AddressInfo).port
    publicUrl = localCognitoEndpoint(host, actualPort)

    let stopping: Promise<void> | undefined
    return {
      url: publicUrl,
      jwksUrl: `${publicUrl}/${userPoolId}/.well-known/jwks.json`,
      stop: () => (stopping ??= cleanUp()),
    }
  } catch (err) {
    await cleanUp().catch(() => undefined)
    throw err
  }
}

/**
 * cognito-local's own Router requires all of its targets up front, and the three TOTP ones pull in
 * otplib -> @scure/base, which is ESM-only: fine under Node 20's require(esm), fatal under Jest's
 * CommonJS module registry. This router does what cognito-local's does (same lookup, same logger
 * child, same "Unsupported" answer for unknown targets) but loads each target module on first use,
 * so everything except TOTP MFA (off in the docs pool) also works inside Jest.
 */
function lazyRouter(services: Services): Router {
  const routes = new Map<string, Route>()
  const unsupported = (target: string) => new UnsupportedError(`Unsupported x-amz-target header "${target}"`)
  const load = (target: string): Route => {
    if (!/^[A-Z][A-Za-z0-9]*$/.test(target)) throw unsupported(target)
    const file = `cognito-local/lib/targets/${target.charAt(0).toLowerCase()}${target.slice(1)}`
    let mod: Record<string, unknown>
    try {
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      mod = require(file) as Record<string, unknown>
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'MODULE_NOT_FOUND') throw unsupported(target)
      throw new UnsupportedError(`${target} cannot be loaded in this runtime: ${(err as Error).message.split('\n')[0]}`)
    }
    const factory = mod[target]
    if (typeof factory !== 'function') throw unsupported(target)
    return (factory as (services: Services) => Route)(services)
  }
  return (target) => async (ctx, req) => {
    let route = routes.get(target)
    if (!route) {
      route = load(target)
      routes.set(target, route)
    }
    const logger = ctx.logger.child({ target })
    logger.debug('start')
    const res: unknown = await route({ ...ctx, logger }, req)
    logger.debug('end')
    return res
  }
}

/** Writes config.json and the db files (app client + pool with its users) cognito-local loads on start. */
async function seedDataDirectory(configDir: string, dataDir: string, usernames: readonly string[]): Promise<void> {
  await mkdir(dataDir, { recursive: true })
  const now = new Date().toISOString()
  const config = {
    TokenConfig: { IssuerDomain: ISSUER_DOMAIN },
    UserPoolDefaults: { UsernameAttributes: [] },
    TriggerFunctions: {},
    ServerConfig: { hostname: '127.0.0.1', port: 0, https: false, development: false },
  }
  const clients = {
    Clients: {
      [userPoolClientId]: {
        ClientId: userPoolClientId,
        ClientName: 'docs-web',
        UserPoolId: userPoolId,
        CreationDate: now,
        LastModifiedDate: now,
        ExplicitAuthFlows: ['ALLOW_USER_PASSWORD_AUTH', 'ALLOW_REFRESH_TOKEN_AUTH'],
        // AWS's defaults for a new app client.
        AccessTokenValidity: TOKEN_MINUTES,
        IdTokenValidity: TOKEN_MINUTES,
        RefreshTokenValidity: 30,
        TokenValidityUnits: { AccessToken: 'minutes', IdToken: 'minutes', RefreshToken: 'days' },
        EnableTokenRevocation: true,
        PreventUserExistenceErrors: 'ENABLED',
        SupportedIdentityProviders: ['COGNITO'],
      },
    },
  }
  const users = Object.fromEntries(
    usernames.map((username) => [
      username,
      {
        Username: username,
        Password: SEEDED_PASSWORD,
        Attributes: [{ Name: 'sub', Value: randomUUID() }],
        Enabled: true,
        UserStatus: 'CONFIRMED',
        UserCreateDate: now,
        UserLastModifiedDate: now,
        RefreshTokens: [],
      },
    ])
  )
  const pool = {
    Options: {
      ...USER_POOL_AWS_DEFAULTS,
      Id: userPoolId,
      Name: 'docs-local',
      Arn: `arn:aws:cognito-idp:${region}:000000000000:userpool/${userPoolId}`,
      CreationDate: now,
      LastModifiedDate: now,
      UsernameAttributes: [],
      MfaConfiguration: 'OFF',
      AdminCreateUserConfig: { AllowAdminCreateUserOnly: true, UnusedAccountValidityDays: 7 },
      Policies: {
        PasswordPolicy: {
          MinimumLength: 8,
          RequireUppercase: false,
          RequireLowercase: false,
          RequireNumbers: false,
          RequireSymbols: false,
          TemporaryPasswordValidityDays: 7,
        },
      },
    },
    Users: users,
    Groups: Object.fromEntries(
      Object.entries(SEEDED_GROUPS).map(([group, members]) => [
        group,
        { GroupName: group, Description: 'Seeded for the docs site', CreationDate: now, LastModifiedDate: now, members: [...members] },
      ])
    ),
  }
  await Promise.all([
    writeFile(path.join(configDir, 'config.json'), JSON.stringify(config, null, 2)),
    writeFile(path.join(dataDir, 'clients.json'), JSON.stringify(clients, null, 2)),
    writeFile(path.join(dataDir, `${userPoolId}.json`), JSON.stringify(pool, null, 2)),
  ])
}

function createLogger(quiet: boolean) {
  const stream = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      try {
        const line = JSON.parse(chunk.toString()) as { level?: number; msg?: string; err?: { type?: string; message?: string } }
        const level = (line.level ?? 30) >= 50 ? 'error' : (line.level ?? 30) >= 40 ? 'warn' : 'info'
        const err = line.err ? ` (${[line.err.type, line.err.message].filter(Boolean).join(': ')})` : ''
        process.stderr.write(`[local-cognito] ${level} ${line.msg ?? ''}${err}\n`)
      } catch {
        process.stderr.write(`[local-cognito] ${chunk.toString()}`)
      }
      callback()
    },
  })
  return pino({ level: quiet ? 'silent' : 'info', base: undefined }, stream)
}

function closeServer(server: http.Server): Promise<void> {
  return new Promise((resolve) => {
    if (!server.listening) {
      resolve()
      return
    }
    server.close(() => resolve())
    server.closeAllConnections()
  })
}

function readBody(req: http.IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = []
    req.on('data', (chunk: Buffer) => chunks.push(chunk))
    req.on('end', () => resolve(Buffer.concat(chunks)))
    req.on('error', reject)
  })
}

interface UpstreamResponse {
  status: number
  headers: http.IncomingHttpHeaders
  body: Buffer
}

function request(
  agent: http.Agent,
  port: number,
  method: string,
  urlPath: string,
  headers: http.OutgoingHttpHeaders,
  body: Buffer
): Promise<UpstreamResponse> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      { agent, host: '127.0.0.1', port, method, path: urlPath, headers: { ...headers, 'content-length': body.length } },
      (res) => {
        readBody(res).then((buf) => resolve({ status: res.statusCode ?? 502, headers: res.headers, body: buf }), reject)
      }
    )
    req.on('error', reject)
    req.end(body)
  })
}

function forwardHeaders(headers: http.IncomingHttpHeaders): http.OutgoingHttpHeaders {
  const out: http.OutgoingHttpHeaders = {}
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined && !HOP_BY_HOP.has(name)) out[name] = value
  }
  return out
}

function responseHeaders(headers: http.IncomingHttpHeaders): http.OutgoingHttpHeaders {
  const out: http.OutgoingHttpHeaders = {}
  for (const [name, value] of Object.entries(headers)) {
    // cognito-local answers `*` itself; the proxy's CORS headers replace it.
    if (value !== undefined && !HOP_BY_HOP.has(name) && !name.startsWith('access-control-') && name !== 'vary') {
      out[name] = value
    }
  }
  return out
}

function corsHeaders(req: http.IncomingMessage): http.OutgoingHttpHeaders {
  const requested = String(req.headers['access-control-request-headers'] ?? '')
    .split(',')
    .map((h) => h.trim().toLowerCase())
    .filter(Boolean)
  return {
    'access-control-allow-origin': req.headers.origin ?? '*',
    'access-control-allow-headers': [...new Set([...CORS_ALLOW_HEADERS, ...requested])].join(', '),
    'access-control-allow-methods': 'POST,GET,OPTIONS',
    'access-control-expose-headers': 'x-amzn-requestid, x-amzn-errortype, x-amzn-errormessage, date',
    'access-control-max-age': '600',
    vary: 'Origin',
  }
}

function send(
  req: http.IncomingMessage,
  res: http.ServerResponse,
  status: number,
  headers: http.OutgoingHttpHeaders,
  body: Buffer
): void {
  res.writeHead(status, { ...headers, ...corsHeaders(req), 'content-length': body.length })
  res.end(body)
}

function amzTarget(req: http.IncomingMessage): string | undefined {
  const header = req.headers['x-amz-target']
  if (typeof header !== 'string') return undefined
  return header.split('.')[1]
}

function parseJson(buf: Buffer): unknown {
  try {
    return JSON.parse(buf.toString('utf8'))
  } catch {
    return undefined
  }
}

function jsonBuffer(value: unknown): Buffer {
  return Buffer.from(JSON.stringify(value))
}

function awsError(type: string, message: string, status = 400): JsonReply {
  return { status, body: { __type: type, message } }
}

/**
 * AWS answers a wrong password and (with PreventUserExistenceErrors, the default) an unknown user
 * alike: NotAuthorizedException "Incorrect username or password.". cognito-local says
 * InvalidPasswordException / NotAuthorizedException "User not authorized" instead.
 */
function mapSignInError(request: unknown, error: unknown): unknown {
  const flow = (request as { AuthFlow?: unknown } | undefined)?.AuthFlow
  const type = (error as { __type?: unknown } | undefined)?.__type
  if ((flow === 'USER_PASSWORD_AUTH' || flow === 'ADMIN_USER_PASSWORD_AUTH' || flow === 'ADMIN_NO_SRP_AUTH') &&
    (type === 'InvalidPasswordException' || type === 'UserNotFoundException' || type === 'NotAuthorizedException')) {
    return { __type: 'NotAuthorizedException', message: 'Incorrect username or password.' }
  }
  if ((flow === 'REFRESH_TOKEN_AUTH' || flow === 'REFRESH_TOKEN') && type === 'NotAuthorizedException') {
    return { __type: 'NotAuthorizedException', message: 'Invalid Refresh Token' }
  }
  return undefined
}

function mapRefreshError(res: JsonReply): JsonReply {
  const type = (res.body as { __type?: unknown } | undefined)?.__type
  if (res.status === 400 && (type === 'NotAuthorizedException' || type === 'ResourceNotFoundException')) {
    return awsError('NotAuthorizedException', 'Invalid Refresh Token')
  }
  return res
}

function decodeJwtPayload(token: string): Record<string, unknown> | undefined {
  const part = token.split('.')[1]
  if (!part) return undefined
  const payload = parseJson(Buffer.from(part, 'base64url'))
  return payload && typeof payload === 'object' ? (payload as Record<string, unknown>) : undefined
}

const publicKey = createPublicKey({ key: cognitoLocalPublicKey.jwk, format: 'jwk' })

/** The claims of a current access token signed by cognito-local for this issuer, or undefined. */
function verifyAccessToken(token: unknown): Record<string, unknown> | undefined {
  if (typeof token !== 'string') return undefined
  const [header, payload, signature] = token.split('.')
  if (!header || !payload || !signature) return undefined
  const valid = verifySignature('RSA-SHA256', Buffer.from(`${header}.${payload}`), publicKey, Buffer.from(signature, 'base64url'))
  if (!valid) return undefined
  const claims = decodeJwtPayload(token)
  if (!claims || claims.token_use !== 'access' || typeof claims.iss !== 'string' || !claims.iss.startsWith(`${ISSUER_DOMAIN}/`)) {
    return undefined
  }
  if (typeof claims.exp !== 'number' || claims.exp * 1000 <= Date.now()) return undefined
  return claims
}
