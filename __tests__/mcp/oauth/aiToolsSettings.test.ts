/** @jest-environment node */
import shipped from '../../../access.config'
import { AiToolsConfigError, aiToolsSettings, isLoopbackRedirect, redirectProblem } from '../../../mcp/oauth/aiToolsSettings'

test('the shipped settings: hosted apps listed exactly, 15-minute access tokens, 30-day connections', () => {
  const settings = aiToolsSettings(shipped.aiTools)
  expect(settings.hostedRedirectUris).toContain('https://claude.ai/api/mcp/auth_callback')
  expect(settings.accessTokenSeconds).toBe(15 * 60)
  expect(settings.refreshTokenSeconds).toBe(30 * 86400)
})

test.each([
  [{ hostedRedirectUris: ['http://claude.ai/callback'] }, /must use https/],
  [{ hostedRedirectUris: ['claude.ai/callback'] }, /is not a URL/],
  [{ hostedRedirectUris: ['https://claude.ai/callback#x'] }, /no fragment/],
  [{ hostedRedirectUris: [], accessTokenMinutes: 60 }, /accessTokenMinutes must be a whole number from 1 to 15/],
  [{ hostedRedirectUris: [], accessTokenMinutes: 0 }, /accessTokenMinutes/],
  [{ hostedRedirectUris: [], refreshTokenDays: 1000 }, /refreshTokenDays/],
  // Read as absent, these would give the defaults in place of what the admin set.
  [{ hostedRedirectUris: [], accessTokenMinute: 5 }, /unknown field "accessTokenMinute" \(did you mean "accessTokenMinutes"\?\); the fields are hostedRedirectUris, accessTokenMinutes, refreshTokenDays/],
  [{ hostedRedirectUri: ['https://claude.ai/api/mcp/auth_callback'] }, /unknown field "hostedRedirectUri" \(did you mean "hostedRedirectUris"\?\)/],
  [{ hostedRedirectUris: [], refreshTokenDays: null }, /refreshTokenDays must be a whole number from 1 to 365, not null/],
  [{ hostedRedirectUris: [], accessTokenMinutes: null }, /accessTokenMinutes must be a whole number from 1 to 15 .*, not null/],
  // Matched exactly: a pattern would match no app.
  [{ hostedRedirectUris: ['https://*.example.com/cb'] }, /hosted redirect URI "https:\/\/\*\.example\.com\/cb" holds "\*": each is matched exactly/],
  [{ hostedRedirectUris: ['https://example.com/*'] }, /holds "\*"/],
  [{ hostedRedirectUris: [42] }, /hostedRedirectUris holds 42, which is not a URL/],
])('a bad setting %j is refused, naming it', (config, message) => {
  expect(() => aiToolsSettings(config as never)).toThrow(AiToolsConfigError)
  expect(() => aiToolsSettings(config as never)).toThrow(message)
})

test('redirects: a loopback address on any port, or a listed hosted app; nothing else', () => {
  const settings = aiToolsSettings({ hostedRedirectUris: ['https://chatgpt.com/connector_platform_oauth_redirect'] })
  for (const uri of ['http://127.0.0.1:33418/', 'http://localhost:5555/callback', 'http://[::1]:8080/cb']) expect([uri, isLoopbackRedirect(uri)]).toEqual([uri, true])
  for (const uri of ['https://127.0.0.1/cb', 'http://127.0.0.1.evil.example/cb', 'http://10.0.0.1/cb', 'javascript:alert(1)']) expect([uri, isLoopbackRedirect(uri)]).toEqual([uri, false])
  expect(redirectProblem(['http://127.0.0.1:1/cb', 'https://chatgpt.com/connector_platform_oauth_redirect'], settings)).toBeNull()
  expect(redirectProblem(['https://chatgpt.com/connector_platform_oauth_redirect/../evil'], settings)).toMatch(/neither a loopback address nor a hosted app/)
  expect(redirectProblem(['https://evil.example/cb'], settings)).toContain('https://evil.example/cb')
})
