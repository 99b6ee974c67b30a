/**
 * The paths of the AI tools' sign-in that the site's pages call (the consent page, the connected
 * tools page, sign-out), shared with the authorization server (mcp/oauth/authorizationServer.ts).
 */
export const ISSUER_PATH = '/oauth'
/** RFC 8414's place for the metadata of an issuer with a path. */
export const AUTHORIZATION_SERVER_METADATA_PATH = `/.well-known/oauth-authorization-server${ISSUER_PATH}`
/**
 * Where AI tools register (Dynamic Client Registration): oidc-provider's default `/reg` under the
 * issuer. The local server and the WAF on AWS limit registrations per address here.
 */
export const REGISTRATION_PATH = `${ISSUER_PATH}/reg`
/**
 * The authorization endpoint (oidc-provider's default `/auth` under the issuer): a tool's sign-in
 * starts there, in its reader's browser, which the site's sign-in page sends back there.
 */
export const AUTHORIZATION_PATH = `${ISSUER_PATH}/auth`
/** Where a tool's sign-in waits for its reader; the consent page's API lives under it. */
export const INTERACTION_PATH = `${ISSUER_PATH}/interaction/`
/** The reader's own AI-tool connections: listed, and revoked one by one or all at once. */
export const CONNECTIONS_PATH = `${ISSUER_PATH}/connections`
/** The static page where a reader allows or denies a tool (pages/authorize.tsx). */
export const CONSENT_PAGE = '/authorize'
/** The static page where a reader sees and revokes their tools (pages/connected-tools.tsx). */
export const CONNECTED_TOOLS_PAGE = '/connected-tools'
/** The header the site's pages send with each change, which no cross-site form can send. */
export const CONSENT_HEADER = 'x-docs-consent'
/** The one scope an AI tool's token carries: reading the docs its reader may read. */
export const DOCS_SCOPE = 'docs:read'

/** Whether the AI tools' sign-in (the authorization server) answers `pathname`. */
export const isSignInPath = (pathname: string) => pathname === AUTHORIZATION_SERVER_METADATA_PATH || pathname === ISSUER_PATH || pathname.startsWith(`${ISSUER_PATH}/`)
