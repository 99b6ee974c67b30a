/** Where the site's sign-in goes: the embedded local Cognito, or a real user pool. */
export interface AuthSettings {
  mode: 'local' | 'production'
  region: string
  userPoolId: string
  userPoolClientId: string
  /** Set only in local mode: the cognito-local endpoint. */
  endpoint?: string
  /** A federated identity provider the sign-in page offers beside the username form. */
  federation?: Federation
}

export interface Federation {
  /** The provider's name in the user pool ("Sign in with <provider>"). */
  provider: string
  /** The pool's hosted domain, where the provider's sign-in starts and its tokens are fetched. */
  domain: string
  /**
   * The federated client (infra/lib/auth-stack.ts, output FederatedClientId): the app client a
   * provider's sign-in goes through, and so the one a federated reader's session belongs to. It is
   * not the username form's client, because it alone may write the provider's mapped groups.
   */
  clientId: string
}

/**
 * How long ID and access tokens live, in the user pool (infra/) and the local Cognito alike. A
 * disabled user or a revoked session loses access within this window; the refresh token (30 days)
 * keeps a reader signed in across it.
 */
export const TOKEN_MINUTES = 15

/** The URL of a local Cognito listening at `host` and `port` (an IPv6 host in brackets). */
export const localCognitoEndpoint = (host: string, port: number) => `http://${host.includes(':') ? `[${host}]` : host}:${port}`

const LOCAL_HOST = '127.0.0.1'
const LOCAL_PORT = 9229

/** The fixed identities of the embedded local Cognito (scripts/cognito seeds them). */
export const LOCAL_COGNITO = {
  region: 'eu-west-2',
  userPoolId: 'eu-west-2_LocalDocs',
  userPoolClientId: 'localdocsweb000000000000000',
  host: LOCAL_HOST,
  port: LOCAL_PORT,
  endpoint: localCognitoEndpoint(LOCAL_HOST, LOCAL_PORT),
} as const

export class AuthConfigError extends Error {
  constructor(message: string) {
    super(`auth configuration: ${message}`)
    this.name = 'AuthConfigError'
  }
}

export interface AuthEnv {
  DOCS_AUTH_MODE?: string
  DOCS_COGNITO_REGION?: string
  DOCS_COGNITO_USER_POOL_ID?: string
  DOCS_COGNITO_CLIENT_ID?: string
  DOCS_COGNITO_ENDPOINT?: string
  DOCS_FEDERATED_PROVIDER?: string
  DOCS_COGNITO_DOMAIN?: string
  DOCS_FEDERATED_CLIENT_ID?: string
}

/** An AWS region's name (eu-west-2, us-gov-west-1). */
const AWS_REGION = /^[a-z]{2}(-[a-z]+)+-\d$/

/** A Cognito app client id's shape. */
const CLIENT_ID = /^[a-z0-9]{20,128}$/

/**
 * DOCS_FEDERATED_PROVIDER, DOCS_COGNITO_DOMAIN (the CDK output HostedDomain) and
 * DOCS_FEDERATED_CLIENT_ID (the output FederatedClientId) go together.
 */
function readFederation(env: AuthEnv): Federation | undefined {
  const provider = env.DOCS_FEDERATED_PROVIDER?.trim()
  const domain = env.DOCS_COGNITO_DOMAIN?.trim()
  const clientId = env.DOCS_FEDERATED_CLIENT_ID?.trim()
  if (!provider && !domain && !clientId) return undefined
  if (!provider || !domain || !clientId) {
    throw new AuthConfigError(
      'DOCS_FEDERATED_PROVIDER, DOCS_COGNITO_DOMAIN and DOCS_FEDERATED_CLIENT_ID must be set together (the provider name, the pool\'s hosted domain and the federated client id)'
    )
  }
  if (!CLIENT_ID.test(clientId)) {
    throw new AuthConfigError(`DOCS_FEDERATED_CLIENT_ID "${clientId}" is not a Cognito app client id`)
  }
  if (!/^[a-z0-9-]+\.auth\.[a-z0-9-]+\.amazoncognito\.com$/.test(domain) && !/^[a-z0-9.-]+\.[a-z]{2,}$/.test(domain)) {
    throw new AuthConfigError(`DOCS_COGNITO_DOMAIN "${domain}" is not a host name like company-docs.auth.eu-west-2.amazoncognito.com`)
  }
  return { provider, domain, clientId }
}

