/**
 * What ships is what is audited: the audit build deployed by `npm run deploy`'s code to a fresh
 * bucket on s3rver, after an earlier build in which a page had another name
 * (e2e/fixtures/deployedBucket.ts), and served from the bucket through the same authorizer, by a
 * server of the test's own with the AI tools' sign-in (e2e/fixtures/ownSiteServer.ts).
 * - The whole leak audit (e2e/leakAuditSuite.ts), for every role, against every object the bucket
 *   holds, served with the headers stored on it: the deploy's record and the files kept for open
 *   tabs included.
 * - What the renamed page's earlier build held of its text (data, search fragment) is gone: only
 *   hashed build code is kept for open tabs.
 * - No request reaches the deploy's record.
 * - The audit of a bucket that holds what no deploy should write finds each such object.
 */
import fs from 'node:fs'
import http from 'node:http'
import path from 'node:path'
import { CreateBucketCommand, GetObjectCommand, PutObjectCommand } from '@aws-sdk/client-s3'
import { cacheControlForObject } from '../edge/cacheHeaders'
import { isFolderKey, type AssetRoutes } from '../lib/access/governingRoute'
import { sitePaths } from '../pipeline/steps/paths'
import { SEEDED_USERS } from '../scripts/cognito/seed'
import { amplifyCookieHeader, signInIdToken } from '../scripts/audit/cognitoSession'
import { MARKED_PAGES } from '../scripts/audit/markers'
import { readBody } from '../scripts/audit/scan'
import { MANIFEST_KEY, unpackRecord } from '../scripts/deploy/deployManifest'
import { SEAL_KEY } from '../scripts/deploy/deploySeal'
import { readRecord } from '../scripts/deploy/deployRecord'
import { runDeploy } from '../scripts/deploy/runDeploy'
import { s3SiteBucket, type SiteBucket } from '../scripts/deploy/s3Bucket'
import { bucketObjects } from '../scripts/server/bucketObjects'
import { contentTypeFor } from '../scripts/server/contentTypes'
import type { RunningServer } from '../scripts/server/localServer'
import { startBuiltSite } from '../scripts/server/startStack'
import { deployAuditBuild, type DeployedBucket } from './fixtures/deployedBucket'
import { describeLeakAudit, filesReport, mayRead, ROLES } from './leakAuditSuite'
import { startOwnSiteServer } from './oauthTool'
import { PASSWORD, siteEnv } from './siteEnv'

const env = siteEnv()
let deployed: DeployedBucket
let bucket: SiteBucket
let server: Awaited<ReturnType<typeof startOwnSiteServer>>

beforeAll(async () => {
  deployed = await deployAuditBuild(env.dir)
  bucket = s3SiteBucket(deployed.s3.client, deployed.bucket)
  const { endpoint, env: credentials } = deployed.s3
  server = await startOwnSiteServer({
    bucket: { endpoint, bucket: deployed.bucket, credentials: { accessKeyId: credentials.AWS_ACCESS_KEY_ID, secretAccessKey: credentials.AWS_SECRET_ACCESS_KEY } },
  })
}, 120_000)
afterAll(async () => {
  await server?.stop()
  await deployed?.s3.stop()
})

// Every object the bucket holds, whatever put it there.
describeLeakAudit('the deployed bucket', () => ({ siteUrl: server.url, keys: async () => [...(await bucket.listKeys())].map((key) => `/${key}`).sort() }))

/** A GET of `rawPath` exactly as written (fetch would resolve dots), as the reader with `cookie`. */
function get(rawPath: string, cookie?: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const request = http.get(server.url + rawPath, { headers: cookie ? { cookie } : {} }, (response) => {
      const chunks: Buffer[] = []
      response.on('data', (chunk: Buffer) => chunks.push(chunk))
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body: readBody(Buffer.concat(chunks)) }))
    })
    request.on('error', reject)
  })
}
const cookieOf = async (username: string) => amplifyCookieHeader(username, await signInIdToken(env.cognitoUrl, username, PASSWORD))

test("a renamed page's earlier data and search fragment are gone from the bucket; only hashed build code is kept for open tabs", async () => {
  const keys = await bucket.listKeys()
  const kept = Object.keys((await readRecord(bucket, keys)).manifest!.retired).sort()
  const [buildId] = fs.readdirSync(path.join(env.outDir, '_next/data'))
  expect(keys.has(`_next/data/${buildId}${deployed.renamedRoute}.json`)).toBe(false)
  expect([...keys].filter((key) => key.endsWith('/en_0earlier.pf_fragment'))).toEqual([])
  expect(kept.filter((key) => !key.startsWith('_next/static/') || key.includes('/_routes/'))).toEqual([])
  // The old page itself and its Markdown went with the second deploy.
  expect([...keys].filter((key) => key.startsWith(deployed.renamedRoute.slice(1)))).toEqual([])

  // Asked for by any reader, the old data file is not served: an open tab's router then loads the page anew.
  const marker = env.markers.body.internal
  for (const username of [null, ...SEEDED_USERS]) {
    const cookie = username === null ? undefined : await cookieOf(username)
    const answer = await get(`/_next/data/${buildId}${deployed.renamedRoute}.json`, cookie)
    expect([username, answer.status === 200 || answer.body.includes(marker)]).toEqual([username, false])
  }
})

