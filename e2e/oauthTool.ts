/**
 * An AI tool that signs in through the site's own sign-in (mcp/oauth/), as the MCP SDK's client
 * does it: discovery from /mcp's 401, registration (Dynamic Client Registration, or a Client ID
 * Metadata Document), authorization code with PKCE to a loopback port, then tools with its token.
 * The reader's part (sign-in and consent) happens in Chromium (`inBrowser`) or, for the leak
 * audit's many roles, by the same requests a browser makes (`withCookies`).
 */
import { spawn } from 'node:child_process'
import http from 'node:http'
import path from 'node:path'
import type { AddressInfo } from 'node:net'
import type { Page } from 'playwright-core'
import { Client, StreamableHTTPClientTransport, UnauthorizedError, type OAuthClientProvider } from '@modelcontextprotocol/client'
import { CONSENT_HEADER } from '../lib/aiTools/oauthPaths'
import { sessionCookieHeader, signInSession } from '../scripts/audit/cognitoSession'
import { PASSWORD, siteEnv } from './siteEnv'
import { mcpReaderOf, type McpReader } from './mcpSession'

/** A loopback port that takes one authorization response, as a tool on the reader's computer does. */
export async function loopbackReceiver(): Promise<{ redirectUri: string; received: Promise<URLSearchParams>; close(): void }> {
  let deliver!: (params: URLSearchParams) => void
  const received = new Promise<URLSearchParams>((resolve) => (deliver = resolve))
  const server = http.createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://127.0.0.1')
    response.writeHead(200, { 'content-type': 'text/plain' })
    response.end('You can close this window.')
    if (url.pathname === '/callback') deliver(url.searchParams)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return { redirectUri: `http://127.0.0.1:${(server.address() as AddressInfo).port}/callback`, received, close: () => server.close() }
}

/** The tool's own OAuth state, kept in memory as a tool keeps it on disk. */
export class ToolAuth implements OAuthClientProvider {
  authorizationUrl: URL | null = null
  private info: Awaited<ReturnType<OAuthClientProvider['clientInformation']>>
  private stored: Awaited<ReturnType<OAuthClientProvider['tokens']>>
  private verifier = ''
  private discovery: unknown
  constructor(readonly redirectUri: string, readonly clientMetadataUrl?: string, readonly name = 'E2E tool') {}
  get redirectUrl() {
    return this.redirectUri
  }
  get clientMetadata() {
    return { client_name: this.name, redirect_uris: [this.redirectUri], grant_types: ['authorization_code', 'refresh_token'], response_types: ['code'], token_endpoint_auth_method: 'none' }
  }
  clientInformation() {
    return this.info
  }
  saveClientInformation(info: NonNullable<typeof this.info>) {
    this.info = info
  }
  tokens() {
    return this.stored
  }
  saveTokens(tokens: NonNullable<typeof this.stored>) {
    this.stored = tokens
  }
  redirectToAuthorization(url: URL) {
    this.authorizationUrl = url
  }
  saveCodeVerifier(verifier: string) {
    this.verifier = verifier
  }
  codeVerifier() {
    return this.verifier
  }
  saveDiscoveryState(state: unknown) {
    this.discovery = state
  }
  discoveryState() {
    return this.discovery as never
  }
}

/** How the reader signs in and answers the consent page, given the authorization URL; resolves once they have answered. */
export type ReaderConsent = (authorizationUrl: URL) => Promise<void>

/** The reader in Chromium: the site's sign-in form, then the consent page's button. */
export const inBrowser = (page: Page, username: string, button: 'Allow' | 'Deny' = 'Allow'): ReaderConsent => async (authorizationUrl) => {
  await page.goto(authorizationUrl.href)
  // A reader who is not signed in is sent to the sign-in form first, and back.
  const consent = page.getByText('wants to sign in to the docs as you')
  const signIn = page.getByLabel('Username')
  await consent.or(signIn).first().waitFor()
  if (await signIn.isVisible()) {
    await page.waitForURL(/\/login\?next=/)
    await signIn.fill(username)
    await page.getByLabel('Password', { exact: true }).fill(PASSWORD)
    await page.getByRole('button', { name: 'Sign in' }).click()
  }
  await page.waitForURL(/\/authorize\?uid=/)
  await consent.waitFor()
  await page.getByRole('button', { name: button }).click()
  // Allowed or denied, the browser ends on the tool's loopback page; wait for it, so the page's next
  // navigation does not cut this one short.
  await page.waitForURL((url) => url.hostname === '127.0.0.1' && url.pathname === '/callback')
}

/** Cookies a response set, as a Cookie header (the few this flow needs; no attributes are honoured). */
const setCookies = (response: Response) => response.headers.getSetCookie().map((cookie) => cookie.split(';', 1)[0])

/** Each response the site gave the reader's sign-in of a tool, as received (a copy the caller may read). */
export type SeenResponse = (url: string, response: Response) => void

/**
 * The reader with no browser: the same requests Chromium makes (follow the authorization URL to
 * the interaction, post the decision with the reader's sign-in cookies and the consent header,
 * follow the result to the loopback). The browser test proves the page makes exactly these.
 */
