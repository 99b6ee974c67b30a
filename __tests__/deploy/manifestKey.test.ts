/**
 * @jest-environment node
 *
 * The deploy's manifest names every file of the site, removed ones too; no request may read it,
 * a full-access reader's included. It is safe because the edge only ever serves a key whose last
 * segment has an extension, and the manifest's key has none.
 */
import fc from 'fast-check'
import path from 'node:path'
import { access } from '../../lib/access'
import { objectKeyFor } from '../../lib/access/objectKey'
import { authorizeRequest, type AuthorizerDeps } from '../../edge/authorizeRequest'
import { audienceSummaries, planAggregates } from '../../lib/access/planAggregates'
import { scanContent } from '../../pipeline/content/contentSource'
import { createIdTokenVerifier } from '../../edge/tokenVerifier'
import { MANIFEST_KEY } from '../../scripts/deploy/deployManifest'
import { CLIENT, POOL, cookiesFor, idClaims, newKeyPair, signJwt } from '../edge/tokens'

const key = newKeyPair('prod-key-1')
const plan = planAggregates({ access, routes: scanContent(path.resolve(__dirname, '../..')).pages.map((page) => page.route) })
const deps: AuthorizerDeps = {
  access,
  assetRoutes: {},
  audiences: audienceSummaries(plan),
  clientId: CLIENT,
  verifyIdToken: createIdTokenVerifier({ userPoolId: POOL, clientId: CLIENT, jwks: { keys: [key.jwk as never] }, fetchUnknownKeys: false }),
}
const manifestObject = '/' + MANIFEST_KEY

const spellings = [
  `/${MANIFEST_KEY}`, `/${MANIFEST_KEY}/`, `/${MANIFEST_KEY}.html`, `/${MANIFEST_KEY.toUpperCase()}`, `/${MANIFEST_KEY}.`, `/${MANIFEST_KEY}?x=1`,
  '/_deploy/./manifest', '/docs/../_deploy/manifest', '/_deploy//manifest', '/_deploy%2Fmanifest', '/_deploy/%6danifest', '/_deploy/manifest%00', '/_deploy/manifest/index',
]

test.each(spellings)('%s is never served as the manifest, even to a full-access reader', async (spelling) => {
  const [pathPart, query = ''] = spelling.split('?')
  for (const cookie of [cookiesFor('admin', signJwt(idClaims('admin'), key)), null]) {
    const outcome = await authorizeRequest({ path: pathPart, query, cookieHeaders: cookie ? [cookie] : [] }, deps)
    expect(outcome).not.toEqual({ kind: 'serve', objectKey: manifestObject })
  }
})

test('no request path maps to a key without an extension, so none maps to the manifest', () => {
  const segment = fc.oneof(fc.constantFrom('_deploy', 'manifest', 'MANIFEST', '.', '..', '', '%2e', '%2F', 'index', 'manifest.', 'x.html', '%6d'), fc.string({ maxLength: 6 }))
  fc.assert(
    fc.property(fc.array(segment, { maxLength: 5 }), fc.boolean(), (segments, trailing) => {
      const objectKey = objectKeyFor('/' + segments.join('/') + (trailing ? '/' : ''))
      if (objectKey === null) return
      expect(objectKey).not.toBe(manifestObject)
      expect(objectKey.split('/').pop()).toContain('.')
    }),
    { numRuns: 5000 }
  )
})
