/** @jest-environment node */
import { access } from '../../lib/access'
import { createViewerRequestHandler } from '../../edge/cloudfrontHandler'
import type { CloudFrontRequestEvent, CloudFrontRequest, CloudFrontResultResponse } from '../../edge/cloudfrontTypes'
import { securityHeaders } from '../../edge/securityHeaders'
import { createIdTokenVerifier } from '../../edge/tokenVerifier'
import { CLIENT, POOL, cookiesFor, idClaims, newKeyPair, signJwt } from './tokens'

const key = newKeyPair('k1')
/** The hash of one inline script (the empty one), as the build would find it. */
const SCRIPT_HASH = 'sha256-47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU='
const handler = createViewerRequestHandler(
  {
    access,
    assetRoutes: {},
    audiences: [],
    clientId: CLIENT,
    verifyIdToken: createIdTokenVerifier({ userPoolId: POOL, clientId: CLIENT, jwks: { keys: [key.jwk as never] }, fetchUnknownKeys: false }),
  },
  securityHeaders({ cognitoOrigin: 'https://cognito-idp.eu-west-2.amazonaws.com', scriptHashes: [SCRIPT_HASH] }),
  // The access log (console.log by default) is tested in accessLog.test.ts.
  () => {}
)

/** A viewer-request event as CloudFront sends it. */
function event(uri: string, querystring = '', cookie?: string): CloudFrontRequestEvent {
  return {
    Records: [
      {
        cf: {
          config: { eventType: 'viewer-request', distributionId: 'EDFDVBD6EXAMPLE' },
          request: {
            clientIp: '203.0.113.178',
            method: 'GET',
            uri,
            querystring,
            headers: {
              host: [{ key: 'Host', value: 'docs.example.com' }],
              ...(cookie ? { cookie: [{ key: 'Cookie', value: cookie }] } : {}),
            },
          },
        },
      },
    ],
  }
}

test('an allowed page passes through to the origin with the uri of the decided file', async () => {
  const cookie = cookiesFor('support1', signJwt(idClaims('support1'), key))
  const result = (await handler(event('/docs/support-twilio/diagram', 'a=1', cookie))) as CloudFrontRequest
  expect(result.uri).toBe('/docs/support-twilio/diagram.html')
  expect(result.querystring).toBe('a=1')
  expect(result.headers.host[0].value).toBe('docs.example.com')
  expect(result.headers.cookie[0].value).toBe(cookie)
})

test("a file whose name holds a space, an accent or a plus goes to the origin as CloudFront gave it, percent-encoded: S3 reads the path decoded, and a bare `+` as a space (a review)", async () => {
  const cookie = cookiesFor('support1', signJwt(idClaims('support1'), key))
  const asked = '/docs/support-twilio/call%20flow%20%C3%A9t%C3%A9+v2%5B1%5D.png'
  const result = (await handler(event(asked, '', cookie))) as CloudFrontRequest
  expect(result.uri).toBe('/docs/support-twilio/call%20flow%20%C3%A9t%C3%A9%2Bv2%5B1%5D.png')
  expect(decodeURIComponent(result.uri)).toBe('/docs/support-twilio/call flow \u00e9t\u00e9+v2[1].png')
})

test('no token: a 302 to /login with the path, uncacheable, with security headers', async () => {
  const result = (await handler(event('/docs/internal/intro', 'x=1'))) as CloudFrontResultResponse
  expect(result.status).toBe('302')
  expect(result.headers?.location[0].value).toBe('/login?next=%2Fdocs%2Finternal%2Fintro%3Fx%3D1')
  expect(result.headers?.['cache-control'][0].value).toBe('no-store')
  expect(result.headers?.['content-security-policy'][0].value).toContain('connect-src \'self\' https://cognito-idp.eu-west-2.amazonaws.com')
  expect(result.headers?.['strict-transport-security'][0].value).toContain('max-age=')
  // Inline scripts only by the build's hashes.
  expect(result.headers?.['content-security-policy'][0].value).toContain(`script-src 'self' '${SCRIPT_HASH}' 'wasm-unsafe-eval';`)
})

test('denied asset: 403; denied page: 302 to /unauthorized', async () => {
  const cookie = cookiesFor('support1', signJwt(idClaims('support1'), key))
  const asset = (await handler(event('/docs/internal/images/data-lake-overview.svg', '', cookie))) as CloudFrontResultResponse
  expect(asset.status).toBe('403')
  const page = (await handler(event('/docs/internal/intro', '', cookie))) as CloudFrontResultResponse
  expect(page.status).toBe('302')
  expect(page.headers?.location[0].value).toBe('/unauthorized?from=%2Fdocs%2Finternal%2Fintro')
})

test('a path that cannot be read safely: 400', async () => {
  const result = (await handler(event('/docs/%E0%A4%A'))) as CloudFrontResultResponse
  expect(result.status).toBe('400')
})