/**
 * The host names that are this machine without asking DNS, as Node resolves them (a browser takes
 * `*.localhost` to be this machine too; Node asks DNS for it, and a search domain may answer).
 */
const LOOPBACK_HOST = /^(localhost|127\.\d+\.\d+\.\d+|\[::1\]|0\.0\.0\.0)$/i

/**
 * Whether `url` names this machine: where a site built for the local Cognito may go (a test's
 * bucket). Its host as a URL parser reads it, so `http://localhost:x@elsewhere` is elsewhere.
 */
export function isLoopbackUrl(url: string): boolean {
  try {
    return LOOPBACK_HOST.test(new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(url) ? url : `http://${url}`).hostname)
  } catch {
    return false
  }
}

/**
 * Reads the auth settings from the environment. Local mode is the default so that a fresh
 * clone works with no AWS account; production mode refuses anything that points at the
 * local emulator, whose signing key is public.
 */
export function readAuthSettings(env: AuthEnv): AuthSettings {
  const mode = env.DOCS_AUTH_MODE || 'local'
  const federation = readFederation(env)
  if (mode === 'local') {
    return {
      mode,
      region: LOCAL_COGNITO.region,
      userPoolId: LOCAL_COGNITO.userPoolId,
      userPoolClientId: LOCAL_COGNITO.userPoolClientId,
      endpoint: env.DOCS_COGNITO_ENDPOINT || LOCAL_COGNITO.endpoint,
      ...(federation ? { federation } : {}),
    }
  }
  if (mode !== 'production') {
    throw new AuthConfigError(`DOCS_AUTH_MODE is "${mode}"; use "local" or "production"`)
  }
  const region = env.DOCS_COGNITO_REGION || 'eu-west-2'
  const userPoolId = env.DOCS_COGNITO_USER_POOL_ID ?? ''
  const userPoolClientId = env.DOCS_COGNITO_CLIENT_ID ?? ''
  if (env.DOCS_COGNITO_ENDPOINT) {
    throw new AuthConfigError(
      `a production build must use the AWS Cognito endpoint, but DOCS_COGNITO_ENDPOINT is "${env.DOCS_COGNITO_ENDPOINT}"` +
        (isLoopbackUrl(env.DOCS_COGNITO_ENDPOINT) ? ' (the local emulator)' : '')
    )
  }
  if (!AWS_REGION.test(region)) throw new AuthConfigError(`DOCS_COGNITO_REGION "${region}" is not an AWS region (like eu-west-2)`)
  if (!userPoolId.startsWith(`${region}_`) || !/^[A-Za-z0-9]+$/.test(userPoolId.slice(region.length + 1))) {
    throw new AuthConfigError(`DOCS_COGNITO_USER_POOL_ID "${userPoolId}" is not a user pool id in ${region} (like ${region}_AbC123xyz)`)
  }
  if (userPoolId === LOCAL_COGNITO.userPoolId || userPoolClientId === LOCAL_COGNITO.userPoolClientId) {
    throw new AuthConfigError('a production build points at the local emulator\'s user pool; set the real pool and client ids')
  }
  if (!CLIENT_ID.test(userPoolClientId)) {
    throw new AuthConfigError(`DOCS_COGNITO_CLIENT_ID "${userPoolClientId}" is not a Cognito app client id`)
  }
  if (federation?.clientId === userPoolClientId) {
    throw new AuthConfigError('DOCS_FEDERATED_CLIENT_ID must be the federated client (output FederatedClientId), not the web client')
  }
  return { mode, region, userPoolId, userPoolClientId, ...(federation ? { federation } : {}) }
}

/**
 * The app clients whose sessions the site accepts: the web client (username form), then, with a
 * provider, the federated client. The edge, the AI tools' sign-in and the browser's session reader
 * look for Amplify's cookies of each, in this order.
 */
export function sessionClientIds(settings: Pick<AuthSettings, 'userPoolClientId' | 'federation'>): string[] {
  return settings.federation ? [settings.userPoolClientId, settings.federation.clientId] : [settings.userPoolClientId]
}

/** The issuer the tokens of a pool carry; cognito-local is configured to issue the same. */
export function issuerFor(settings: Pick<AuthSettings, 'region' | 'userPoolId'>): string {
  return `https://cognito-idp.${settings.region}.amazonaws.com/${settings.userPoolId}`
}
