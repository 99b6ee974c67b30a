/**
 * The authorizer: decisions per second on one core with a warm JWKS, latency percentiles, and
 * the Lambda@Edge bundle size. Tokens are minted with a key made here; the verifier is the real one.
 */
import fs from 'node:fs'
import path from 'node:path'
import zlib from 'node:zlib'
import { performance } from 'node:perf_hooks'
import { access } from '../lib/access'
import { authorizeRequest } from '../edge/authorizeRequest'
import { createIdTokenVerifier } from '../edge/tokenVerifier'
import { sitePaths } from '../pipeline/steps/paths'
import { CLIENT, POOL, cookiesFor, idClaims, newKeyPair, signJwt } from '../__tests__/edge/tokens'
import { median, percentile, type Figure } from './table'

export async function edgeFigures(root = '.', durationMs = 3000): Promise<Figure[]> {
  const built = sitePaths(root)
  const key = newKeyPair('bench')
  const deps = {
    access,
    assetRoutes: fs.existsSync(built.assetRoutes) ? JSON.parse(fs.readFileSync(built.assetRoutes, 'utf8')) : {},
    clientId: CLIENT,
    verifyIdToken: createIdTokenVerifier({ userPoolId: POOL, clientId: CLIENT, jwks: { keys: [key.jwk as never] }, fetchUnknownKeys: false }),
  }
  const cookies = ['leads1', 'internal1', 'admin'].map((user) => [cookiesFor(user, signJwt(idClaims(user), key))])
  const paths = ['/docs/leads/intro', '/docs/internal/data-lake/overview', '/docs/support-twilio/diagram', '/_next/static/chunks/pages/docs/leads/intro-0123456789abcdef.js']
  // Warm the JWKS cache and the JIT.
  for (let i = 0; i < 2000; i++) await authorizeRequest({ path: paths[i % paths.length], query: '', cookieHeaders: cookies[i % cookies.length] }, deps)

  const latencies: number[] = []
  const started = performance.now()
  let count = 0
  while (performance.now() - started < durationMs) {
    const t0 = performance.now()
    await authorizeRequest({ path: paths[count % paths.length], query: '', cookieHeaders: cookies[count % cookies.length] }, deps)
    latencies.push(performance.now() - t0)
    count++
  }
  const seconds = (performance.now() - started) / 1000
  const method = `authorizeRequest, 3 readers' ID tokens (verified once, then remembered), warm JWKS, one core, ${durationMs / 1000} s loop`

  // Every request with a token never seen before: a full RS256 verification each time.
  const fresh = Array.from({ length: 3000 }, (_, i) => [cookiesFor('leads1', signJwt(idClaims('leads1', { jti: `t${i}` }), key))])
  const freshStarted = performance.now()
  for (const cookie of fresh) await authorizeRequest({ path: '/docs/leads/intro', query: '', cookieHeaders: cookie }, deps)
  const freshPerSecond = Math.round(fresh.length / ((performance.now() - freshStarted) / 1000))

  const figures: Figure[] = [
    { group: 'edge', name: 'decisions per second, new token each time', value: freshPerSecond, unit: '/s', method: '3,000 distinct valid ID tokens, each verified (RS256), warm JWKS, one core' },
    { group: 'edge', name: 'decisions per second', value: Math.round(count / seconds), unit: '/s', method },
    { group: 'edge', name: 'decision latency p50', value: +(median(latencies) * 1000).toFixed(1), unit: 'µs', method },
    { group: 'edge', name: 'decision latency p99', value: +(percentile(latencies, 99) * 1000).toFixed(1), unit: 'µs', method },
  ]
  const bundle = path.join(built.edgeDist, 'index.js')
  if (fs.existsSync(bundle)) {
    const code = fs.readFileSync(bundle)
    figures.push({ group: 'edge', name: 'bundle size (edge/dist/index.js)', value: +(code.length / 1024).toFixed(1), unit: 'kB', method: 'esbuild, minified' })
    figures.push({ group: 'edge', name: 'bundle size zipped', value: +(zlib.deflateRawSync(code, { level: 9 }).length / 1024).toFixed(1), unit: 'kB', method: 'deflate (as in the Lambda zip); limit 1,024 kB' })
  }
  return figures
}
