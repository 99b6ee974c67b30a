/**
 * The DynamoDB table of the authorization server, declared once: the CDK stack (infra/) and the
 * tests create it from this, and dynamoAdapter.ts reads and writes by these names.
 *
 * One table for every oidc-provider model (single-table design), because the reader-facing
 * operations cut across models: revoking a grant removes its access tokens, refresh tokens and
 * codes together, and "sign out everywhere" removes a reader's grants, tokens and sessions
 * together. With one table each of those is one index query and a batch delete.
 *
 * Plain data, no AWS SDK or CDK types, so infra/ can import it without pulling in either.
 */

/** Index names stay fixed once deployed: renaming one is a new index, built from scratch. */
export const OAUTH_TABLE_SCHEMA = {
  /** `${model}:${id}`, e.g. `AccessToken:Qx…`: ids are unique within a model, not across models. */
  partitionKey: 'pk',
  /**
   * Epoch seconds after which the item is dead. It is the table's TTL attribute, but DynamoDB
   * deletes expired items lazily (typically within days), so reads check it too.
   */
  ttlAttribute: 'expiresAt',
  attributes: {
    pk: 'pk',
    /** The payload oidc-provider gave, as a JSON string: never queried inside, and round-trips exactly. */
    payload: 'payload',
    expiresAt: 'expiresAt',
    /** Epoch seconds of consume(); kept apart from the payload so consuming is one small update. */
    consumed: 'consumed',
    grantId: 'grantId',
    userCode: 'userCode',
    uid: 'uid',
    accountId: 'accountId',
  },
  /**
   * Global secondary indexes, each keyed by one attribute (type string) and projecting all
   * attributes, so a lookup needs no second read. An item without the attribute is not in the index.
   */
  indexes: {
    /** revokeByGrantId: every token and code of one grant. */
    grantId: { indexName: 'byGrantId', partitionKey: 'grantId' },
    /** findByUserCode: the device flow's code a reader types in. */
    userCode: { indexName: 'byUserCode', partitionKey: 'userCode' },
    /** findByUid: a session by its fixed uid. */
    uid: { indexName: 'byUid', partitionKey: 'uid' },
    /**
     * Everything of one reader (grants, tokens, sessions): oidc-provider itself never asks by
     * account, but the site does, to list a reader's connected AI tools and to revoke them all
     * when the reader signs out everywhere.
     */
    accountId: { indexName: 'byAccountId', partitionKey: 'accountId' },
  },
} as const

export type OAuthIndex = keyof typeof OAUTH_TABLE_SCHEMA.indexes

/**
 * The CreateTable request for this schema (on-demand billing). TTL is a separate call on
 * DynamoDB (UpdateTimeToLive), which CDK makes from `timeToLiveAttribute: OAUTH_TABLE_SCHEMA.ttlAttribute`.
 */
export function createTableInput(tableName: string) {
  const indexes = Object.values(OAUTH_TABLE_SCHEMA.indexes)
  const keyAttributes = [OAUTH_TABLE_SCHEMA.partitionKey, ...indexes.map((index) => index.partitionKey)]
  return {
    TableName: tableName,
    BillingMode: 'PAY_PER_REQUEST' as const,
    AttributeDefinitions: keyAttributes.map((name) => ({ AttributeName: name, AttributeType: 'S' as const })),
    KeySchema: [{ AttributeName: OAUTH_TABLE_SCHEMA.partitionKey, KeyType: 'HASH' as const }],
    GlobalSecondaryIndexes: indexes.map((index) => ({
      IndexName: index.indexName,
      KeySchema: [{ AttributeName: index.partitionKey, KeyType: 'HASH' as const }],
      Projection: { ProjectionType: 'ALL' as const },
    })),
  }
}
