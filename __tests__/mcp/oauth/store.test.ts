/** @jest-environment node */
/**
 * The authorization server's storage (mcp/oauth/store/): one contract, run against the local
 * store (Maps) and the DynamoDB store on dynalite, then oidc-provider itself on the DynamoDB store.
 */
import { execFile } from 'node:child_process'
import type { AddressInfo } from 'node:net'
import path from 'node:path'
import { promisify } from 'node:util'
import { CreateTableCommand, waitUntilTableExists, DynamoDBClient, GetItemCommand, PutItemCommand, type BatchWriteItemCommandInput } from '@aws-sdk/client-dynamodb'
import { createDynamoOAuthStore } from '../../../mcp/oauth/store/dynamoAdapter'
import { createMemoryOAuthStore, SWEEP_INTERVAL_MS } from '../../../mcp/oauth/store/memoryAdapter'
import { UNGRANTED_CLIENT_SECONDS } from '../../../lib/aiTools/registrationLimits'
import { createTableInput, OAUTH_TABLE_SCHEMA } from '../../../mcp/oauth/store/tableSchema'
import { OAuthStoreAlreadyConsumedError, OAuthStoreCorruptItemError, OAuthStoreGoneError, OAuthStoreRevocationIncompleteError } from '../../../mcp/oauth/store/errors'
import type { AdapterPayload, Clock, OAuthStore } from '../../../mcp/oauth/store/oauthStore'

// eslint-disable-next-line @typescript-eslint/no-require-imports
const dynalite = require('dynalite') as (options: { createTableMs: number }) => import('node:net').Server

const root = path.resolve(__dirname, '../../..')
const START = Date.UTC(2026, 0, 1)
const seconds = (ms: number) => Math.floor(ms / 1000)

/** dynalite on a free local port, for this file only. */
const local = {
  server: undefined as import('node:net').Server | undefined,
  endpoint: '',
  client: undefined as DynamoDBClient | undefined,
  tables: 0,
}

function dynamoClient(endpoint: string) {
  return new DynamoDBClient({ endpoint, region: 'local', credentials: { accessKeyId: 'local', secretAccessKey: 'local' } })
}

/** A table of its own for each test, created from the one schema the CDK stack uses too. */
async function freshTable(): Promise<string> {
  const tableName = `oauth-${++local.tables}`
  await local.client!.send(new CreateTableCommand(createTableInput(tableName)))
  // A busy machine can still report the table CREATING; wait until it is ACTIVE.
  await waitUntilTableExists({ client: local.client!, maxWaitTime: 30, minDelay: 0.05, maxDelay: 0.2 }, { TableName: tableName })
  return tableName
}

beforeAll(async () => {
  const server = dynalite({ createTableMs: 0 })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  local.server = server
  local.endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  local.client = dynamoClient(local.endpoint)
})

afterAll(async () => {
  local.client?.destroy()
  await new Promise<void>((resolve, reject) => local.server?.close((error) => (error ? reject(error) : resolve())) ?? resolve())
})

interface StoreUnderTest {
  name: string
  create(now: Clock): Promise<OAuthStore>
}

const stores: StoreUnderTest[] = [
  { name: 'local store (Maps)', create: async (now) => createMemoryOAuthStore({ now }) },
  {
    name: 'DynamoDB store (dynalite)',
    // Small query pages, so revocations of a few dozen items page through the index.
    create: async (now) => createDynamoOAuthStore({ client: local.client!, tableName: await freshTable(), now, queryPageSize: 10 }),
  },
]

const token = (grantId: string, accountId: string, extra: AdapterPayload = {}): AdapterPayload => ({ kind: 'AccessToken', grantId, accountId, clientId: 'ai-tool', scope: 'openid', ...extra })

