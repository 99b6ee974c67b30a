/**
 * The Lambda entry of the AI tools' server, behind a function URL that only the site's CloudFront
 * distribution may call (infra/lib/mcp-origin.ts). pipeline/steps/buildMcp.ts bakes in the same
 * configuration as the edge authorizer's (auth settings, the pool's keys, asset routes, audiences,
 * list overrides), so both decide with the same rules and lists. What only the deployment knows
 * comes from the environment, which the CDK stack sets:
 *
 *   DOCS_SITE_BUCKET  the site's bucket, read with s3:GetObject
 *   DOCS_SITE_URL     the site's origin when it has a custom domain (https://docs.example.com);
 *                     unset, full URLs use the host the reader reached CloudFront by, which
 *                     CloudFront forwards (mcp/functionUrl.ts FORWARDED_HOST)
 *
 * The same function answers the AI tools' sign-in (/oauth, /oauth/* and its RFC 8414 metadata):
 * mcp/oauth/lambdaSignIn.ts, with its table and keys secret from the environment too. /mcp takes a
 * pasted Cognito ID token (a JWT) or an access token the sign-in issued (opaque).
 *
 * The access log goes to CloudWatch Logs with console.log, one `accessLogLine` a line, as the
 * edge's does.
 */
import accessConfig from '../access.config'
import { logToConsole, type AccessLogSink } from '../edge/accessLog'
import type { BakedEdgeConfig } from '../edge/bakedConfig'
import { readerOfCookies } from '../edge/readIdToken'
import { createIdTokenClaimsVerifier, readerOnly, type VerifyIdTokenClaims } from '../edge/tokenVerifier'
import { compileAccess } from '../lib/access/compileAccess'
import { sessionClientIds } from '../lib/auth/authSettings'
import { ISSUER_PATH, isSignInPath } from '../lib/aiTools/oauthPaths'
import { bearerReader } from './bearerTokens'
import { createMcpFunction, plainResult, viewerSiteUrl, type FunctionUrlEvent, type FunctionUrlResult, type McpFunction } from './functionUrl'
import type { LambdaSignIn, SignInParts } from './oauth/lambdaSignIn'
import { s3SiteFiles } from './s3SiteFiles'
import { deployedSite, type DeployedSite } from './deployedSite'
import { searchIndexes } from './searchDocs'
import { localSiteFiles, type SiteFiles } from './siteFiles'
// Resolved by esbuild to the JSON that buildMcp.ts writes (the edge's configuration; the script hashes go unused here).
import baked from 'edge-baked-config'

/** What the server reads of the baked configuration. */
export type BakedMcpConfig = Omit<BakedEdgeConfig, 'scriptHashes'>

export const SITE_BUCKET_ENV = 'DOCS_SITE_BUCKET'
export const SITE_URL_ENV = 'DOCS_SITE_URL'
const SIGN_IN_UNAVAILABLE = 'The sign-in service is unavailable.'
const DOCS_UNAVAILABLE = 'The docs are unavailable; try again shortly.'

const config = baked as BakedMcpConfig
const access = compileAccess(accessConfig, config.accessEnv)

/** What a test or a benchmark may give instead of the bucket, the pool and CloudWatch Logs. */
export interface McpFunctionDeps {
  files?: SiteFiles
  /** Verifies every bearer token (pasted or site-issued) in place of the pool and the sign-in. */
  verifyReader?: VerifyIdTokenClaims
  siteUrl?: string
  log?: AccessLogSink
  /** The sign-in's store, keys and reader check in place of the table, the secret and the pool. */
  signIn?: SignInParts
}



function siteUrlFromEnv(): string | undefined {
  const value = process.env[SITE_URL_ENV]?.trim()
  if (!value) return undefined
  const url = new URL(value)
  if (url.protocol !== 'https:' || url.origin !== value.replace(/\/$/, '')) throw new Error(`${SITE_URL_ENV} "${value}" is not an https origin like https://docs.example.com`)
  return url.origin
}

