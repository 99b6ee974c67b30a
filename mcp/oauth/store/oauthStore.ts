/**
 * What the OAuth authorization server (oidc-provider) keeps, and the one interface both of its
 * stores meet: DynamoDB on AWS (dynamoAdapter.ts) and Maps for local runs (memoryAdapter.ts).
 *
 * oidc-provider ships no TypeScript types, so the adapter contract is written out here from its
 * documentation (example/my_adapter.js in the oidc-provider repository) and its own memory adapter
 * (node_modules/oidc-provider/lib/adapters/memory_adapter.js).
 */

/** What oidc-provider hands an adapter to keep; open-ended because its models add fields over releases. */
export interface AdapterPayload {
  jti?: string
  kind?: string
  iat?: number
  exp?: number
  accountId?: string
  clientId?: string
  grantId?: string
  userCode?: string
  uid?: string
  /** Epoch seconds at which consume() was called; oidc-provider reads it to detect a code's reuse. */
  consumed?: number
  [field: string]: unknown
}

/**
 * The adapter contract of oidc-provider: one adapter per model name. Every lookup answers
 * undefined for an item that is absent, destroyed or past its expiry.
 */
export interface OidcAdapter {
  /** Creates or replaces the item; `expiresIn` (seconds) is absent for items that never expire. */
  upsert(id: string, payload: AdapterPayload, expiresIn?: number): Promise<void>
  find(id: string): Promise<AdapterPayload | undefined>
  /** DeviceCode by the code a reader types in. */
  findByUserCode(userCode: string): Promise<AdapterPayload | undefined>
  /** Session by its fixed uid (tokens bound to a session refer to it by uid). */
  findByUid(uid: string): Promise<AdapterPayload | undefined>
  /**
   * Marks the item consumed; later finds carry `consumed`. An absent item is left absent. Throws
   * OAuthStoreAlreadyConsumedError when the item was consumed already, atomically: of concurrent
   * calls exactly one succeeds.
   */
  consume(id: string): Promise<void>
  destroy(id: string): Promise<void>
  /** Removes every item that carries this grantId, whatever its model. */
  revokeByGrantId(grantId: string): Promise<void>
}

/** One AI tool a reader has connected: a live Grant of oidc-provider. */
export interface ConnectedTool {
  grantId: string
  clientId: string
  /** Epoch seconds the reader granted access. */
  iat?: number
  /** Epoch seconds the grant ends, when it has an end. */
  exp?: number
  /** The OpenID scope granted, space-separated ('' when none). */
  scope: string
}

/**
 * The authorization server's storage. `adapterFor` is what Provider's `adapter` option takes; the
 * rest serves the reader: "sign out everywhere" and the list of connected tools.
 */
export interface OAuthStore {
  /** A factory, not a class, so it can be passed as `new Provider(issuer, { adapter: store.adapterFor })`. */
  readonly adapterFor: (model: string) => OidcAdapter
  /**
   * Removes everything the reader holds at the authorization server: grants, tokens, codes and
   * sessions. Every AI tool the reader connected must sign in again.
   */
  revokeByAccountId(accountId: string): Promise<void>
  /** The reader's live grants, newest first. */
  grantsOfAccount(accountId: string): Promise<ConnectedTool[]>
  /**
   * Revokes one connected tool: its grant and every token of it. Answers false, and removes
   * nothing, when the grant is not this reader's (or is gone), so one reader cannot revoke another's.
   */
  revokeGrant(accountId: string, grantId: string): Promise<boolean>
}

/** Milliseconds since the epoch, like Date.now; injectable so tests can move time. */
export type Clock = () => number
