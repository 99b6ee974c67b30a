/**
 * The local stand-in for CloudFront + S3: serves out/ on 127.0.0.1 through the same authorizer
 * the edge runs (edge/authorizeRequest). Only where the keys come from differs from production.
 */
import fs from 'node:fs'
import http from 'node:http'
import path from 'node:path'
import zlib from 'node:zlib'
import type { AddressInfo } from 'node:net'
import type { Jwks } from 'aws-jwt-verify/jwk'
import { access as shippedAccess, type CompiledAccess } from '../../lib/access'
import type { AssetRoutes } from '../../lib/access/governingRoute'
import type { AuthSettings } from '../../lib/auth/authSettings'
import { authorizeRequest } from '../../edge/authorizeRequest'
import { cognitoOriginFor, securityHeaders } from '../../edge/securityHeaders'
import { createIdTokenVerifier } from '../../edge/tokenVerifier'

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.woff': 'font/woff',
  '.txt': 'text/plain; charset=utf-8',
  '.wasm': 'application/wasm',
  '.pf_meta': 'application/octet-stream',
  '.pf_fragment': 'application/octet-stream',
  '.pf_index': 'application/octet-stream',
  '.pagefind': 'application/octet-stream',
}

/**
 * As CloudFront does with `compress: true` (infra/lib/site-stack.ts): text of 1,000 bytes or more
 * goes gzipped to a client that accepts it. Without this, page weight and Lighthouse figures
 * measured locally would count bytes that production never sends. Compressed once per file.
 */
const COMPRESSIBLE = /^(text\/|application\/(json|wasm)|image\/svg\+xml)/
const gzipped = new Map<string, { mtimeMs: number; body: Buffer }>()

function gzipOnce(file: string, mtimeMs: number, body: Buffer): Buffer {
  const cached = gzipped.get(file)
  if (cached && cached.mtimeMs === mtimeMs) return cached.body
  const compressed = zlib.gzipSync(body)
  gzipped.set(file, { mtimeMs, body: compressed })
  return compressed
}

export interface LocalServerOptions {
  outDir: string
  auth: AuthSettings
  jwks: Jwks
  assetRoutes: AssetRoutes
  access?: CompiledAccess
  host?: string
  port?: number
}

export interface RunningServer {
  url: string
  stop(): Promise<void>
}

export async function startLocalServer(options: LocalServerOptions): Promise<RunningServer> {
  const outDir = path.resolve(options.outDir)
  const headers = securityHeaders(cognitoOriginFor(options.auth.region, options.auth.endpoint))
  const deps = {
    access: options.access ?? shippedAccess,
    assetRoutes: options.assetRoutes,
    clientId: options.auth.userPoolClientId,
    verifyIdToken: createIdTokenVerifier({
      userPoolId: options.auth.userPoolId,
      clientId: options.auth.userPoolClientId,
      jwks: options.jwks,
      fetchUnknownKeys: false,
    }),
  }
  const notFoundPage = path.join(outDir, '404.html')

  const server = http.createServer(async (request, response) => {
    const send = (status: number, extra: Record<string, string | number>, body?: Buffer | string) => {
      response.writeHead(status, { ...headers, ...extra })
      response.end(request.method === 'HEAD' ? undefined : body)
    }
    try {
      if (request.method !== 'GET' && request.method !== 'HEAD') return send(405, { allow: 'GET, HEAD' }, 'Method Not Allowed')
      const raw = request.url ?? '/'
      const at = raw.indexOf('?')
      const requestPath = (at < 0 ? raw : raw.slice(0, at)).split('#', 1)[0]
      const query = at < 0 ? '' : raw.slice(at + 1)
      const cookieHeader = request.headers.cookie
      const outcome = await authorizeRequest(
        { path: requestPath, query, cookieHeaders: cookieHeader ? [cookieHeader] : [] },
        deps
      )
      switch (outcome.kind) {
        case 'redirect':
          return send(302, { location: outcome.location, 'cache-control': 'no-store' })
        case 'forbidden':
          return send(403, { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store' }, 'Forbidden')
        case 'badRequest':
          return send(400, { 'content-type': 'text/plain; charset=utf-8' }, 'Bad Request')
      }
      const file = path.join(outDir, outcome.objectKey)
      // objectKeyFor never climbs out, but the file system is the last place to be sure.
      const stats = file.startsWith(outDir + path.sep) && fs.existsSync(file) ? fs.statSync(file) : null
      if (!stats?.isFile()) {
        return send(404, { 'content-type': CONTENT_TYPES['.html'], 'cache-control': 'no-store' }, fs.existsSync(notFoundPage) ? fs.readFileSync(notFoundPage) : 'Not Found')
      }
      const contents = fs.readFileSync(file)
      const type = CONTENT_TYPES[path.extname(file).toLowerCase()] ?? 'application/octet-stream'
      const compress = COMPRESSIBLE.test(type) && contents.length >= 1000 && /\bgzip\b/.test(String(request.headers['accept-encoding'] ?? ''))
      const body = compress ? gzipOnce(file, stats.mtimeMs, contents) : contents
      const immutable = outcome.objectKey.startsWith('/_next/static/')
      return send(200, {
        'content-type': type,
        'content-length': body.length,
        ...(compress ? { 'content-encoding': 'gzip' } : {}),
        vary: 'accept-encoding',
        // Pages vary by reader, so no shared cache may keep them.
        'cache-control': immutable ? 'public, max-age=31536000, immutable' : 'private, no-cache',
      }, body)
    } catch (error) {
      send(500, { 'content-type': 'text/plain; charset=utf-8' }, `Internal error: ${error instanceof Error ? error.message : error}`)
    }
  })

  const host = options.host ?? '127.0.0.1'
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(options.port ?? 3000, host, resolve)
  })
  const { port } = server.address() as AddressInfo
  return {
    url: `http://${host}:${port}`,
    stop: () =>
      new Promise((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}
