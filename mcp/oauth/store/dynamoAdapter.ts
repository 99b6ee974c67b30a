/**
 * The authorization server's storage on AWS: one DynamoDB table (tableSchema.ts) holding every
 * oidc-provider model, plus the reader-facing operations by account.
 *
 * The caller hands in the client and the table name; nothing here reads the environment, so the
 * Lambda, a local run against dynalite and the tests wire it the same way.
 *
 * Consistency: reads by key are strongly consistent, because oidc-provider often reads an item
 * right after writing it (an interaction saved, then found on the redirect back). Lookups through
 * an index are eventually consistent, as DynamoDB's global secondary indexes always are: an item
 * written a moment ago may be missed for a moment. Revocation stays sound despite that, because
 * oidc-provider checks a token's Grant by key on every use: deleting the Grant item kills its
 * tokens at once, and the index-driven deletes only clear them away.
 */
import {
  BatchWriteItemCommand,
  DeleteItemCommand,
  GetItemCommand,
  PutItemCommand,
  QueryCommand,
  UpdateItemCommand,
  type DynamoDBClient,
  type WriteRequest,
} from '@aws-sdk/client-dynamodb'
import type { AdapterPayload, Clock, ConnectedTool, OAuthStore, OidcAdapter } from './oauthStore'
import { OAUTH_TABLE_SCHEMA, type OAuthIndex } from './tableSchema'
import { byNewestGrant, connectedTool, epochSeconds, isLive, itemKey, keyPrefix, payloadOf, toStoredItem, type StoredItem } from './storedItem'
import { fromDynamoItem, keyOf, toDynamoItem, type DynamoItem } from './dynamoItem'
import { OAuthStoreAlreadyConsumedError, OAuthStoreGoneError, OAuthStoreRevocationIncompleteError } from './errors'

export interface DynamoOAuthStoreOptions {
  client: DynamoDBClient
  tableName: string
  now?: Clock
  /** Items per index query page; DynamoDB's own limit (1 MB) when absent. Tests set it small to page. */
  queryPageSize?: number
  /** Retries of deletes that DynamoDB leaves unprocessed (throttling), with exponential backoff. */
  retry?: { attempts: number; baseDelayMs: number }
}

/** BatchWriteItem takes at most 25 requests. */
const BATCH_SIZE = 25
const DEFAULT_RETRY = { attempts: 6, baseDelayMs: 50 }

const names = OAUTH_TABLE_SCHEMA.attributes
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