export const withCookies = (username: string, decision: 'allow' | 'deny' = 'allow', siteCookies?: string, seen?: SeenResponse): ReaderConsent => async (authorizationUrl) => {
  const { cognitoUrl } = siteEnv()
  const get = async (url: string, init?: RequestInit) => {
    const response = await fetch(url, init)
    seen?.(url, response.clone())
    return response
  }
  // The whole sign-in, as the browser holds it (the consent keeps its session with the grant), unless the test gives other cookies.
  const site = siteCookies ?? sessionCookieHeader(username, await signInSession(cognitoUrl, username, PASSWORD))
  // The browser holds the site's sign-in throughout: the server sends a visitor without one to sign in first.
  const jar: string[] = [site]
  let next = authorizationUrl.href
  // To the interaction: the library answers with redirects and its interaction cookies.
  for (let hops = 0; hops < 5 && !new URL(next).pathname.includes('/interaction/'); hops++) {
    const response = await get(next, { redirect: 'manual', headers: { cookie: jar.join('; ') } })
    jar.push(...setCookies(response))
    const location = response.headers.get('location')
    if (!location) throw new Error(`the authorization request answered ${response.status}: ${(await response.text()).slice(0, 300)}`)
    next = new URL(location, next).href
  }
  const first = await get(next, { redirect: 'manual', headers: { cookie: jar.join('; ') } })
  jar.push(...setCookies(first))
  const decided = await get(`${next}/decision`, {
    method: 'POST',
    headers: { cookie: jar.join('; '), 'content-type': 'application/json', [CONSENT_HEADER]: '1' },
    body: JSON.stringify({ decision }),
  })
  if (!decided.ok) throw new Error(`the decision answered ${decided.status}: ${await decided.text()}`)
  jar.push(...setCookies(decided))
  next = ((await decided.json()) as { redirectTo: string }).redirectTo
  // Back through the library to the tool's loopback port.
  for (let hops = 0; hops < 5; hops++) {
    const url = new URL(next)
    if (url.hostname === '127.0.0.1' && url.pathname === '/callback') {
      await fetch(next)
      return
    }
    const response = await get(next, { redirect: 'manual', headers: { cookie: jar.join('; ') } })
    jar.push(...setCookies(response))
    const location = response.headers.get('location')
    if (!location) throw new Error(`resuming the authorization answered ${response.status}: ${(await response.text()).slice(0, 300)}`)
    next = new URL(location, next).href
  }
  throw new Error('the authorization never reached the loopback port')
}

export interface SignedInTool extends McpReader {
  auth: ToolAuth
  /** What the loopback port received (code, state, iss, or error). */
  callback: URLSearchParams
}

/**
 * A tool that starts with no token, meets /mcp's 401, signs in through `consent`, and connects.
 * With `clientMetadataUrl` it registers by a Client ID Metadata Document, else by DCR.
 */
export async function signToolIn(
  consent: ReaderConsent,
  options: { siteUrl?: string; clientMetadataUrl?: string; loopback?: Awaited<ReturnType<typeof loopbackReceiver>> } = {}
): Promise<SignedInTool> {
  const siteUrl = options.siteUrl ?? siteEnv().siteUrl
  // A tool registered by a metadata document has its redirect fixed in the document, so its port too.
  const loopback = options.loopback ?? (await loopbackReceiver())
  const auth = new ToolAuth(loopback.redirectUri, options.clientMetadataUrl)
  const mcpUrl = new URL('/mcp', siteUrl)
  try {
    const first = new Client({ name: 'e2e-tool', version: '1.0.0' })
    const transport = new StreamableHTTPClientTransport(mcpUrl, { authProvider: auth })
    await first.connect(transport).then(
      () => {
        throw new Error('/mcp answered a tool with no token')
      },
      (error: unknown) => {
        if (!(error instanceof UnauthorizedError)) throw error
      }
    )
    if (!auth.authorizationUrl) throw new Error('the client was not sent to sign in')
    await consent(auth.authorizationUrl)
    const callback = await loopback.received
    if (callback.get('error')) {
      const refused = () => Promise.reject(new Error(`sign-in refused: ${callback.get('error')}`))
      return { auth, callback, call: refused, describe: refused, close: async () => undefined }
    }
    await transport.finishAuth(callback)
    const client = new Client({ name: 'e2e-tool', version: '1.0.0' })
    await client.connect(new StreamableHTTPClientTransport(mcpUrl, { authProvider: auth }))
    return { auth, callback, ...mcpReaderOf(client) }
  } finally {
    if (!options.loopback) loopback.close()
  }
}

/**
 * A site server of the test's own over the audit build (e2e/fixtures/ownSiteServer.ts), in a child
 * process, sharing the shared server's local Cognito; `settings` are the fixture's (OWN_SERVER).
 */
export async function startOwnSiteServer(settings: Record<string, unknown>): Promise<{ url: string; stop(): Promise<void> }> {
  const { dir, cognitoUrl } = siteEnv()
  const server = spawn(process.execPath, ['--import', 'tsx', 'e2e/fixtures/ownSiteServer.ts'], {
    cwd: path.resolve(__dirname, '..'),
    env: { ...process.env, OWN_SERVER: JSON.stringify({ dir, cognitoUrl, accessTokenSeconds: 900, documents: {}, ...settings }) },
    stdio: ['pipe', 'pipe', 'inherit'],
  })
  const url = await new Promise<string>((resolve, reject) => {
    let out = ''
    server.stdout!.on('data', (chunk) => {
      out += chunk
      const line = out.split('\n').find((candidate) => candidate.startsWith('{"url"'))
      if (line) resolve((JSON.parse(line) as { url: string }).url)
    })
    server.on('exit', (code) => reject(new Error(`the own site server exited (${code})`)))
  })
  return {
    url,
    async stop() {
      if (server.exitCode !== null) return
      const exited = new Promise((resolve) => server.once('exit', resolve))
      server.stdin!.end()
      await exited
    },
  }
}
