/**
 * The site pages' calls to the AI tools' sign-in (mcp/oauth/): same-origin, with the reader's
 * sign-in cookies, and CONSENT_HEADER on every change. A 401 means the reader is not signed in.
 */
import { CONNECTIONS_PATH, CONSENT_HEADER, INTERACTION_PATH } from './oauthPaths'

export interface ConsentRequest {
  client: string
  clientId?: string
  redirectHost?: string
  reader: string
}

export interface Connection {
  grantId: string
  client: string
  clientId: string
  iat?: number
}

export class NotSignedInError extends Error {
  constructor() {
    super('not signed in')
    this.name = 'NotSignedInError'
  }
}

async function call<T>(url: string, init: RequestInit = {}): Promise<T> {
  const response = await fetch(url, { credentials: 'same-origin', cache: 'no-store', ...init })
  if (response.status === 401) throw new NotSignedInError()
  const body = (await response.json().catch(() => ({}))) as T & { message?: string }
  if (!response.ok) throw new Error(body.message ?? `the sign-in service answered ${response.status}`)
  return body
}

const change = (body: unknown): RequestInit => ({ method: 'POST', headers: { 'content-type': 'application/json', [CONSENT_HEADER]: '1' }, body: JSON.stringify(body) })

export const consentRequest = (uid: string) => call<ConsentRequest>(`${INTERACTION_PATH}${encodeURIComponent(uid)}/details`)

/** The reader's decision; resolves to where the browser goes next (the tool's loopback or hosted page). */
export async function decide(uid: string, decision: 'allow' | 'deny'): Promise<string> {
  return (await call<{ redirectTo: string }>(`${INTERACTION_PATH}${encodeURIComponent(uid)}/decision`, change({ decision }))).redirectTo
}

export const connections = () => call<{ reader: string; connections: Connection[] }>(CONNECTIONS_PATH)

/** Revokes one connection, or every one when `grantId` is left out. */
export const revokeConnections = (grantId?: string) => call<{ revoked: number }>(CONNECTIONS_PATH, change(grantId === undefined ? {} : { grantId }))