describe.each(stores)('$name', ({ create }) => {
  let nowMs: number
  let store: OAuthStore
  const after = (ms: number) => {
    nowMs += ms
  }

  beforeEach(async () => {
    nowMs = START
    store = await create(() => nowMs)
  })

  test('an item saved is found again, under its model only, as a copy', async () => {
    const payload: AdapterPayload = { ...token('g1', 'reader-1'), jti: 't1', iat: seconds(START), extra: { nested: [1, 'two', { three: true }] } }
    await store.adapterFor('AccessToken').upsert('t1', payload, 3600)

    const found = await store.adapterFor('AccessToken').find('t1')
    expect(found).toEqual(payload)
    found!.scope = 'changed'
    expect((await store.adapterFor('AccessToken').find('t1'))?.scope).toBe('openid')
    expect(await store.adapterFor('RefreshToken').find('t1')).toBeUndefined()
    expect(await store.adapterFor('AccessToken').find('t2')).toBeUndefined()
  })

  test('saving again replaces the item, its indexes included', async () => {
    const accessTokens = store.adapterFor('AccessToken')
    await accessTokens.upsert('t1', token('g1', 'reader-1'), 3600)
    await accessTokens.upsert('t1', token('g2', 'reader-1'), 3600)
    await accessTokens.revokeByGrantId('g1')
    expect((await accessTokens.find('t1'))?.grantId).toBe('g2')
  })

  test('an item past its expiry is absent, though nothing has deleted it yet; one without expiry stays', async () => {
    const sessions = store.adapterFor('Session')
    await store.adapterFor('AccessToken').upsert('t1', token('g1', 'reader-1'), 60)
    await sessions.upsert('s1', { uid: 'u1', accountId: 'reader-1' }, 60)
    await store.adapterFor('DeviceCode').upsert('d1', { userCode: 'ABCD-EFGH' }, 60)
    await store.adapterFor('Grant').upsert('g1', { jti: 'g1', accountId: 'reader-1', clientId: 'ai-tool' }, 60)
    await store.adapterFor('Client').upsert('registered-tool', { client_id: 'registered-tool' })

    after(59_999)
    expect(await store.adapterFor('AccessToken').find('t1')).toBeDefined()
    after(1)
    expect(await store.adapterFor('AccessToken').find('t1')).toBeUndefined()
    expect(await sessions.findByUid('u1')).toBeUndefined()
    expect(await store.adapterFor('DeviceCode').findByUserCode('ABCD-EFGH')).toBeUndefined()
    expect(await store.grantsOfAccount('reader-1')).toEqual([])
    after(365 * 24 * 3600 * 1000)
    expect(await store.adapterFor('Client').find('registered-tool')).toEqual({ client_id: 'registered-tool' })
  })

  test('a registration no reader allowed is gone after its day; one saved again when allowed lives for the grant', async () => {
    const clients = store.adapterFor('Client')
    const day = UNGRANTED_CLIENT_SECONDS * 1000
    await clients.upsert('ignored-tool', { client_id: 'ignored-tool' }, UNGRANTED_CLIENT_SECONDS)
    await clients.upsert('allowed-tool', { client_id: 'allowed-tool' }, UNGRANTED_CLIENT_SECONDS)
    after(day - 3600_000)
    await clients.upsert('allowed-tool', { client_id: 'allowed-tool' }, 30 * 86400)
    after(3600_000)
    expect(await clients.find('ignored-tool')).toBeUndefined()
    expect(await clients.find('allowed-tool')).toEqual({ client_id: 'allowed-tool' })
    after(30 * day - 3600_000)
    expect(await clients.find('allowed-tool')).toBeUndefined()
  })

  test('consume marks the item consumed once: a second consumption is refused as reuse, and an absent one (revoked meanwhile) as gone', async () => {
    const codes = store.adapterFor('AuthorizationCode')
    await codes.upsert('c1', { kind: 'AuthorizationCode', grantId: 'g1' }, 60)
    expect((await codes.find('c1'))?.consumed).toBeUndefined()

    after(5_000)
    await codes.consume('c1')
    after(5_000)
    await expect(codes.consume('c1')).rejects.toThrow(new OAuthStoreAlreadyConsumedError('AuthorizationCode:c1'))
    expect(await codes.find('c1')).toEqual({ kind: 'AuthorizationCode', grantId: 'g1', consumed: seconds(START + 5_000) })

    await expect(codes.consume('never-saved')).rejects.toThrow(new OAuthStoreGoneError('AuthorizationCode:never-saved'))
    expect(await codes.find('never-saved')).toBeUndefined()
  })

  test('of two simultaneous consumptions of one refresh token exactly one succeeds; the other is told it was reuse', async () => {
    const refreshTokens = store.adapterFor('RefreshToken')
    for (const id of ['r1', 'r2', 'r3']) await refreshTokens.upsert(id, { kind: 'RefreshToken', grantId: 'g1', accountId: 'reader-1' }, 60)
    for (const id of ['r1', 'r2', 'r3']) {
      const outcomes = await Promise.allSettled([refreshTokens.consume(id), refreshTokens.consume(id)])
      expect(outcomes.map((outcome) => outcome.status).sort()).toEqual(['fulfilled', 'rejected'])
      expect(outcomes.find((outcome) => outcome.status === 'rejected')).toEqual({ status: 'rejected', reason: new OAuthStoreAlreadyConsumedError(`RefreshToken:${id}`) })
    }
  })

  test('destroy removes that item only', async () => {
    const accessTokens = store.adapterFor('AccessToken')
    await accessTokens.upsert('t1', token('g1', 'reader-1'), 60)
    await accessTokens.upsert('t2', token('g1', 'reader-1'), 60)
    await accessTokens.destroy('t1')
    await accessTokens.destroy('never-saved')
    expect(await accessTokens.find('t1')).toBeUndefined()
    expect(await accessTokens.find('t2')).toBeDefined()
  })

  test('a session is found by its uid, and a device code by its user code, each under its own model', async () => {
    await store.adapterFor('Session').upsert('s1', { kind: 'Session', uid: 'u1', accountId: 'reader-1' }, 600)
    await store.adapterFor('Interaction').upsert('i1', { kind: 'Interaction', uid: 'u1' }, 600)
    await store.adapterFor('DeviceCode').upsert('d1', { kind: 'DeviceCode', userCode: 'ABCD-EFGH' }, 600)

    expect(await store.adapterFor('Session').findByUid('u1')).toEqual({ kind: 'Session', uid: 'u1', accountId: 'reader-1' })
    expect(await store.adapterFor('Interaction').findByUid('u1')).toEqual({ kind: 'Interaction', uid: 'u1' })
    expect(await store.adapterFor('Session').findByUid('u2')).toBeUndefined()
    expect(await store.adapterFor('DeviceCode').findByUserCode('ABCD-EFGH')).toEqual({ kind: 'DeviceCode', userCode: 'ABCD-EFGH' })
    expect(await store.adapterFor('DeviceCode').findByUserCode('ZZZZ-ZZZZ')).toBeUndefined()
  })

  test('revoking a grant removes every token and code of it, whatever the model, and nothing else', async () => {
    const save = (model: string, id: string, grantId: string) => store.adapterFor(model).upsert(id, token(grantId, 'reader-1', { kind: model }), 3600)
    for (let i = 0; i < 30; i += 1) await save('AccessToken', `a${i}`, 'g1')
    for (let i = 0; i < 5; i += 1) await save('RefreshToken', `r${i}`, 'g1')
    await save('AuthorizationCode', 'c1', 'g1')
    await save('AccessToken', 'other-a', 'g2')
    await save('RefreshToken', 'other-r', 'g2')
    await store.adapterFor('Grant').upsert('g1', { jti: 'g1', accountId: 'reader-1', clientId: 'ai-tool' }, 3600)

    await store.adapterFor('AccessToken').revokeByGrantId('g1')

    for (let i = 0; i < 30; i += 1) expect(await store.adapterFor('AccessToken').find(`a${i}`)).toBeUndefined()
    for (let i = 0; i < 5; i += 1) expect(await store.adapterFor('RefreshToken').find(`r${i}`)).toBeUndefined()
    expect(await store.adapterFor('AuthorizationCode').find('c1')).toBeUndefined()
    expect(await store.adapterFor('AccessToken').find('other-a')).toBeDefined()
    expect(await store.adapterFor('RefreshToken').find('other-r')).toBeDefined()
    // The Grant itself is oidc-provider's to destroy (by its revokeGrantPolicy), as in its own adapter.
    expect(await store.adapterFor('Grant').find('g1')).toBeDefined()
  })

  test("a reader's connected tools are their live grants, newest first, with client, time and scope", async () => {
    const grants = store.adapterFor('Grant')
    await grants.upsert('g-old', { jti: 'g-old', kind: 'Grant', accountId: 'reader-1', clientId: 'claude-code', iat: 100, exp: 10_000_000_000, openid: { scope: 'openid' } }, 3600)
    await grants.upsert('g-new', { jti: 'g-new', kind: 'Grant', accountId: 'reader-1', clientId: 'cursor', iat: 200, exp: 10_000_000_000 }, 3600)
    await grants.upsert('g-short', { jti: 'g-short', kind: 'Grant', accountId: 'reader-1', clientId: 'vscode', iat: 300 }, 10)
    await grants.upsert('g-theirs', { jti: 'g-theirs', kind: 'Grant', accountId: 'reader-2', clientId: 'cursor', iat: 400 }, 3600)
    await store.adapterFor('AccessToken').upsert('t1', token('g-new', 'reader-1'), 3600)
    await store.adapterFor('Session').upsert('s1', { uid: 'u1', accountId: 'reader-1' }, 3600)

    after(10_000)
    expect(await store.grantsOfAccount('reader-1')).toEqual([
      { grantId: 'g-new', clientId: 'cursor', iat: 200, exp: 10_000_000_000, scope: '' },
      { grantId: 'g-old', clientId: 'claude-code', iat: 100, exp: 10_000_000_000, scope: 'openid' },
    ])
    expect(await store.grantsOfAccount('reader-3')).toEqual([])
  })

  test("signing out everywhere removes all of the reader's grants, tokens and sessions, and no one else's", async () => {
    for (let i = 0; i < 3; i += 1) await store.adapterFor('Grant').upsert(`g${i}`, { jti: `g${i}`, accountId: 'reader-1', clientId: `tool-${i}` }, 3600)
    for (let i = 0; i < 30; i += 1) await store.adapterFor('AccessToken').upsert(`a${i}`, token(`g${i % 3}`, 'reader-1'), 3600)
    await store.adapterFor('RefreshToken').upsert('r1', token('g0', 'reader-1'), 3600)
    await store.adapterFor('Session').upsert('s1', { uid: 'u1', accountId: 'reader-1' }, 3600)
    await store.adapterFor('Grant').upsert('theirs', { jti: 'theirs', accountId: 'reader-2', clientId: 'tool-0' }, 3600)
    await store.adapterFor('AccessToken').upsert('their-token', token('theirs', 'reader-2'), 3600)
    await store.adapterFor('Session').upsert('s2', { uid: 'u2', accountId: 'reader-2' }, 3600)

    await store.revokeByAccountId('reader-1')

    expect(await store.grantsOfAccount('reader-1')).toEqual([])
    for (let i = 0; i < 3; i += 1) expect(await store.adapterFor('Grant').find(`g${i}`)).toBeUndefined()
    for (let i = 0; i < 30; i += 1) expect(await store.adapterFor('AccessToken').find(`a${i}`)).toBeUndefined()
    expect(await store.adapterFor('RefreshToken').find('r1')).toBeUndefined()
    expect(await store.adapterFor('Session').findByUid('u1')).toBeUndefined()
    expect(await store.grantsOfAccount('reader-2')).toHaveLength(1)
    expect(await store.adapterFor('AccessToken').find('their-token')).toBeDefined()
    expect(await store.adapterFor('Session').findByUid('u2')).toBeDefined()
  })

  test('a reader revokes one connected tool: its grant and tokens go, their other tools stay, and no one revokes another reader\'s', async () => {
    await store.adapterFor('Grant').upsert('g1', { jti: 'g1', accountId: 'reader-1', clientId: 'cursor' }, 3600)
    await store.adapterFor('Grant').upsert('g2', { jti: 'g2', accountId: 'reader-1', clientId: 'claude-code' }, 3600)
    await store.adapterFor('AccessToken').upsert('t1', token('g1', 'reader-1'), 3600)
    await store.adapterFor('RefreshToken').upsert('r1', token('g1', 'reader-1'), 3600)
    await store.adapterFor('AccessToken').upsert('t2', token('g2', 'reader-1'), 3600)

    expect(await store.revokeGrant('reader-2', 'g1')).toBe(false)
    expect(await store.adapterFor('Grant').find('g1')).toBeDefined()
    expect(await store.revokeGrant('reader-1', 'no-such-grant')).toBe(false)

    expect(await store.revokeGrant('reader-1', 'g1')).toBe(true)
    expect(await store.adapterFor('Grant').find('g1')).toBeUndefined()
    expect(await store.adapterFor('AccessToken').find('t1')).toBeUndefined()
    expect(await store.adapterFor('RefreshToken').find('r1')).toBeUndefined()
    expect((await store.grantsOfAccount('reader-1')).map((tool) => tool.clientId)).toEqual(['claude-code'])
    expect(await store.adapterFor('AccessToken').find('t2')).toBeDefined()
  })
})

