/**
 * Runs the AI tools' sign-in as it ships to Lambda, as a check: loads the built bundle
 * (pipeline/steps/buildMcp.ts) as the runtime does, with the deployment's wiring (the table named by
 * DOCS_OAUTH_TABLE, here on dynalite; the keys from the secret named by DOCS_OAUTH_KEYS_SECRET,
 * through a stand-in of the Parameters and Secrets extension), drives it with function URL
 * events, and prints what it saw as one JSON line.
 *
 *   NODE_PATH=node_modules node --import tsx mcp/oauth/lambdaCheck.ts <bundle index.js>
 *
 * A script rather than a jest test because the bundle holds oidc-provider, which needs Node's own
 * module loader; __tests__/mcp/oauthLambda.test.ts spawns it and asserts on its output. Everything
 * it starts listens on 127.0.0.1, on a free port, and is closed before it exits.
 */
import crypto from 'node:crypto'
import { createRequire } from 'node:module'
import http from 'node:http'
import type { AddressInfo, Server } from 'node:net'
import { CreateTableCommand, DynamoDBClient, ScanCommand } from '@aws-sdk/client-dynamodb'
import type { FunctionUrlEvent, FunctionUrlResult } from '../functionUrl'
import { createTableInput } from './store/tableSchema'

// eslint-disable-next-line @typescript-eslint/no-require-imports
const dynalite = require('dynalite') as (options: { createTableMs: number }) => Server

const HOST = 'docs.example.com'
const TABLE = 'docs-oauth-check'
const SECRET_ARN = 'arn:aws:secretsmanager:us-east-1:111111111111:secret:docs-oauth-keys-AbCdEf'
const SESSION_TOKEN = 'check-session-token'

const listen = (server: Server) => new Promise<string>((resolve) => server.listen(0, '127.0.0.1', () => resolve(String((server.address() as AddressInfo).port))))
const close = (server: Server) => new Promise<void>((resolve) => server.close(() => resolve()))

interface Bundle {
  createHandler(deps: Record<string, unknown>): { handle(event: FunctionUrlEvent): Promise<FunctionUrlResult>; close(): Promise<void> }
}

