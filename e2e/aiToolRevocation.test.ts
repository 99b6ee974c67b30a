/**
 * When an AI tool's access ends, through the real server, its access log and the local Cognito:
 *
 * - a refresh token is good once, even to two requests at the same moment (both stores): the
 *   second use ends the whole grant, and the log says `refresh-reuse`, with the reader and client;
 * - an admin's global sign-out or password reset reaches the tool at its next refresh.
 */
import crypto from 'node:crypto'
import fs from 'node:fs'
import type { AddressInfo } from 'node:net'
import os from 'node:os'
import path from 'node:path'
import {
  AdminResetUserPasswordCommand,
  AdminSetUserPasswordCommand,
  AdminUserGlobalSignOutCommand,
  CognitoIdentityProviderClient,
} from '@aws-sdk/client-cognito-identity-provider'
import { DynamoDBClient, ScanCommand } from '@aws-sdk/client-dynamodb'
import type { Page } from 'playwright-core'
import type { AccessLogRecord } from '../edge/accessLog'
import { LOCAL_COGNITO } from '../lib/auth/authSettings'
import { AUTHORIZATION_SERVER_METADATA_PATH, DOCS_SCOPE } from '../lib/aiTools/oauthPaths'
import { amplifyCookieHeader, sessionCookieHeader, signInIdToken, signInSession } from '../scripts/audit/cognitoSession'
import { freshPagePerTest } from './browser'
import { inBrowser, loopbackReceiver, signToolIn, startOwnSiteServer, withCookies, type SignedInTool } from './oauthTool'
import { PASSWORD, siteEnv } from './siteEnv'

// eslint-disable-next-line @typescript-eslint/no-require-imports
const dynalite = require('dynalite') as (options: { createTableMs: number }) => import('node:net').Server

const { cognitoUrl } = siteEnv()
const currentPage = freshPagePerTest()
let page: Page
beforeEach(() => {
  page = currentPage()
})

interface ServerMetadata {
  token_endpoint: string
  revocation_endpoint: string
  registration_endpoint: string
  authorization_endpoint: string
}

/** A server of this file's own, with its access log, on the in-memory store or DynamoDB (dynalite in this process). */
function ownServer(store: 'memory' | 'DynamoDB') {
  const logDir = fs.mkdtempSync(path.join(os.tmpdir(), 'docs-ai-revocation-'))
  const logFile = path.join(logDir, 'access.log')
  const state = { url: '', metadata: undefined as unknown as ServerMetadata, dynamo: undefined as { endpoint: string; tableName: string } | undefined }
  let server: Awaited<ReturnType<typeof startOwnSiteServer>> | undefined
  let table: import('node:net').Server | undefined
  beforeAll(async () => {
    let dynamo
    if (store === 'DynamoDB') {
      table = dynalite({ createTableMs: 0 })
      await new Promise<void>((resolve) => table!.listen(0, '127.0.0.1', resolve))
      dynamo = { endpoint: `http://127.0.0.1:${(table.address() as AddressInfo).port}`, tableName: 'docs-oauth' }
    }
    state.dynamo = dynamo
    server = await startOwnSiteServer({ accessLog: logFile, dynamo })
    state.url = server.url
    state.metadata = (await (await fetch(server.url + AUTHORIZATION_SERVER_METADATA_PATH)).json()) as ServerMetadata
  }, 60_000)
  afterAll(async () => {
    await server?.stop()
    await new Promise<void>((resolve) => (table ? table.close(() => resolve()) : resolve()))
    fs.rmSync(logDir, { recursive: true, force: true })
  })
  /** The log's lines about AI tools' sign-in, once `count` of `event` are there (the file is written as they come). */
  const oauthLines = async (event: AccessLogRecord['event'], count = 1): Promise<AccessLogRecord[]> => {
    for (let waited = 0; ; waited += 50) {
      const lines = fs.existsSync(logFile) ? fs.readFileSync(logFile, 'utf8').split('\n').filter(Boolean).map((line) => JSON.parse(line) as AccessLogRecord) : []
      const oauth = lines.filter((line) => line.outcome === 'oauth')
      if (oauth.filter((line) => line.event === event).length >= count || waited > 3000) return oauth
      await new Promise((resolve) => setTimeout(resolve, 50))
    }
  }
  const logText = () => fs.readFileSync(logFile, 'utf8')
  return { state, oauthLines, logText }
}

