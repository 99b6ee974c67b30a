/**
 * The AI tools' sign-in (authorizationServer.ts) in the Lambda function beside the MCP server
 * (mcp/lambda.ts imports this module only when a request needs it, so the library and the AWS
 * clients load on the first sign-in or the first site-issued token, never for a pasted ID token).
 *
 * One authorization server per origin readers reach the site by (its issuer is `<origin>/oauth`,
 * and its tokens are for `<origin>/mcp`), made once per warm instance; they share the store and
 * the keys. On AWS the parts are the deployment's:
 *
 *   DOCS_OAUTH_TABLE        the DynamoDB table of grants, codes, tokens and clients (tableSchema.ts)
 *   DOCS_OAUTH_KEYS_SECRET  the Secrets Manager secret the keys derive from (keysSecret.ts)
 *
 * and the user pool of the baked auth settings, asked about the reader at every refresh.
 */
import { DynamoDBClient } from '@aws-sdk/client-dynamodb'
import type { AccessLogSink } from '../../edge/accessLog'
import type { AccessUser, AiToolsConfig } from '../../lib/access/types'
import { sessionClientIds, type AuthSettings } from '../../lib/auth/authSettings'
import { MAX_SITE_URLS, type FunctionUrlEvent, type FunctionUrlResult } from '../functionUrl'
import { handleWithNode } from '../nodeRequestAdapter'
import { aiToolsSettings } from './aiToolsSettings'
import { createAuthorizationServer, type AuthorizationServer } from './authorizationServer'
import { keysFromSecret, type AuthorizationKeys } from './keysSecret'
import { OAUTH_KEYS_SECRET_ENV, OAUTH_TABLE_ENV } from './lambdaSignInEnv'
import { cognitoReaderCheck, type CheckReader } from './readerCheck'
import { readRefreshToken } from '../../edge/readIdToken'
import { createDynamoOAuthStore } from './store/dynamoAdapter'
import type { OAuthStore } from './store/oauthStore'


/** What a test may give instead of the table, the secret and the user pool. */
export interface SignInParts {
  store?: OAuthStore
  keys?: AuthorizationKeys
  checkReader?: CheckReader
  /** Fetches Client ID Metadata Documents (the library's guarded fetch when left out). */
  fetch?: typeof fetch
}

export interface LambdaSignInOptions {
  aiTools: AiToolsConfig | undefined
  auth: AuthSettings
  groupsClaim: string | null
  /** The reader of the site's sign-in cookies, as the edge verifies them; null when none. */
  readerOfCookies: (cookieHeaders: readonly string[]) => Promise<AccessUser>
  log?: AccessLogSink
  parts?: SignInParts
  env?: NodeJS.ProcessEnv
}

export interface LambdaSignIn {
  /** The authorization server for readers who reach the site at `siteUrl`. */
  serverFor(siteUrl: string): Promise<AuthorizationServer>
  handle(event: FunctionUrlEvent, siteUrl: string): Promise<FunctionUrlResult>
}

function required(value: string | undefined, name: string, what: string): string {
  if (!value?.trim()) throw new Error(`${name} is not set: the CDK stack names ${what} there`)
  return value.trim()
}

export function createLambdaSignIn(options: LambdaSignInOptions): LambdaSignIn {
  const env = options.env ?? process.env
  const parts = options.parts ?? {}
  const settings = aiToolsSettings(options.aiTools)
  const store = parts.store ?? createDynamoOAuthStore({ client: new DynamoDBClient({}), tableName: required(env[OAUTH_TABLE_ENV], OAUTH_TABLE_ENV, 'the sign-in table') })
  const checkReader = parts.checkReader ?? cognitoReaderCheck(options.auth, options.groupsClaim)
  // The reader's user-pool session, from the cookies of the app client they signed in through (the
  // web client, or with a provider the federated client): the pool renews it with that client.
  const poolSessionOf = (cookieHeaders: readonly string[], username: string) => readRefreshToken(cookieHeaders, sessionClientIds(options.auth), username)
  // Read once per instance; a failed read is tried again by the next request.
  let keys: Promise<AuthorizationKeys> | null = null
  const keysOnce = () =>
    (keys ??= (parts.keys ? Promise.resolve(parts.keys) : keysFromSecret(required(env[OAUTH_KEYS_SECRET_ENV], OAUTH_KEYS_SECRET_ENV, 'the keys secret'), env)).catch((error: unknown) => {
      keys = null
      throw error
    }))

  const servers = new Map<string, Promise<AuthorizationServer>>()
  const serverFor = (siteUrl: string): Promise<AuthorizationServer> => {
    let server = servers.get(siteUrl)
    if (!server) {
      if (servers.size >= MAX_SITE_URLS) return Promise.reject(new Error(`more than ${MAX_SITE_URLS} site origins`))
      server = keysOnce().then((given) =>
        createAuthorizationServer({ siteUrl, settings, store, keys: given, readerOfCookies: options.readerOfCookies, poolSessionOf, checkReader, log: options.log, behindProxy: true, ...(parts.fetch ? { fetch: parts.fetch } : {}) }),
      )
      server.catch(() => servers.delete(siteUrl))
      servers.set(siteUrl, server)
    }
    return server
  }

  return {
    serverFor,
    async handle(event, siteUrl) {
      const server = await serverFor(siteUrl)
      return handleWithNode(event, new URL(siteUrl).host, (request, response) => server.handle(request, response))
    },
  }
}
