/** @jest-environment node */
/**
 * The AI tools' sign-in as it ships to Lambda: the bundle (pipeline/steps/buildMcp.ts), with the
 * deployment's wiring (the table from DOCS_OAUTH_TABLE on dynalite, the keys from the secret through
 * a stand-in of the Parameters and Secrets extension), driven with function URL events by
 * mcp/oauth/lambdaCheck.ts in a process of its own (oidc-provider needs Node's own module loader).
 */
import { execFile } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { promisify } from 'node:util'
import { access } from '../../lib/access'
import { audienceSummaries, planAggregates } from '../../lib/access/planAggregates'
import { scanContent } from '../../pipeline/content/contentSource'
import { buildMcp } from '../../pipeline/steps/buildMcp'
import { sitePaths } from '../../pipeline/steps/paths'
import { readBuiltFor } from '../../lib/auth/builtFor'
import { LOCAL_COGNITO } from '../../lib/auth/authSettings'
import { cognitoLocalKeyPair, cookiesFor, idClaims, signJwt } from '../edge/tokens'

/** A reader's site sign-in for a build made for the local Cognito: an ID token signed with its key. */
const readerCookies = (username: string) =>
  cookiesFor(username, signJwt(idClaims(username, { iss: `https://cognito-idp.${LOCAL_COGNITO.region}.amazonaws.com/${LOCAL_COGNITO.userPoolId}`, aud: LOCAL_COGNITO.userPoolClientId }), cognitoLocalKeyPair()), LOCAL_COGNITO.userPoolClientId)

jest.setTimeout(120_000)

const root = path.resolve(__dirname, '../..')
let dir: string
let file: string

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'docs-mcp-oauth-'))
  const mode = process.env.DOCS_AUTH_MODE
  process.env.DOCS_AUTH_MODE = 'local'
  try {
    const plan = planAggregates({ access, routes: scanContent(root).pages.map((page) => page.route) })
    ;({ file } = await buildMcp({ paths: { ...sitePaths(root), mcpDist: dir }, assetRoutes: {}, audiences: audienceSummaries(plan), scriptHashes: [] }))
  } finally {
    if (mode === undefined) delete process.env.DOCS_AUTH_MODE
    else process.env.DOCS_AUTH_MODE = mode
  }
})
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }))

test('the build names the user pool beside the bundle, for the stack\'s IAM policy', () => {
  expect(readBuiltFor(dir)).toEqual({ mode: 'local', region: 'eu-west-2', userPoolId: 'eu-west-2_LocalDocs' })
})

test('metadata, registration, the authorization request and its cookies, the consent API and /mcp, through function URL events', async () => {
  const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', 'mcp/oauth/lambdaCheck.ts', file], {
    cwd: root,
    encoding: 'utf8',
    timeout: 90_000,
    // The bundle leaves the AWS SDK to the runtime; here the project's copy stands in for it.
    env: { ...process.env, NODE_PATH: path.join(root, 'node_modules'), DOCS_CHECK_READER_COOKIES: readerCookies('leads1') },
  })
  expect(JSON.parse(stdout.trim().split('\n').pop()!)).toEqual({
    metadata: { status: 200, issuer: 'https://docs.example.com/oauth', registration: 'https://docs.example.com/oauth/reg', pkce: ['S256'] },
    registered: { status: 201, hasClientId: true },
    refused: { status: 400, error: 'invalid_redirect_uri' },
    // Not signed in to the site: to the sign-in page and back, with no interaction stored.
    anonymous: { status: 303, location: '/login', next: true, stored: ['Client', 'RegistrationAccessToken'] },
    // Signed in: the library's cookies come back one by one in the function URL's list, every one secure.
    authorize: { status: 303, location: '/oauth/interaction/<uid>', cookieNames: ['_interaction', '_interaction.sig', '_interaction_resume', '_interaction_resume.sig'], secure: true },
    interaction: { status: 303, location: '/authorize?uid=<uid>' },
    // The consent API with the interaction's cookies but no site sign-in: sign in first.
    details: { status: 401, error: 'sign_in' },
    resourceMetadata: { status: 200, authorizationServers: ['https://docs.example.com/oauth'] },
    opaqueToken: { status: 401 },
    // Each model under its own name (the bundle keeps oidc-provider's class names).
    storedModels: ['Client', 'Interaction', 'RegistrationAccessToken'],
    secretReads: ['arn:aws:secretsmanager:us-east-1:111111111111:secret:docs-oauth-keys-AbCdEf'],
  })
})