describe('local store only', () => {
  test('expired items nobody reads again are swept on a later write, so memory holds what is live', async () => {
    let nowMs = START
    const store = createMemoryOAuthStore({ now: () => nowMs })
    for (let i = 0; i < 500; i++) await store.adapterFor('Client').upsert(`ignored-${i}`, { client_id: `ignored-${i}` }, UNGRANTED_CLIENT_SECONDS)
    await store.adapterFor('Client').upsert('kept', { client_id: 'kept' })
    expect(store.itemCount()).toBe(501)
    nowMs += UNGRANTED_CLIENT_SECONDS * 1000
    await store.adapterFor('Interaction').upsert('i1', { uid: 'u1' }, 1)
    expect(store.itemCount()).toBe(2)
    // A write scans at most once a sweep interval: the expired interaction stays until the next one.
    nowMs += SWEEP_INTERVAL_MS - 1
    await store.adapterFor('Interaction').upsert('i2', { uid: 'u2' }, 600)
    expect(store.itemCount()).toBe(3)
    nowMs += 1
    await store.adapterFor('Interaction').upsert('i3', { uid: 'u3' }, 600)
    expect(store.itemCount()).toBe(3)
  })
})

describe('DynamoDB store only', () => {
  test("a registration's expiry is the table's TTL attribute, by which DynamoDB deletes it", async () => {
    const tableName = await freshTable()
    const store = createDynamoOAuthStore({ client: local.client!, tableName, now: () => START })
    await store.adapterFor('Client').upsert('ignored-tool', { client_id: 'ignored-tool' }, UNGRANTED_CLIENT_SECONDS)
    const { Item } = await local.client!.send(new GetItemCommand({ TableName: tableName, Key: { pk: { S: 'Client:ignored-tool' } } }))
    expect(Item?.[OAUTH_TABLE_SCHEMA.ttlAttribute]).toEqual({ N: String(seconds(START) + UNGRANTED_CLIENT_SECONDS) })
  })

  test('the table is created from OAUTH_TABLE_SCHEMA: key pk, a string-keyed index for each lookup', () => {
    const input = createTableInput('oauth')
    expect(input.KeySchema).toEqual([{ AttributeName: 'pk', KeyType: 'HASH' }])
    expect(input.GlobalSecondaryIndexes.map((index) => [index.IndexName, index.KeySchema[0].AttributeName])).toEqual([
      ['byGrantId', 'grantId'],
      ['byUserCode', 'userCode'],
      ['byUid', 'uid'],
      ['byAccountId', 'accountId'],
    ])
    expect(input.AttributeDefinitions).toHaveLength(5)
    expect(OAUTH_TABLE_SCHEMA.ttlAttribute).toBe('expiresAt')
  })

  test('an item whose payload is not JSON is an error, not an absent item', async () => {
    const tableName = await freshTable()
    await local.client!.send(new PutItemCommand({ TableName: tableName, Item: { pk: { S: 'AccessToken:t1' }, payload: { S: '{not json' } } }))
    const store = createDynamoOAuthStore({ client: local.client!, tableName })
    await expect(store.adapterFor('AccessToken').find('t1')).rejects.toThrow(OAuthStoreCorruptItemError)
  })

  /** A client whose index query finds `keys` and whose batch deletes DynamoDB leaves unprocessed `refusals` times. */
  function throttlingClient(keys: string[], refusals: number) {
    const batches: number[] = []
    const client = {
      async send(command: { input: object }) {
        if ('KeyConditionExpression' in command.input) return { Items: keys.map((pk) => ({ pk: { S: pk }, payload: { S: '{}' }, accountId: { S: 'reader-1' } })) }
        const requests = (command.input as BatchWriteItemCommandInput).RequestItems!.oauth
        batches.push(requests.length)
        return batches.length <= refusals ? { UnprocessedItems: { oauth: requests } } : {}
      },
    } as unknown as DynamoDBClient
    return { client, batches }
  }

  test('deletes that DynamoDB leaves unprocessed are retried', async () => {
    const { client, batches } = throttlingClient(['AccessToken:t1', 'Grant:g1'], 2)
    await createDynamoOAuthStore({ client, tableName: 'oauth', retry: { attempts: 3, baseDelayMs: 1 } }).revokeByAccountId('reader-1')
    expect(batches).toEqual([2, 2, 2])
  })

  test('a revocation DynamoDB keeps refusing fails, naming what was left', async () => {
    const { client } = throttlingClient(['AccessToken:t1'], Infinity)
    const revoking = createDynamoOAuthStore({ client, tableName: 'oauth', retry: { attempts: 2, baseDelayMs: 1 } }).revokeByAccountId('reader-1')
    await expect(revoking).rejects.toThrow(new OAuthStoreRevocationIncompleteError(['AccessToken:t1']))
  })
})

describe('oidc-provider on the DynamoDB store', () => {
  test("the provider's own models save, find, consume and revoke through it", async () => {
    const tableName = await freshTable()
    // A child process, because oidc-provider is ESM-only and cannot be imported under this jest;
    // asynchronous, because dynalite answers from this process's event loop.
    const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', 'mcp/oauth/store/providerCheck.ts', local.endpoint, tableName], { cwd: root, encoding: 'utf8', timeout: 60_000 })
    const seen = JSON.parse(stdout.trim().split('\n').pop()!)
    expect(seen).toEqual({
      accessTokenFound: true,
      codeConsumed: true,
      sessionFoundByUid: true,
      connectedTools: [{ clientId: 'ai-tool', scope: 'openid', isGrant: true }],
      accessTokenAfterRevokeByGrantId: false,
      grantAfterRevokeByGrantId: true,
      sessionAfterRevokeByAccountId: false,
      grantAfterRevokeByAccountId: false,
    })
  }, 90_000)
})
