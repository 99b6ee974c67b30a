/** @jest-environment node */
/**
 * Allow means allow: whatever scopes a real tool asks for, the reader's Allow gives it a code and a
 * token for /mcp; a request the server would not grant is refused before the consent page, with an
 * error that names the problem. Against the real authorization server (a harness process).
 */
import { authorize, registeredClient, startHarness, token, LOOPBACK, type Harness } from './harness'

// Generous: each harness is a Node process that loads oidc-provider, slow on a busy machine.
jest.setTimeout(180_000)

let harness: Harness
let resource: string
beforeAll(async () => {
  harness = await startHarness()
  resource = `${harness.url}/mcp`
})
afterAll(async () => {
  await harness?.stop()
})

/**
 * What real tools send. The MCP SDK sends `docs:read offline_access` with prompt=consent (the
 * resource's scope, plus offline_access, which the server offers); others send less, or no prompt.
 */
test.each([
  ['no scope', {}, { refreshToken: false }],
  ['offline_access alone', { scope: 'offline_access' }, { refreshToken: true }],
  ['offline_access alone, with prompt=consent', { scope: 'offline_access', prompt: 'consent' }, { refreshToken: true }],
  ['docs:read', { scope: 'docs:read' }, { refreshToken: false }],
  ['docs:read offline_access', { scope: 'docs:read offline_access' }, { refreshToken: true }],
  ['docs:read offline_access, with prompt=consent (the MCP SDK)', { scope: 'docs:read offline_access', prompt: 'consent' }, { refreshToken: true }],
  ['openid docs:read', { scope: 'openid docs:read' }, { refreshToken: false }],
  ['openid offline_access', { scope: 'openid offline_access' }, { refreshToken: true }],
])('a tool that asks for %s, once its reader allows it, gets a code and a docs:read token for /mcp', async (_what, params, { refreshToken }) => {
  for (const withResource of [true, false]) {
    const clientId = await registeredClient(harness)
    const { consentShown, callback, verifier } = await authorize(harness, clientId, { ...params, resource: withResource ? resource : undefined })
    expect(consentShown).toBe(true)
    expect([callback.get('error'), callback.get('error_description')]).toEqual([null, null])
    const code = callback.get('code')
    expect(code).toEqual(expect.any(String))
    const exchanged = await token(harness, { grant_type: 'authorization_code', code: code!, code_verifier: verifier, redirect_uri: LOOPBACK, client_id: clientId, ...(withResource ? { resource } : {}) })
    expect([exchanged.status, exchanged.body.error_description]).toEqual([200, undefined])
    expect(exchanged.body.scope.split(' ')).toContain('docs:read')
    expect(exchanged.body.access_token).toEqual(expect.any(String))
    // A refresh token goes to the tool that asked for offline_access, and works.
    expect(typeof exchanged.body.refresh_token === 'string').toBe(refreshToken)
    if (refreshToken) {
      const refreshed = await token(harness, { grant_type: 'refresh_token', refresh_token: exchanged.body.refresh_token, client_id: clientId })
      expect([refreshed.status, refreshed.body.scope?.split(' ').includes('docs:read')]).toEqual([200, true])
    }
  }
})

test.each([
  ['an unknown scope', { scope: 'mcp:tools' }, 'invalid_scope', /grants openid, offline_access, docs:read only/],
  ['an unknown scope beside docs:read', { scope: 'docs:read admin' }, 'invalid_scope', /grants openid, offline_access, docs:read only/],
  ['OpenID profile claims', { scope: 'openid profile email' }, 'invalid_scope', /grants openid, offline_access, docs:read only/],
  ['another resource', { scope: 'docs:read', resource: 'https://evil.example/api' }, 'invalid_target', /issues tokens for .*\/mcp only/],
  ['an id_token response', { scope: 'openid docs:read', response_type: 'code id_token', nonce: 'n' }, 'unsupported_response_type', /unsupported response_type requested/],
])('a request for %s is refused before the consent page, naming the problem', async (_what, params, error, description) => {
  const clientId = await registeredClient(harness)
  const { consentShown, callback } = await authorize(harness, clientId, params)
  expect(consentShown).toBe(false)
  expect([callback.get('error'), callback.get('code')]).toEqual([error, null])
  expect(callback.get('error_description')).toMatch(description)
})

test('a tool that registered without the refresh_token grant gets no refresh token, even if it asks for offline_access', async () => {
  const clientId = await registeredClient(harness, { grant_types: ['authorization_code'] })
  const { callback, verifier } = await authorize(harness, clientId, { scope: 'docs:read offline_access' })
  const exchanged = await token(harness, { grant_type: 'authorization_code', code: callback.get('code')!, code_verifier: verifier, redirect_uri: LOOPBACK, client_id: clientId })
  expect([exchanged.status, exchanged.body.refresh_token, exchanged.body.scope]).toEqual([200, undefined, 'docs:read'])
})

test('Deny still denies', async () => {
  const clientId = await registeredClient(harness)
  const { consentShown, callback } = await authorize(harness, clientId, { scope: 'docs:read' }, { decision: 'deny' })
  expect(consentShown).toBe(true)
  expect([callback.get('error'), callback.get('code')]).toEqual(['access_denied', null])
})
