/** The shipped Lambda@Edge bundle (edge/dist/index.js of the audit build) with real local-Cognito tokens. */
import path from 'node:path'
import { amplifyCookieHeader, signInIdToken } from '../scripts/audit/cognitoSession'
import { PASSWORD, siteEnv } from './siteEnv'

const { dir, cognitoUrl } = siteEnv()
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { handler } = require(path.join(dir, 'edge/dist/index.js'))

const event = (uri: string, cookie?: string) => ({
  Records: [{ cf: { config: { eventType: 'viewer-request' }, request: { clientIp: '127.0.0.1', method: 'GET', uri, querystring: '', headers: cookie ? { cookie: [{ key: 'Cookie', value: cookie }] } : {} } } }],
})

test('the bundle serves internal1 the internal docs and sends leads1 to /unauthorized', async () => {
  const internal = amplifyCookieHeader('internal1', await signInIdToken(cognitoUrl, 'internal1', PASSWORD))
  const leads = amplifyCookieHeader('leads1', await signInIdToken(cognitoUrl, 'leads1', PASSWORD))
  expect((await handler(event('/docs/internal/intro', internal))).uri).toBe('/docs/internal/intro.html')
  const denied = await handler(event('/docs/internal/intro', leads))
  expect(denied.status).toBe('302')
  expect(denied.headers.location[0].value).toBe('/unauthorized?from=%2Fdocs%2Finternal%2Fintro')
  expect((await handler(event('/docs/internal/intro'))).status).toBe('302')
})

test('the bundle carries the build\'s asset routes: framework chunks are public', async () => {
  const fs = await import('node:fs')
  const framework = fs.readdirSync(path.join(dir, 'out/_next/static/chunks')).find((name: string) => name.startsWith('framework-'))
  expect((await handler(event(`/_next/static/chunks/${framework}`))).uri).toBe(`/_next/static/chunks/${framework}`)
})