export function createDynamoOAuthStore({ client, tableName, now = Date.now, queryPageSize, retry = DEFAULT_RETRY }: DynamoOAuthStoreOptions): OAuthStore {
  async function get(pk: string): Promise<StoredItem | undefined> {
    const { Item } = await client.send(new GetItemCommand({ TableName: tableName, Key: keyOf(pk), ConsistentRead: true }))
    if (!Item) return undefined
    const item = fromDynamoItem(Item)
    return isLive(item, now()) ? item : undefined
  }

  /** Every live item whose `index` attribute equals `value`, page by page; only `model`'s when given. */
  async function query(index: OAuthIndex, value: string, model?: string): Promise<StoredItem[]> {
    const { indexName, partitionKey } = OAUTH_TABLE_SCHEMA.indexes[index]
    const found: StoredItem[] = []
    let ExclusiveStartKey: DynamoItem | undefined
    do {
      const page = await client.send(
        new QueryCommand({
          TableName: tableName,
          IndexName: indexName,
          KeyConditionExpression: '#key = :value',
          // Models share the index (a Session and an Interaction can both carry a uid), so a
          // per-model lookup filters on the key's model prefix.
          FilterExpression: model === undefined ? undefined : 'begins_with(#pk, :prefix)',
          ExpressionAttributeNames: { '#key': partitionKey, ...(model === undefined ? {} : { '#pk': names.pk }) },
          ExpressionAttributeValues: { ':value': { S: value }, ...(model === undefined ? {} : { ':prefix': { S: keyPrefix(model) } }) },
          Limit: queryPageSize,
          ExclusiveStartKey,
        }),
      )
      for (const attributes of page.Items ?? []) {
        const item = fromDynamoItem(attributes)
        if (isLive(item, now())) found.push(item)
      }
      ExclusiveStartKey = page.LastEvaluatedKey
    } while (ExclusiveStartKey)
    return found
  }

  /**
   * Deletes the items in batches of 25, retrying what DynamoDB leaves unprocessed. Grants go
   * first: once a Grant is gone oidc-provider refuses its tokens, so a revocation that fails
   * halfway has still cut access.
   */
  async function deleteAll(pks: string[]): Promise<void> {
    const unique = [...new Set(pks)].sort((a, b) => Number(b.startsWith(keyPrefix('Grant'))) - Number(a.startsWith(keyPrefix('Grant'))))
    for (let start = 0; start < unique.length; start += BATCH_SIZE) {
      let pending: WriteRequest[] = unique.slice(start, start + BATCH_SIZE).map((pk) => ({ DeleteRequest: { Key: keyOf(pk) } }))
      for (let attempt = 0; pending.length > 0; attempt += 1) {
        if (attempt > retry.attempts) {
          throw new OAuthStoreRevocationIncompleteError(pending.map((request) => request.DeleteRequest?.Key?.[names.pk]?.S ?? '?'))
        }
        if (attempt > 0) await sleep(retry.baseDelayMs * 2 ** (attempt - 1))
        const { UnprocessedItems } = await client.send(new BatchWriteItemCommand({ RequestItems: { [tableName]: pending } }))
        pending = UnprocessedItems?.[tableName] ?? []
      }
    }
  }

  const revokeByGrantId = async (grantId: string) => deleteAll((await query('grantId', grantId)).map((item) => item.pk))

  function adapterFor(model: string): OidcAdapter {
    const findOne = async (index: OAuthIndex, value: string): Promise<AdapterPayload | undefined> => {
      const [item] = await query(index, value, model)
      return item && payloadOf(item)
    }
    return {
      async upsert(id, payload, expiresIn) {
        // A whole-item put: a re-saved item drops the index attributes and `consumed` of its previous version.
        await client.send(new PutItemCommand({ TableName: tableName, Item: toDynamoItem(toStoredItem(model, id, payload, expiresIn, now())) }))
      },
      async find(id) {
        const item = await get(itemKey(model, id))
        return item && payloadOf(item)
      },
      findByUserCode: (userCode) => findOne('userCode', userCode),
      findByUid: (uid) => findOne('uid', uid),
      async consume(id) {
        const pk = itemKey(model, id)
        // Conditional on the item being unconsumed, so of two requests that both read a token
        // unused (a race) exactly one consumes it; the other learns it was reuse.
        try {
          await client.send(
            new UpdateItemCommand({
              TableName: tableName,
              Key: keyOf(pk),
              UpdateExpression: 'SET #consumed = :now',
              ConditionExpression: 'attribute_exists(#pk) AND attribute_not_exists(#consumed)',
              ExpressionAttributeNames: { '#consumed': names.consumed, '#pk': names.pk },
              ExpressionAttributeValues: { ':now': { N: String(epochSeconds(now())) } },
            }),
          )
        } catch (error) {
          if (!(error instanceof Error && error.name === 'ConditionalCheckFailedException')) throw error
          // Present means consumed; absent (destroyed, or expired) means the request read a token that is gone.
          if (await get(pk)) throw new OAuthStoreAlreadyConsumedError(pk)
          throw new OAuthStoreGoneError(pk)
        }
      },
      async destroy(id) {
        await client.send(new DeleteItemCommand({ TableName: tableName, Key: keyOf(itemKey(model, id)) }))
      },
      revokeByGrantId,
    }
  }

  return {
    adapterFor,
    async revokeByAccountId(accountId) {
      await deleteAll((await query('accountId', accountId)).map((item) => item.pk))
    },
    async grantsOfAccount(accountId): Promise<ConnectedTool[]> {
      return (await query('accountId', accountId, 'Grant')).map(connectedTool).sort(byNewestGrant)
    },
    async revokeGrant(accountId, grantId) {
      const grant = await get(itemKey('Grant', grantId))
      if (!grant || grant.accountId !== accountId) return false
      // The Grant first: that alone makes oidc-provider refuse every token of it.
      await deleteAll([grant.pk])
      await revokeByGrantId(grantId)
      return true
    },
  }
}
