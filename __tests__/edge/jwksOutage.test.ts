/**
 * @jest-environment node
 */
/**
 * The production authorizer (fetchUnknownKeys) while the pool's JWKS endpoint accepts connections
 * and never answers. Anyone can write a token with a key id the baked keys lack, so each such
 * request must not wait on that endpoint again and again: one fetch, bounded, then a pause.
 */
import https from 'node:https'
import net from 'node:net'
import { createViewerRequestHandler } from '../../edge/cloudfrontHandler'
import { JWKS_PAUSE_AFTER_FAILURE_MS, boundedJwksFetcher, createIdTokenVerifier } from '../../edge/tokenVerifier'
import { access } from '../../lib/access'
import { CLIENT, POOL, cookiesFor, idClaims, newKeyPair, signJwt } from './tokens'

// Each fetch waits out JWKS_FETCH_MS on the endpoint that never answers.
jest.setTimeout(30_000)
const FEDERATED_CLIENT = 'fedclient00000000000000000'
const baked = newKeyPair('baked-key')
const original = https.request
let hole: net.Server
let connections = 0
const sockets = new Set<net.Socket>()

beforeAll(async () => {
  hole = net.createServer((socket) => {
    connections++
    sockets.add(socket)
    socket.on('error', () => undefined)
  })
  await new Promise<void>((resolve) => hole.listen(0, '127.0.0.1', resolve))
  const { port } = hole.address() as net.AddressInfo
  // The verifier's JWKS fetch (to cognito-idp) reaches the endpoint that never answers instead.
  ;(https as unknown as { request: unknown }).request = (_uri: unknown, options: object, callback: unknown) =>
    original(`https://127.0.0.1:${port}/`, { ...options, rejectUnauthorized: false }, callback as never)
})
beforeEach(() => {
  connections = 0
})
afterAll(async () => {
  ;(https as unknown as { request: unknown }).request = original
  for (const socket of sockets) socket.destroy()
  await new Promise((resolve) => hole.close(resolve))
})

const forged = (kid: string, client: string) => cookiesFor('mallory', signJwt(idClaims('mallory', { aud: client }), newKeyPair(kid)), client)
const viewerRequest = (uri: string, cookie: string) =>
  ({ Records: [{ cf: { config: { eventType: 'viewer-request' }, request: { clientIp: '192.0.2.1', method: 'GET', uri, querystring: '', headers: { cookie: [{ key: 'Cookie', value: cookie }] } } } }] }) as never

test('forged key ids on the sign-in page, the reader view and a protected page (one per app client) make one JWKS fetch in all, and are refused', async () => {
  const clients = [CLIENT, FEDERATED_CLIENT]
  const handle = createViewerRequestHandler(
    { access, assetRoutes: {}, audiences: [], clientId: clients, verifyIdToken: createIdTokenVerifier({ userPoolId: POOL, clientId: clients, jwks: { keys: [baked.jwk as never] }, fetchUnknownKeys: true }) },
    {},
    () => undefined
  )
  const answers = []
  for (const [uri, cookie] of [
    ['/login', forged('kid-a', CLIENT)],
    ['/_reader.json', forged('kid-b', CLIENT)],
    ['/docs/internal/intro', `${forged('kid-c', CLIENT)}; ${forged('kid-d', FEDERATED_CLIENT)}`],
  ]) {
    const answer = (await handle(viewerRequest(uri, cookie))) as { status?: string; uri?: string; body?: string }
    answers.push([uri, answer.status ?? 'forwarded', answer.body?.includes('mallory') ?? false])
  }
  expect(answers).toEqual([
    ['/login', 'forwarded', false],
    ['/_reader.json', '200', false],
    ['/docs/internal/intro', '302', false],
  ])
  expect(connections).toBe(1)
})

test('after the pause, an unknown key id may fetch the JWKS again (a rotated key is found)', async () => {
  let now = 1_000_000
  const fetcher = boundedJwksFetcher(() => now)
  const uri = `https://cognito-idp.eu-west-2.amazonaws.com/${POOL}/.well-known/jwks.json`
  await expect(fetcher.fetch(uri)).rejects.toThrow()
  now += JWKS_PAUSE_AFTER_FAILURE_MS - 1
  await expect(fetcher.fetch(uri)).rejects.toThrow(/paused/)
  expect(connections).toBe(1)
  now += 1
  await expect(fetcher.fetch(uri)).rejects.toThrow()
  expect(connections).toBe(2)
})