const form = (body: Record<string, string>) => ({ method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(body) })
const clientIdOf = async (tool: SignedInTool) => (await tool.auth.clientInformation())?.client_id as string
const refreshTokenOf = async (tool: SignedInTool) => (await tool.auth.tokens())?.refresh_token as string

async function refresh(metadata: ServerMetadata, clientId: string, refreshToken: string) {
  const response = await fetch(metadata.token_endpoint, form({ grant_type: 'refresh_token', refresh_token: refreshToken, client_id: clientId }))
  return { status: response.status, body: (await response.json()) as { error?: string; access_token?: string; refresh_token?: string } }
}

const mcpStatus = async (siteUrl: string, token: string | undefined) =>
  (
    await fetch(`${siteUrl}/mcp`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'test', version: '1' } } }),
    })
  ).status

describe.each(['memory', 'DynamoDB'] as const)('a refresh token is used once, on the %s store', (store) => {
  const { state, oauthLines, logText } = ownServer(store)

  // Only the DynamoDB store keeps items a scan can read; the memory store's variant is not declared (not a skip).
  if (store === 'DynamoDB') test("the reader's kept site sign-in is stored in the grant's record alone, which ends with the grant, not 30 days after the last refresh", async () => {
    const session = await signInSession(cognitoUrl, 'leads2', PASSWORD)
    const tool = await signToolIn(withCookies('leads2', 'allow', sessionCookieHeader('leads2', session)), { siteUrl: state.url })
    try {
      // A refresh a second or more after consent: a record kept 30 days from it would outlive the grant.
      await new Promise((resolve) => setTimeout(resolve, 1100))
      expect((await refresh(state.metadata, await clientIdOf(tool), await refreshTokenOf(tool))).status).toBe(200)
      const client = new DynamoDBClient({ endpoint: state.dynamo!.endpoint, region: 'local', credentials: { accessKeyId: 'local', secretAccessKey: 'local' } })
      const { Items = [] } = await client.send(new ScanCommand({ TableName: state.dynamo!.tableName }))
      client.destroy()
      const holding = Items.filter((item) => JSON.stringify(item).includes(session.refreshToken))
      expect(holding.map((item) => item.pk.S!.split(':')[0])).toEqual(['DocsGrantReader'])
      const grantId = JSON.parse(holding[0].payload.S!).grantId as string
      const grant = Items.find((item) => item.pk.S === `Grant:${grantId}`)!
      expect(Number(holding[0].expiresAt.N)).toBeLessThanOrEqual(Number(grant.expiresAt.N))
    } finally {
      await tool.close()
    }
  })

  test('of two simultaneous refreshes with one refresh token exactly one succeeds; afterwards neither chain works, and the log says refresh-reuse', async () => {
    const tool = await signToolIn(withCookies('internal1'), { siteUrl: state.url })
    const clientId = await clientIdOf(tool)
    const stolen = await refreshTokenOf(tool)
    try {
      const answers = await Promise.all([refresh(state.metadata, clientId, stolen), refresh(state.metadata, clientId, stolen)])
      expect(answers.map((answer) => answer.status).sort()).toEqual([200, 400])
      const won = answers.find((answer) => answer.status === 200)!.body
      expect(answers.find((answer) => answer.status === 400)!.body.error).toBe('invalid_grant')
      // Neither chain works: the winner's new tokens, nor the old refresh token, nor the first access token.
      expect((await refresh(state.metadata, clientId, won.refresh_token!)).body.error).toBe('invalid_grant')
      expect((await refresh(state.metadata, clientId, stolen)).body.error).toBe('invalid_grant')
      expect(await mcpStatus(state.url, won.access_token)).toBe(401)
      expect(await mcpStatus(state.url, (await tool.auth.tokens())?.access_token)).toBe(401)
      const reuse = (await oauthLines('refresh-reuse')).filter((line) => line.event === 'refresh-reuse' && line.client === clientId)
      expect(reuse.length).toBeGreaterThanOrEqual(1)
      expect(reuse[0]).toMatchObject({ user: 'internal1', decision: 'deny', client: clientId })
      expect(logText()).not.toContain(stolen)
    } finally {
      await tool.close()
    }
  })

  test('of two simultaneous exchanges of one code exactly one succeeds; the grant ends, logged as code-reuse with the reader', async () => {
    const loopback = await loopbackReceiver()
    try {
      const registered = await fetch(state.metadata.registration_endpoint, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ client_name: 'Code reuse tool', redirect_uris: [loopback.redirectUri], token_endpoint_auth_method: 'none', grant_types: ['authorization_code', 'refresh_token'], response_types: ['code'] }),
      })
      const { client_id: clientId } = (await registered.json()) as { client_id: string }
      const verifier = crypto.randomBytes(32).toString('base64url')
      const url = new URL(state.metadata.authorization_endpoint)
      for (const [name, value] of Object.entries({ response_type: 'code', client_id: clientId, redirect_uri: loopback.redirectUri, scope: `${DOCS_SCOPE} offline_access`, resource: `${state.url}/mcp`, code_challenge: crypto.createHash('sha256').update(verifier).digest('base64url'), code_challenge_method: 'S256' })) url.searchParams.set(name, value)
      await withCookies('internal1')(url)
      const code = (await loopback.received).get('code')!
      const exchange = () => fetch(state.metadata.token_endpoint, form({ grant_type: 'authorization_code', code, redirect_uri: loopback.redirectUri, code_verifier: verifier, client_id: clientId }))
      const answers = await Promise.all([exchange(), exchange()])
      expect(answers.map((answer) => answer.status).sort()).toEqual([200, 400])
      const won = (await answers.find((answer) => answer.status === 200)!.json()) as { access_token: string }
      expect(await mcpStatus(state.url, won.access_token)).toBe(401)
      const reuse = (await oauthLines('code-reuse')).filter((line) => line.event === 'code-reuse' && line.client === clientId)
      expect(reuse).toEqual([expect.objectContaining({ user: 'internal1', decision: 'deny' })])
    } finally {
      loopback.close()
    }
  })

  test("a refresh token used again later ends the grant, logged as refresh-reuse; a client's own revocation is logged as revocation, naming the reader", async () => {
    const reused = await signToolIn(withCookies('support1'), { siteUrl: state.url })
    const revoked = await signToolIn(withCookies('support1'), { siteUrl: state.url })
    try {
      const [clientId, first] = [await clientIdOf(reused), await refreshTokenOf(reused)]
      const next = await refresh(state.metadata, clientId, first)
      expect(next.status).toBe(200)
      expect((await refresh(state.metadata, clientId, first)).body.error).toBe('invalid_grant')
      expect((await refresh(state.metadata, clientId, next.body.refresh_token!)).body.error).toBe('invalid_grant')
      const revokedClient = await clientIdOf(revoked)
      const revocation = await fetch(state.metadata.revocation_endpoint, form({ token: await refreshTokenOf(revoked), client_id: revokedClient }))
      expect(revocation.status).toBe(200)
      const lines = await oauthLines('revocation')
      expect(lines.filter((line) => line.client === clientId && line.event === 'refresh-reuse')).toEqual([expect.objectContaining({ user: 'support1', decision: 'deny' })])
      expect(lines.filter((line) => line.client === revokedClient && line.event === 'revocation')).toEqual([expect.objectContaining({ user: 'support1', decision: 'allow' })])
      expect(lines.filter((line) => line.event === 'revocation' || line.event === 'refresh-reuse').map((line) => line.user)).not.toContain('anonymous')
    } finally {
      await reused.close()
      await revoked.close()
    }
  })
})