async function main(bundleFile: string) {
  const database = dynalite({ createTableMs: 0 })
  const databasePort = await listen(database)
  // The Parameters and Secrets extension's API: the secret by ARN, for the function's session token only.
  const secretReads: string[] = []
  const extension = http.createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://localhost')
    secretReads.push(url.searchParams.get('secretId') ?? '')
    if (request.headers['x-aws-parameters-secrets-token'] !== SESSION_TOKEN || url.searchParams.get('secretId') !== SECRET_ARN) return void response.writeHead(403).end()
    response.writeHead(200, { 'content-type': 'application/json' })
    response.end(JSON.stringify({ ARN: SECRET_ARN, SecretString: JSON.stringify({ current: crypto.randomBytes(48).toString('base64url') }) }))
  })
  const extensionPort = await listen(extension)
  Object.assign(process.env, {
    DOCS_OAUTH_TABLE: TABLE,
    DOCS_OAUTH_KEYS_SECRET: SECRET_ARN,
    AWS_SESSION_TOKEN: SESSION_TOKEN,
    PARAMETERS_SECRETS_EXTENSION_HTTP_PORT: extensionPort,
    AWS_ENDPOINT_URL_DYNAMODB: `http://127.0.0.1:${databasePort}`,
    AWS_REGION: 'us-east-1',
    AWS_ACCESS_KEY_ID: 'local',
    AWS_SECRET_ACCESS_KEY: 'local',
  })
  const client = new DynamoDBClient({})
  await client.send(new CreateTableCommand(createTableInput(TABLE)))

  const bundle = createRequire(__filename)(bundleFile) as Bundle
  const server = bundle.createHandler({ files: { read: async () => null }, log: () => undefined })
  const call = (method: string, rawPath: string, options: { query?: string; json?: unknown; cookies?: string[]; authorization?: string } = {}) =>
    server.handle({
      version: '2.0',
      rawPath,
      rawQueryString: options.query ?? '',
      headers: {
        'x-docs-viewer-host': HOST,
        host: 'abc.lambda-url.us-east-1.on.aws',
        accept: 'application/json',
        ...(options.json === undefined ? {} : { 'content-type': 'application/json' }),
        ...(options.authorization ? { 'x-docs-authorization': options.authorization } : {}),
      },
      ...(options.cookies ? { cookies: options.cookies } : {}),
      ...(options.json === undefined ? {} : { body: Buffer.from(JSON.stringify(options.json)).toString('base64'), isBase64Encoded: true }),
      requestContext: { http: { method } },
    })
  const storedModels = async () => {
    const { Items = [] } = await client.send(new ScanCommand({ TableName: TABLE }))
    return [...new Set(Items.map((item) => String(item.pk?.S).split(':')[0]))].sort()
  }
  const json = (result: FunctionUrlResult) => JSON.parse(Buffer.from(result.body, result.isBase64Encoded ? 'base64' : 'utf8').toString('utf8'))

  const redirectUri = 'http://127.0.0.1:33418/callback'
  const metadata = await call('GET', '/.well-known/oauth-authorization-server/oauth')
  const registered = await call('POST', '/oauth/reg', { json: { redirect_uris: [redirectUri], client_name: 'Check tool', token_endpoint_auth_method: 'none', grant_types: ['authorization_code', 'refresh_token'], response_types: ['code'] } })
  const refused = await call('POST', '/oauth/reg', { json: { redirect_uris: ['https://evil.example/cb'], token_endpoint_auth_method: 'none' } })
  const clientId = json(registered).client_id as string
  const verifier = crypto.randomBytes(32).toString('base64url')
  const authorizationQuery = new URLSearchParams({
      client_id: clientId,
      response_type: 'code',
      redirect_uri: redirectUri,
      scope: 'docs:read offline_access',
      resource: `https://${HOST}/mcp`,
      code_challenge: crypto.createHash('sha256').update(verifier).digest('base64url'),
      code_challenge_method: 'S256',
      state: 'check',
    }).toString()
  // A visitor not signed in to the site is sent to sign in first, and nothing is stored for them.
  const anonymous = await call('GET', '/oauth/auth', { query: authorizationQuery })
  const storedForAnonymous = await storedModels()
  // The reader's sign-in cookies, as their browser sends them (the test makes them: DOCS_CHECK_READER_COOKIES).
  const readerCookies = (process.env.DOCS_CHECK_READER_COOKIES ?? '').split('; ').filter(Boolean)
  const authorize = await call('GET', '/oauth/auth', { query: authorizationQuery, cookies: readerCookies })
  const interactionPath = new URL(authorize.headers.location ?? '/', `https://${HOST}`).pathname
  const cookies = (authorize.cookies ?? []).map((cookie) => cookie.split(';')[0])
  const interaction = await call('GET', interactionPath, { cookies })
  const details = await call('GET', `${interactionPath}/details`, { cookies })
  const resourceMetadata = await call('GET', '/.well-known/oauth-protected-resource/mcp')
  const opaque = await call('POST', '/mcp', { json: { jsonrpc: '2.0', id: 1, method: 'tools/list' }, authorization: 'Bearer not-a-token-the-site-issued' })

  const seen = {
    metadata: { status: metadata.statusCode, issuer: json(metadata).issuer, registration: json(metadata).registration_endpoint, pkce: json(metadata).code_challenge_methods_supported },
    registered: { status: registered.statusCode, hasClientId: typeof clientId === 'string' && clientId.length > 0 },
    refused: { status: refused.statusCode, error: json(refused).error },
    anonymous: { status: anonymous.statusCode, location: (anonymous.headers.location ?? '').split('?')[0], next: new URLSearchParams((anonymous.headers.location ?? '').split('?')[1] ?? '').get('next') === `/oauth/auth?${authorizationQuery}`, stored: storedForAnonymous },
    authorize: { status: authorize.statusCode, location: interactionPath.replace(/[^/]+$/, '<uid>'), cookieNames: cookies.map((cookie) => cookie.split('=')[0]).sort(), secure: (authorize.cookies ?? []).every((cookie) => /;\s*secure/i.test(cookie)) },
    interaction: { status: interaction.statusCode, location: (interaction.headers.location ?? '').replace(/uid=.*$/, 'uid=<uid>') },
    details: { status: details.statusCode, error: json(details).error },
    resourceMetadata: { status: resourceMetadata.statusCode, authorizationServers: json(resourceMetadata).authorization_servers },
    opaqueToken: { status: opaque.statusCode },
    storedModels: await storedModels(),
    secretReads: [...new Set(secretReads)],
  }
  await server.close()
  client.destroy()
  await Promise.all([close(database), close(extension)])
  process.stdout.write(`${JSON.stringify(seen)}\n`)
}

const [bundleFile] = process.argv.slice(2)
if (!bundleFile) {
  process.stderr.write('usage: NODE_PATH=node_modules node --import tsx mcp/oauth/lambdaCheck.ts <bundle index.js>\n')
  process.exit(2)
}
main(bundleFile).then(
  () => process.exit(0),
  (error: unknown) => {
    process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`)
    process.exit(1)
  },
)
