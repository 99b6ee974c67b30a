/**
 * A StoredItem as DynamoDB attribute values and back, by the attribute names of tableSchema.ts.
 * Written by hand rather than with @aws-sdk/util-dynamodb: there are eight flat string and number
 * attributes, and the project does not install that package.
 */
import type { AttributeValue } from '@aws-sdk/client-dynamodb'
import { OAUTH_TABLE_SCHEMA } from './tableSchema'
import { OAuthStoreCorruptItemError } from './errors'
import { INDEXED_FIELDS, type StoredItem } from './storedItem'

const names = OAUTH_TABLE_SCHEMA.attributes

export type DynamoItem = Record<string, AttributeValue>

export function toDynamoItem(item: StoredItem): DynamoItem {
  const attributes: DynamoItem = { [names.pk]: { S: item.pk }, [names.payload]: { S: item.payload } }
  if (item.expiresAt !== undefined) attributes[names.expiresAt] = { N: String(item.expiresAt) }
  if (item.consumed !== undefined) attributes[names.consumed] = { N: String(item.consumed) }
  for (const field of INDEXED_FIELDS) {
    const value = item[field]
    if (value !== undefined) attributes[names[field]] = { S: value }
  }
  return attributes
}

export function fromDynamoItem(attributes: DynamoItem): StoredItem {
  const pk = attributes[names.pk]?.S
  const payload = attributes[names.payload]?.S
  if (pk === undefined || payload === undefined) throw new OAuthStoreCorruptItemError(pk ?? '(no key)', 'missing pk or payload attribute')
  const item: StoredItem = { pk, payload }
  const number = (name: string) => (attributes[name]?.N === undefined ? undefined : Number(attributes[name].N))
  const expiresAt = number(names.expiresAt)
  const consumed = number(names.consumed)
  if (expiresAt !== undefined) item.expiresAt = expiresAt
  if (consumed !== undefined) item.consumed = consumed
  for (const field of INDEXED_FIELDS) {
    const value = attributes[names[field]]?.S
    if (value !== undefined) item[field] = value
  }
  return item
}

export const keyOf = (pk: string): DynamoItem => ({ [names.pk]: { S: pk } })
