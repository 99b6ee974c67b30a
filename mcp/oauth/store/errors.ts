/**
 * What can go wrong in the authorization server's storage, as classes a caller can tell apart
 * without reading messages. "Not found" is never an error here: oidc-provider expects undefined.
 */

export class OAuthStoreError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options)
    this.name = new.target.name
  }
}

/**
 * A stored item whose payload is not the JSON this store wrote: a hand edit or another writer on
 * the table. Raised rather than read as "absent", so a damaged token is noticed, not silently dropped.
 */
export class OAuthStoreCorruptItemError extends OAuthStoreError {
  constructor(readonly key: string, cause: unknown) {
    super(`the stored OAuth item ${key} has no readable payload`, { cause })
  }
}

/**
 * DynamoDB kept refusing some deletes of a revocation (throttling) after every retry. The
 * revocation is incomplete, so it must fail loudly: a reader who asked to revoke a tool must not
 * be told it is done.
 */
export class OAuthStoreRevocationIncompleteError extends OAuthStoreError {
  constructor(readonly remainingKeys: string[]) {
    super(`revocation incomplete: DynamoDB did not delete ${remainingKeys.length} item(s) after retries`)
  }
}

/**
 * consume() found the item already consumed: a second use of a one-time code or refresh token,
 * which two requests racing with the same token also reach (only one consume can win). The
 * authorization server treats it as reuse, as oidc-provider treats a token it reads as consumed.
 */
export class OAuthStoreAlreadyConsumedError extends OAuthStoreError {
  constructor(readonly key: string) {
    super(`the stored OAuth item ${key} was already consumed`)
  }
}

/**
 * consume() found no item: the token was there when the request read it, and is gone now (a
 * racing reuse revoked its grant, or it expired meanwhile). The request must not go on to use it.
 */
export class OAuthStoreGoneError extends OAuthStoreError {
  constructor(readonly key: string) {
    super(`the stored OAuth item ${key} is gone`)
  }
}
