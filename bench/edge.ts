/**
 * The authorizer: decisions per second on one core with a warm JWKS, with the access log off and
 * on (written to /dev/null by the local server's writer), latency percentiles, and the Lambda@Edge
 * bundle size. Tokens are minted with a key made here; the verifier is the real one.
 */
import fs from 'node:fs'
import path from 'node:path'
import zlib from 'node:zlib'
import { performance } from 'node:perf_hooks'
import { access } from '../lib/access'
import type { AccessLogSink } from '../edge/accessLog'
import { authorizeRequest } from '../edge/authorizeRequest'
import { createIdTokenVerifier } from '../edge/tokenVerifier'
import { sitePaths } from '../pipeline/steps/paths'
import { openAccessLog } from '../scripts/server/accessLogFile'
import { readAudiencesFile } from '../pipeline/steps/audiencesFile'
import { CLIENT, POOL, cookiesFor, idClaims, newKeyPair, signJwt } from '../__tests__/edge/tokens'
import { median, percentile, type Figure } from './table'

export async function edgeFigures(root = '.', durationMs = 3000): Promise<Figure[]> {
  const built = sitePaths(root)
  const key = newKeyPair('bench')
  const deps = {
    access,
    assetRoutes: fs.existsSync(built.assetRoutes) ? JSON.parse(fs.readFileSync(built.assetRoutes, 'utf8')) : {},
    audiences: fs.existsSync(built.audiences) ? readAudiencesFile(built.audiences) : [],
    clientId: CLIENT,
    verifyIdToken: createIdTokenVerifier({ userPoolId: POOL, clientId: CLIENT, jwks: { keys: [key.jwk as never] }, fetchUnknownKeys: false }),
  }
  const cookies = ['leads1', 'internal1', 'admin'].map((user) => [cookiesFor(user, signJwt(idClaims(user), key))])
  const paths = ['/docs/leads/intro', '/docs/internal/data-lake/overview', '/docs/support-twilio/diagram', '/_next/static/chunks/pages/docs/leads/intro-0123456789abcdef.js']
  // The access log as the local server writes it (one synchronous write per line), to /dev/null
  // so that the terminal's speed is not measured; the edge writes the same line with console.log.
  const devNull = openAccessLog('/dev/null')!
  let lines = 0
  const writeLine: AccessLogSink = (record) => {
    lines++
    devNull.write(record)
  }
  const decide = (i: number, log?: AccessLogSink) =>
    authorizeRequest({ path: paths[i % paths.length], query: '', cookieHeaders: cookies[i % cookies.length] }, deps, log)
  // Warm the JWKS cache and the JIT, with and without the log.
  for (let i = 0; i < 4000; i++) await decide(i, i % 2 ? writeLine : undefined)

  // Log off and log on take turns in 250 ms slices, so a busy moment of the machine costs both alike.
  const SLICE_MS = 250
  const latencies: number[] = []
  const count = { off: 0, on: 0 }
  const elapsed = { off: 0, on: 0 }
  lines = 0
  for (let slice = 0; slice < (2 * durationMs) / SLICE_MS; slice++) {
    const mode = slice % 2 === 0 ? 'off' : 'on'
    const log = mode === 'on' ? writeLine : undefined
    const started = performance.now()
    while (performance.now() - started < SLICE_MS) {
      const t0 = performance.now()
      await decide(count[mode], log)
      if (mode === 'off') latencies.push(performance.now() - t0)
      count[mode]++
    }
    elapsed[mode] += performance.now() - started
  }
  devNull.close()
  const perSecond = (mode: 'off' | 'on') => Math.round(count[mode] / (elapsed[mode] / 1000))
  const method = `authorizeRequest, 3 readers' ID tokens (verified once, then remembered), warm JWKS, one core, ${durationMs / 1000} s`
  const logged = `${Math.round((100 * lines) / count.on)}% of the requests write a line (pages and refusals)`

  // Every request with a token never seen before: a full RS256 verification each time.
  const fresh = Array.from({ length: 3000 }, (_, i) => [cookiesFor('leads1', signJwt(idClaims('leads1', { jti: `t${i}` }), key))])
  const freshStarted = performance.now()
  for (const cookie of fresh) await authorizeRequest({ path: '/docs/leads/intro', query: '', cookieHeaders: cookie }, deps)
  const freshPerSecond = Math.round(fresh.length / ((performance.now() - freshStarted) / 1000))

  const figures: Figure[] = [
    { group: 'edge', name: 'decisions per second, new token each time', value: freshPerSecond, unit: '/s', method: '3,000 distinct valid ID tokens, each verified (RS256), warm JWKS, one core' },
    { group: 'edge', name: 'decisions per second', value: perSecond('off'), unit: '/s', method: `${method}, access log off` },
    {
      group: 'edge',
      name: 'decisions per second, access log on',
      value: perSecond('on'),
      unit: '/s',
      method: `${method}, access log on, written to /dev/null; ${logged}; in 250 ms turns with the log-off figure`,
    },
    { group: 'edge', name: 'decision latency p50', value: +(median(latencies) * 1000).toFixed(1), unit: 'µs', method: `${method}, access log off` },
    { group: 'edge', name: 'decision latency p99', value: +(percentile(latencies, 99) * 1000).toFixed(1), unit: 'µs', method: `${method}, access log off` },
  ]
  const bundle = path.join(built.edgeDist, 'index.js')
  if (fs.existsSync(bundle)) {
    const code = fs.readFileSync(bundle)
    figures.push({ group: 'edge', name: 'bundle size (edge/dist/index.js)', value: +(code.length / 1024).toFixed(1), unit: 'kB', method: 'esbuild, minified' })
    figures.push({ group: 'edge', name: 'bundle size zipped', value: +(zlib.deflateRawSync(code, { level: 9 }).length / 1024).toFixed(1), unit: 'kB', method: 'deflate (as in the Lambda zip); limit 1,024 kB' })
  }
  return figures
}
