/**
 * Runs oidc-provider itself on the DynamoDB store, as a check: saves a Grant, an access token, an
 * authorization code and a session through the provider's own models, finds them back, consumes
 * the code, revokes the grant and the reader, and prints what it saw as one JSON line.
 *
 *   node --import tsx mcp/oauth/store/providerCheck.ts <dynamodb endpoint> <table name>
 *
 * It is a script rather than a jest test because oidc-provider is ESM-only and jest here runs
 * CommonJS (next/jest's SWC transform), where importing it fails; __tests__/mcp/oauth/store.test.ts
 * spawns it against dynalite and asserts on its output.
 */
import { DynamoDBClient } from '@aws-sdk/client-dynamodb'
import { createDynamoOAuthStore } from './dynamoAdapter'
import type { OidcAdapter } from './oauthStore'

/** The little of oidc-provider this check touches (the package ships no types). */
interface TokenModel {
  new (payload: Record<string, unknown>): { save(ttl?: number): Promise<string>; consume(): Promise<void> }
  find(id: string): Promise<Record<string, unknown> | undefined>
  revokeByGrantId(grantId: string): Promise<void>
}
interface ProviderLike {
  Client: { find(id: string): Promise<unknown> }
  Grant: { new (payload: Record<string, unknown>): { addOIDCScope(scope: string): void; save(): Promise<string> }; find(id: string): Promise<Record<string, unknown> | undefined> }
  AccessToken: TokenModel
  AuthorizationCode: TokenModel
  Session: {
    new (): { uid: string; jti: string; loginAccount(login: { accountId: string }): void; save(ttl: number): Promise<void> }
    findByUid(uid: string): Promise<Record<string, unknown> | undefined>
  }
}
type ProviderClass = new (
  issuer: string,
  configuration: { adapter: (model: string) => OidcAdapter; clients: Array<Record<string, unknown>>; ttl: Record<string, number> },
) => ProviderLike

// Through a variable, so TypeScript does not look for the package's (absent) type declarations.
const PROVIDER_PACKAGE: string = 'oidc-provider'

async function main(endpoint: string, tableName: string) {
  const { default: Provider } = (await import(PROVIDER_PACKAGE)) as { default: ProviderClass }
  const client = new DynamoDBClient({ endpoint, region: 'local', credentials: { accessKeyId: 'local', secretAccessKey: 'local' } })
  const store = createDynamoOAuthStore({ client, tableName })
  const provider = new Provider('http://127.0.0.1:3000', {
    adapter: store.adapterFor,
    clients: [{ client_id: 'ai-tool', token_endpoint_auth_method: 'none', redirect_uris: ['http://127.0.0.1:33418/callback'] }],
    ttl: { Grant: 3600, AccessToken: 600, AuthorizationCode: 60, Session: 600 },
  })
  const aiTool = await provider.Client.find('ai-tool')
  const accountId = 'reader-1'

  const grant = new provider.Grant({ accountId, clientId: 'ai-tool' })
  grant.addOIDCScope('openid')
  const grantId = await grant.save()
  const accessToken = await new provider.AccessToken({ accountId, client: aiTool, grantId, scope: 'openid', gty: 'authorization_code' }).save()
  const code = new provider.AuthorizationCode({ accountId, client: aiTool, grantId, scope: 'openid', redirectUri: 'http://127.0.0.1:33418/callback' })
  const codeId = await code.save()
  await code.consume()
  const session = new provider.Session()
  session.loginAccount({ accountId })
  await session.save(600)

  const seen = {
    accessTokenFound: (await provider.AccessToken.find(accessToken))?.grantId === grantId,
    codeConsumed: typeof (await provider.AuthorizationCode.find(codeId))?.consumed === 'number',
    sessionFoundByUid: (await provider.Session.findByUid(session.uid))?.accountId === accountId,
    connectedTools: (await store.grantsOfAccount(accountId)).map((tool) => ({ clientId: tool.clientId, scope: tool.scope, isGrant: tool.grantId === grantId })),
    accessTokenAfterRevokeByGrantId: undefined as boolean | undefined,
    grantAfterRevokeByGrantId: undefined as boolean | undefined,
    sessionAfterRevokeByAccountId: undefined as boolean | undefined,
    grantAfterRevokeByAccountId: undefined as boolean | undefined,
  }
  await provider.AccessToken.revokeByGrantId(grantId)
  seen.accessTokenAfterRevokeByGrantId = (await provider.AccessToken.find(accessToken)) !== undefined
  // revokeByGrantId leaves the Grant itself: oidc-provider destroys it separately, by its revokeGrantPolicy.
  seen.grantAfterRevokeByGrantId = (await provider.Grant.find(grantId)) !== undefined
  await store.revokeByAccountId(accountId)
  seen.sessionAfterRevokeByAccountId = (await provider.Session.findByUid(session.uid)) !== undefined
  seen.grantAfterRevokeByAccountId = (await provider.Grant.find(grantId)) !== undefined
  client.destroy()
  process.stdout.write(`${JSON.stringify(seen)}\n`)
}

const [endpoint, tableName] = process.argv.slice(2)
if (!endpoint || !tableName) {
  process.stderr.write('usage: node --import tsx mcp/oauth/store/providerCheck.ts <dynamodb endpoint> <table name>\n')
  process.exit(2)
}
main(endpoint, tableName).catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`)
  process.exit(1)
})
