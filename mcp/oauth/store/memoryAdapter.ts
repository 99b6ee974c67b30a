/**
 * The authorization server's storage for local runs: Maps in this process, fresh each start like
 * the local Cognito, so a restart signs every AI tool out.
 *
 * oidc-provider's own in-memory adapter would do for oidc-provider, but it cannot answer by
 * account, and the site needs that locally too ("sign out everywhere" and the list of connected
 * tools). This store keeps the same StoredItem records as the DynamoDB one and looks things up by
 * scanning them, which is what an index query means at local sizes; one contract test suite runs
 * against both stores.
 */
import type { AdapterPayload, Clock, ConnectedTool, OAuthStore, OidcAdapter } from './oauthStore'
import { OAuthStoreAlreadyConsumedError, OAuthStoreGoneError } from './errors'
import { byNewestGrant, connectedTool, isLive, itemKey, keyPrefix, payloadOf, toStoredItem, epochSeconds, type IndexedField, type StoredItem } from './storedItem'

export interface MemoryOAuthStoreOptions {
  now?: Clock
}

/** The local store, which also says how many items it holds (expired ones included), for tests of its sweep. */
export interface MemoryOAuthStore extends OAuthStore {
  itemCount(): number
}

/**
 * How often a write also drops every expired item. Reads drop the expired items they meet, but an
 * item nobody reads again (a registration no reader allowed, an interaction left on its consent
 * page) would stay: the sweep is what DynamoDB's TTL deletion is on AWS, so memory stays bounded by
 * what is live.
 */
export const SWEEP_INTERVAL_MS = 60_000

export function createMemoryOAuthStore({ now = Date.now }: MemoryOAuthStoreOptions = {}): MemoryOAuthStore {
  const items = new Map<string, StoredItem>()
  let sweptAtMs = now()

  function sweepIfDue(): void {
    const at = now()
    if (at - sweptAtMs < SWEEP_INTERVAL_MS) return
    sweptAtMs = at
    for (const [pk, item] of items) if (!isLive(item, at)) items.delete(pk)
  }

  /** The live item under `pk`; an expired one is dropped on the way, as DynamoDB's TTL would. */
  function live(pk: string): StoredItem | undefined {
    const item = items.get(pk)
    if (item && !isLive(item, now())) {
      items.delete(pk)
      return undefined
    }
    return item
  }

  /** Live items whose indexed `field` equals `value`, optionally of one model only. */
  function withField(field: IndexedField, value: string, model?: string): StoredItem[] {
    const found: StoredItem[] = []
    for (const pk of [...items.keys()]) {
      const item = live(pk)
      if (item && item[field] === value && (model === undefined || pk.startsWith(keyPrefix(model)))) found.push(item)
    }
    return found
  }

  const removeAll = (found: StoredItem[]) => found.forEach((item) => items.delete(item.pk))

  const revokeByGrantId = async (grantId: string) => removeAll(withField('grantId', grantId))

  function adapterFor(model: string): OidcAdapter {
    const findOne = async (field: IndexedField, value: string): Promise<AdapterPayload | undefined> => {
      const [item] = withField(field, value, model)
      return item && payloadOf(item)
    }
    return {
      async upsert(id, payload, expiresIn) {
        sweepIfDue()
        items.set(itemKey(model, id), toStoredItem(model, id, payload, expiresIn, now()))
      },
      async find(id) {
        const item = live(itemKey(model, id))
        return item && payloadOf(item)
      },
      findByUserCode: (userCode) => findOne('userCode', userCode),
      findByUid: (uid) => findOne('uid', uid),
      async consume(id) {
        const item = live(itemKey(model, id))
        if (!item) throw new OAuthStoreGoneError(itemKey(model, id))
        // Only one consumption can win, as in the DynamoDB store: two requests that both read the
        // token unused (a race) must not both use it.
        if (item.consumed !== undefined) throw new OAuthStoreAlreadyConsumedError(item.pk)
        item.consumed = epochSeconds(now())
      },
      async destroy(id) {
        items.delete(itemKey(model, id))
      },
      revokeByGrantId,
    }
  }

  return {
    adapterFor,
    itemCount: () => items.size,
    async revokeByAccountId(accountId) {
      removeAll(withField('accountId', accountId))
    },
    async grantsOfAccount(accountId): Promise<ConnectedTool[]> {
      return withField('accountId', accountId, 'Grant').map(connectedTool).sort(byNewestGrant)
    },
    async revokeGrant(accountId, grantId) {
      const grant = live(itemKey('Grant', grantId))
      if (!grant || grant.accountId !== accountId) return false
      items.delete(grant.pk)
      await revokeByGrantId(grantId)
      return true
    },
  }
}