test("the deploy's record and its seal are in the bucket, and no request reaches either, in any spelling, even an admin's", async () => {
  const keys = await bucket.listKeys()
  expect([MANIFEST_KEY, SEAL_KEY].filter((key) => !keys.has(key))).toEqual([])
  const cookie = await cookieOf('admin')
  for (const key of [MANIFEST_KEY, SEAL_KEY]) {
    const record = `/${key}`
    const spellings = [record, `${record}/`, record.toUpperCase(), `${record}.html`, `${record}.json`, record.replace('/_', '/%5F'), record.replace(/\/(.)([^/]*)$/, (_, first: string, rest: string) => `/%${first.charCodeAt(0).toString(16).toUpperCase()}${rest}`), record.replace('/', '//'), `/docs/..${record}`, `${record}?x=1`, `${record}%00`, `${record}%2F`]
    for (const spelling of spellings) {
      for (const answer of [await get(spelling), await get(spelling, cookie)]) {
        expect([spelling, answer.status === 200 || answer.body.includes('"retired"')]).toEqual([spelling, false])
      }
    }
  }
})

/**
 * The audit build deployed to a bucket of its own, then three objects that no deploy should write,
 * each of which the authorizer serves as the rules say of its key: the internal section's marked
 * page copied into the folder of the audience every signed-in reader has, the deploy's record
 * copied there too, and a protected page uploaded again without its Cache-Control.
 */
describe('the leak audit of a bucket that holds what no deploy should write', () => {
  const TAMPERED = 'docs-site-tampered'
  const assetRoutes = JSON.parse(fs.readFileSync(sitePaths(env.dir).assetRoutes, 'utf8')) as AssetRoutes
  const everyReaderFolder = Object.keys(assetRoutes).find((key) => isFolderKey(key) && assetRoutes[key] === '/')!
  const internalPage = `${env.routeOfFile(MARKED_PAGES.internal)}.html`
  const copiedPage = `${everyReaderFolder}notes.html`
  const copiedRecord = `${everyReaderFolder}deploy-record.json`
  let tampered: RunningServer

  const put = (key: string, body: Buffer | string, cacheControl?: string) =>
    deployed.s3.client.send(new PutObjectCommand({ Bucket: TAMPERED, Key: key.slice(1), Body: body, ContentType: contentTypeFor(key), ...(cacheControl ? { CacheControl: cacheControl } : {}) }))

  beforeAll(async () => {
    const client = deployed.s3.client
    await client.send(new CreateBucketCommand({ Bucket: TAMPERED }))
    await runDeploy({ outDir: env.outDir, bucket: s3SiteBucket(client, TAMPERED), graceMs: 0 })
    const page = fs.readFileSync(path.join(env.outDir, internalPage))
    const record = unpackRecord(await (await client.send(new GetObjectCommand({ Bucket: TAMPERED, Key: MANIFEST_KEY }))).Body!.transformToByteArray(), MANIFEST_KEY)
    await put(copiedPage, page, cacheControlForObject(copiedPage))
    await put(copiedRecord, record, cacheControlForObject(copiedRecord))
    await put(internalPage, page)
    // Files only: the AI tools' sign-in (an ES-module library jest cannot load) is not under test here.
    tampered = await startBuiltSite({ outDir: env.outDir, objects: bucketObjects(client, TAMPERED), cognitoUrl: env.cognitoUrl, port: 0, access: env.access, aiToolSignIn: false })
  }, 120_000)
  afterAll(async () => {
    await tampered?.stop()
  })

  test('finds the section text, the routes and the cacheable protected page that each reader is served', async () => {
    const keys = [copiedPage, copiedRecord, internalPage]
    const protectedKeys = new Set<string>()
    await filesReport(tampered.url, keys, null, protectedKeys)
    // A signed-in reader who may not read the internal section, and one who may.
    const outsider = ROLES.find((role) => role !== null && !mayRead(role, 'internal'))!
    const insider = ROLES.find((role) => role !== null && mayRead(role, 'internal'))!
    const outside = await filesReport(tampered.url, keys, outsider, protectedKeys)
    const inside = await filesReport(tampered.url, keys, insider, protectedKeys)
    expect(outside.markersLeaked).toContain(`internal in ${copiedPage}`)
    expect(outside.routesLeaked.filter((found) => found.endsWith(` in ${copiedRecord}`)).length).toBeGreaterThan(0)
    expect(inside.sharedCacheable).toEqual([`${internalPage} (200, null)`])
  })
})
