/**
 * The record both stores keep for one oidc-provider item, and the rules about it that must not
 * differ between DynamoDB and the local Maps: the key, which payload fields are indexed, when an
 * item counts as expired, and how a Grant reads as a connected tool.
 */
import type { AdapterPayload, ConnectedTool } from './oauthStore'
import { OAuthStoreCorruptItemError } from './errors'

export interface StoredItem {
  /** `${model}:${id}` */
  pk: string
  /** The payload as JSON, so both stores hand back an equal copy, never the caller's object. */
  payload: string
  /** Epoch seconds; absent for items that never expire (e.g. clients registered dynamically). */
  expiresAt?: number
  /** Epoch seconds of consume(). */
  consumed?: number
  grantId?: string
  userCode?: string
  uid?: string
  accountId?: string
}

/** The payload fields that are indexed (tableSchema.ts has an index for each). */
export const INDEXED_FIELDS = ['grantId', 'userCode', 'uid', 'accountId'] as const
export type IndexedField = (typeof INDEXED_FIELDS)[number]

export const keyPrefix = (model: string) => `${model}:`
export const itemKey = (model: string, id: string) => `${keyPrefix(model)}${id}`

export const epochSeconds = (ms: number) => Math.floor(ms / 1000)

/**
 * Rounded up, so an item is never dropped before the moment oidc-provider asked for: the
 * provider checks the payload's own `exp` as well, and would see a token vanish early otherwise.
 */
export function expiresAtFor(expiresIn: number | undefined, nowMs: number): number | undefined {
  if (typeof expiresIn !== 'number' || !Number.isFinite(expiresIn)) return undefined
  return Math.ceil(nowMs / 1000 + expiresIn)
}

export function toStoredItem(model: string, id: string, payload: AdapterPayload, expiresIn: number | undefined, nowMs: number): StoredItem {
  const item: StoredItem = { pk: itemKey(model, id), payload: JSON.stringify(payload) }
  const expiresAt = expiresAtFor(expiresIn, nowMs)
  if (expiresAt !== undefined) item.expiresAt = expiresAt
  for (const field of INDEXED_FIELDS) {
    const value = payload[field]
    // DynamoDB refuses an empty string as an index key, and nothing looks one up.
    if (typeof value === 'string' && value !== '') item[field] = value
  }
  return item
}

/**
 * Whether the item is still alive. Expired items can linger (DynamoDB's TTL deletes within days,
 * not on time), so every read asks this instead of trusting that expired items are gone.
 */
export function isLive(item: StoredItem, nowMs: number): boolean {
  return item.expiresAt === undefined || nowMs < item.expiresAt * 1000
}

/** The payload as oidc-provider stored it, with `consumed` when consume() was called. */
export function payloadOf(item: StoredItem): AdapterPayload {
  let payload: unknown
  try {
    payload = JSON.parse(item.payload)
  } catch (error) {
    throw new OAuthStoreCorruptItemError(item.pk, error)
  }
  if (payload === null || typeof payload !== 'object' || Array.isArray(payload)) throw new OAuthStoreCorruptItemError(item.pk, 'not a JSON object')
  return item.consumed === undefined ? (payload as AdapterPayload) : { ...(payload as AdapterPayload), consumed: item.consumed }
}

/** A Grant item as the reader's "connected tools" list shows it. */
export function connectedTool(item: StoredItem): ConnectedTool {
  const payload = payloadOf(item)
  const openid = payload.openid as { scope?: unknown } | undefined
  return {
    grantId: typeof payload.jti === 'string' ? payload.jti : item.pk.slice(keyPrefix('Grant').length),
    clientId: String(payload.clientId ?? ''),
    iat: payload.iat,
    exp: payload.exp,
    scope: typeof openid?.scope === 'string' ? openid.scope : '',
  }
}

/** Newest grant first; grants without `iat` last. */
export const byNewestGrant = (a: ConnectedTool, b: ConnectedTool) => (b.iat ?? 0) - (a.iat ?? 0)