/** The server over the bundle's configuration; each dependency not given is the deployment's. */
export function createHandler(deps: McpFunctionDeps = {}): McpFunction {
  let site: DeployedSite
  if (deps.files) {
    site = { files: deps.files, search: searchIndexes(deps.files), current: () => Promise.resolve() }
  } else {
    const bucket = process.env[SITE_BUCKET_ENV]
    if (!bucket) throw new Error(`${SITE_BUCKET_ENV} is not set: the CDK stack names the site's bucket there`)
    // Each object is kept once read, up to a bound in bytes (MEMO_MAX_BYTES, sized to the
    // function's memory), and no miss is kept, for as long as the bucket holds the same deploy: a
    // deploy of pages alone keeps this function, so its instances ask (./deployedSite.ts).
    site = deployedSite(s3SiteFiles(bucket))
  }
  const { files } = site
  const siteUrl = deps.siteUrl ?? siteUrlFromEnv()
  const log = deps.log ?? logToConsole
  const verifierSettings = {
    userPoolId: config.auth.userPoolId,
    // Either app client's ID tokens (lib/auth/authSettings.ts sessionClientIds).
    clientId: sessionClientIds(config.auth),
    jwks: config.jwks,
    fetchUnknownKeys: config.auth.mode === 'production',
    groupsClaim: access.groupsClaim,
  }
  const idTokens = createIdTokenClaimsVerifier(verifierSettings)
  const cookieReader = readerOnly(idTokens)

  // The sign-in, made on the first request that needs it (its library and clients load then).
  let signIn: Promise<LambdaSignIn> | null = null
  const signInOnce = () =>
    (signIn ??= import('./oauth/lambdaSignIn').then(({ createLambdaSignIn }) =>
      createLambdaSignIn({
        aiTools: accessConfig.aiTools,
        auth: config.auth,
        groupsClaim: access.groupsClaim,
        readerOfCookies: (cookieHeaders) => readerOfCookies(cookieHeaders, sessionClientIds(config.auth), cookieReader),
        log,
        parts: deps.signIn,
      }),
    ))

  const mcp = createMcpFunction({
    site: { access, assetRoutes: config.assetRoutes, audiences: config.audiences, files, search: site.search },
    siteUrl,
    verifyReader: deps.verifyReader ?? idTokens,
    authorizationServers: [],
    // The resource metadata names the site's own sign-in, at the origin the reader used.
    readerAuthFor: (origin) => ({
      authorizationServers: [new URL(ISSUER_PATH, origin).href],
      verifyReader: deps.verifyReader ?? bearerReader(idTokens, async (token) => (await (await signInOnce()).serverFor(origin)).verifyAccessToken(token)),
    }),
    log,
  })

  return {
    async handle(event) {
      if (!isSignInPath(event.rawPath)) {
        try {
          await site.current()
        } catch (error) {
          // Unknown which deploy the bucket holds: nothing kept is answered from, until it is known.
          console.error(`mcp: ${error instanceof Error ? error.message : String(error)}`)
          return plainResult(503, DOCS_UNAVAILABLE)
        }
        return mcp.handle(event)
      }
      const origin = siteUrl ?? viewerSiteUrl(event)
      if (origin === null) return plainResult(400, 'Bad Request')
      let started: LambdaSignIn
      try {
        started = await signInOnce()
      } catch (error) {
        // Only a sign-in that could not start is made again on the next request.
        signIn = null
        console.error(`oauth: the sign-in could not start: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`)
        return plainResult(503, SIGN_IN_UNAVAILABLE)
      }
      try {
        return await started.handle(event, origin)
      } catch (error) {
        console.error(`oauth: request failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`)
        return plainResult(503, SIGN_IN_UNAVAILABLE)
      }
    },
    close: () => mcp.close(),
  }
}

// Made during the Lambda init phase when deployed; on first use anywhere else (tests require the
// bundle without the deployment's environment).
let deployed: McpFunction | null = process.env[SITE_BUCKET_ENV] ? createHandler() : null

export const handler = async (event: FunctionUrlEvent): Promise<FunctionUrlResult> => (deployed ??= createHandler()).handle(event)

/** out/ on this machine, for tests and the cold-start benchmark that run the bundle over a local build. */
export { localSiteFiles }