describe("an admin's response reaches the reader's AI tools at their next refresh", () => {
  const { state, oauthLines, logText } = ownServer('memory')

  test("a consent without the reader's own user-pool session grants nothing: sign in again", async () => {
    const idOnly = amplifyCookieHeader('leads1', await signInIdToken(cognitoUrl, 'leads1', PASSWORD))
    await expect(signToolIn(withCookies('leads1', 'allow', idOnly), { siteUrl: state.url })).rejects.toThrow(/answered 401: .*sign_in/)
    // Another reader's session under leads1's name: the pool says whose it is.
    const theirs = await signInSession(cognitoUrl, 'leads2', PASSWORD)
    const borrowed = sessionCookieHeader('leads1', { idToken: await signInIdToken(cognitoUrl, 'leads1', PASSWORD), refreshToken: theirs.refreshToken })
    await expect(signToolIn(withCookies('leads1', 'allow', borrowed), { siteUrl: state.url })).rejects.toThrow(/answered 401: .*sign_in/)
    const refusals = (await oauthLines('refusal', 2)).filter((line) => line.user === 'leads1' && line.event === 'refusal').map((line) => line.detail)
    expect(refusals).toEqual(['the sign-in cookies hold no user-pool session', "the kept sign-in is not the reader's"])
    expect(logText()).not.toContain(theirs.refreshToken)
  })

  const admin = new CognitoIdentityProviderClient({ region: LOCAL_COGNITO.region, endpoint: cognitoUrl, credentials: { accessKeyId: 'local', secretAccessKey: 'local' } })
  afterAll(() => admin.destroy())
  const { userPoolId } = LOCAL_COGNITO

  test('a global sign-out (AdminUserGlobalSignOut): the tool signed in through the browser gets invalid_grant', async () => {
    const tool = await signToolIn(inBrowser(page, 'leads4'), { siteUrl: state.url })
    try {
      const clientId = await clientIdOf(tool)
      const renewed = await refresh(state.metadata, clientId, await refreshTokenOf(tool))
      expect(renewed.status).toBe(200)
      await admin.send(new AdminUserGlobalSignOutCommand({ UserPoolId: userPoolId, Username: 'leads4' }))
      const refused = await refresh(state.metadata, clientId, renewed.body.refresh_token!)
      expect([refused.status, refused.body.error]).toEqual([400, 'invalid_grant'])
      // The grant is gone: the access token the last refresh gave stops at once too.
      expect(await mcpStatus(state.url, renewed.body.access_token)).toBe(401)
      const ended = (await oauthLines('refresh', 2)).filter((line) => line.client === clientId && line.event === 'refresh' && line.decision === 'deny')
      expect(ended).toEqual([expect.objectContaining({ user: 'leads4', event: 'refresh', detail: expect.stringContaining('global sign-out') })])
    } finally {
      await tool.close()
    }
  })

  test('a password reset (AdminResetUserPassword): the tool gets invalid_grant while the new password is pending', async () => {
    const tool = await signToolIn(withCookies('leads5'), { siteUrl: state.url })
    try {
      const clientId = await clientIdOf(tool)
      await admin.send(new AdminResetUserPasswordCommand({ UserPoolId: userPoolId, Username: 'leads5' }))
      const refused = await refresh(state.metadata, clientId, await refreshTokenOf(tool))
      expect([refused.status, refused.body.error]).toEqual([400, 'invalid_grant'])
      const ended = (await oauthLines('refresh')).filter((line) => line.client === clientId && line.event === 'refresh' && line.decision === 'deny')
      expect(ended).toEqual([expect.objectContaining({ user: 'leads5', detail: 'the reader must set a new password (RESET_REQUIRED)' })])
    } finally {
      // Other tests sign in as the seeded users: leads5 gets its password back.
      await admin.send(new AdminSetUserPasswordCommand({ UserPoolId: userPoolId, Username: 'leads5', Password: PASSWORD, Permanent: true }))
      await tool.close()
    }
  })
})
