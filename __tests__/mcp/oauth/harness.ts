/**
 * Starts the authorization server harness (fixtures/authorizationServerHarness.ts) for a test file,
 * and walks an authorization as a tool and its reader's browser do, by the same requests.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import crypto from 'node:crypto'
import path from 'node:path'
import { AUTHORIZATION_SERVER_METADATA_PATH, CONSENT_HEADER, INTERACTION_PATH } from '../../../lib/aiTools/oauthPaths'
import type { HarnessSettings } from './fixtures/authorizationServerHarness'

const root = path.resolve(__dirname, '../../..')
export const READER_COOKIE = 'harness-reader'

export interface Harness {
  url: string
  metadata: Record<string, unknown> & { registration_endpoint: string; authorization_endpoint: string; token_endpoint: string }
  /** Moves the store's clock on. */
  advance(seconds: number): Promise<void>
  stop(): Promise<void>
}

export async function startHarness(settings: HarnessSettings = {}): Promise<Harness> {
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', path.join(__dirname, 'fixtures/authorizationServerHarness.ts')], {
    cwd: root,
    env: { ...process.env, HARNESS: JSON.stringify(settings) },
    stdio: ['pipe', 'pipe', 'pipe'],
  })
  let errors = ''
  child.stderr!.on('data', (chunk) => (errors += chunk))
  const url = await new Promise<string>((resolve, reject) => {
    let out = ''
    child.stdout!.on('data', (chunk) => {
      out += chunk
      const line = out.split('\n').find((candidate) => candidate.startsWith('{"url"'))
      if (line) resolve((JSON.parse(line) as { url: string }).url)
    })
    child.on('exit', (code) => reject(new Error(`the harness exited (${code}): ${errors}`)))
  })
  const metadata = (await (await fetch(url + AUTHORIZATION_SERVER_METADATA_PATH)).json()) as Harness['metadata']
  return {
    url,
    metadata,
    async advance(seconds) {
      const response = await fetch(`${url}/__harness/advance?seconds=${seconds}`, { method: 'POST' })
      if (!response.ok) throw new Error(`advance answered ${response.status}`)
    },
    async stop() {
      if (child.exitCode !== null) return
      const exited = new Promise((resolve) => child.once('exit', resolve))
      child.stdin!.end()
      await exited
    },
  }
}

export const LOOPBACK = 'http://127.0.0.1:33418/callback'

/** A public client as Claude Code, VS Code and the MCP SDK register one; `extra` adds or replaces fields. */
export const toolMetadata = (extra: Record<string, unknown> = {}) => ({
  client_name: 'Test tool',
  redirect_uris: [LOOPBACK],
  grant_types: ['authorization_code', 'refresh_token'],
  response_types: ['code'],
  token_endpoint_auth_method: 'none',
  ...extra,
})

export async function register(harness: Harness, metadata: Record<string, unknown>): Promise<{ status: number; body: Record<string, string>; headers: Headers }> {
  const response = await fetch(harness.metadata.registration_endpoint, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(metadata) })
  return { status: response.status, body: (await response.json()) as Record<string, string>, headers: response.headers }
}

export async function registeredClient(harness: Harness, extra: Record<string, unknown> = {}): Promise<string> {
  const { status, body } = await register(harness, toolMetadata(extra))
  if (status !== 201) throw new Error(`registration answered ${status}: ${JSON.stringify(body)}`)
  return body.client_id
}

export const pkce = () => {
  const verifier = crypto.randomBytes(32).toString('base64url')
  return { verifier, challenge: crypto.createHash('sha256').update(verifier).digest('base64url') }
}

const cookiesOf = (response: Response) => response.headers.getSetCookie().map((cookie) => cookie.split(';', 1)[0])

export interface Authorization {
  /** Whether the reader was shown the consent page (the request reached an interaction). */
  consentShown: boolean
  /** What the tool's redirect URI received: code, or error and error_description. */
  callback: URLSearchParams
  verifier: string
}

/**
 * A tool's authorization request with `params` (scope, resource, …), then its reader's Allow (or
 * Deny, or no answer) on the consent page with the reader's sign-in, to the tool's redirect.
 */
export async function authorize(
  harness: Harness,
  clientId: string,
  params: Record<string, string | undefined>,
  { reader = 'leads1', decision = 'allow' as 'allow' | 'deny' | 'none', redirectUri = LOOPBACK } = {}
): Promise<Authorization> {
  const { verifier, challenge } = pkce()
  const url = new URL(harness.metadata.authorization_endpoint)
  const all: Record<string, string | undefined> = { response_type: 'code', client_id: clientId, redirect_uri: redirectUri, code_challenge: challenge, code_challenge_method: 'S256', state: 'st', ...params }
  for (const [name, value] of Object.entries(all)) if (value !== undefined) url.searchParams.set(name, value)
  // The reader's browser holds their site sign-in throughout: the server sends a visitor without one to sign in first.
  const jar: string[] = [`${READER_COOKIE}=${reader}`]
  let next = url.href
  let consentShown = false
  for (let hops = 0; hops < 8; hops++) {
    if (next.startsWith(redirectUri)) {
      // An error for a response type the server refuses comes in the fragment, as that response type's mode says.
      const arrived = new URL(next)
      const callback = new URLSearchParams(arrived.search)
      for (const [name, value] of new URLSearchParams(arrived.hash.slice(1))) callback.set(name, value)
      return { consentShown, callback, verifier }
    }
    if (new URL(next).pathname.startsWith(INTERACTION_PATH) && !consentShown) {
      consentShown = true
      // The reader leaves the consent page unanswered.
      if (decision === 'none') return { consentShown, callback: new URLSearchParams(), verifier }
      const decided = await fetch(`${next}/decision`, {
        method: 'POST',
        headers: { cookie: jar.join('; '), 'content-type': 'application/json', [CONSENT_HEADER]: '1' },
        body: JSON.stringify({ decision }),
      })
      if (!decided.ok) throw new Error(`the decision answered ${decided.status}: ${await decided.text()}`)
      jar.push(...cookiesOf(decided))
      next = ((await decided.json()) as { redirectTo: string }).redirectTo
      continue
    }
    const response = await fetch(next, { redirect: 'manual', headers: { cookie: jar.join('; ') } })
    jar.push(...cookiesOf(response))
    const location = response.headers.get('location')
    if (!location) throw new Error(`${next} answered ${response.status} with no redirect: ${(await response.text()).slice(0, 300)}`)
    next = new URL(location, next).href
  }
  throw new Error('the authorization never reached the redirect URI')
}

export async function token(harness: Harness, body: Record<string, string>): Promise<{ status: number; body: Record<string, string> }> {
  const response = await fetch(harness.metadata.token_endpoint, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(body) })
  return { status: response.status, body: (await response.json()) as Record<string, string> }
}
