/**
 * The bucket the audit build was deployed to (e2e/fixtures/deployedBucket.ts), served through the
 * authorizer: what a renamed page leaves behind for open tabs is served only to the readers who
 * may read the page, and the deploy's record reaches no one. The leak audit
 * (e2e/leakAudit.test.ts) requests every object of the same bucket as every role.
 */
import fs from 'node:fs'
import http from 'node:http'
import path from 'node:path'
import { SEEDED_USERS, seededGroupsOf } from '../scripts/cognito/seed'
import { amplifyCookieHeader, signInIdToken } from '../scripts/audit/cognitoSession'
import { MARKED_PAGES } from '../scripts/audit/markers'
import { readBody } from '../scripts/audit/scan'
import { MANIFEST_KEY } from '../scripts/deploy/deployManifest'
import { s3ClientFor, s3SiteBucket } from '../scripts/deploy/s3Bucket'
import { PASSWORD, siteEnv } from './siteEnv'

const env = siteEnv()
const client = s3ClientFor({ endpoint: env.bucket.endpoint, credentials: env.bucket.credentials })
const bucket = s3SiteBucket(client, env.bucket.bucket)
afterAll(() => client.destroy())

/** A GET of `rawPath` exactly as written (fetch would resolve dots and case), as the reader with `cookie`. */
function get(rawPath: string, cookie?: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const request = http.get(env.bucket.siteUrl + rawPath, { headers: cookie ? { cookie } : {} }, (response) => {
      const chunks: Buffer[] = []
      response.on('data', (chunk: Buffer) => chunks.push(chunk))
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body: readBody(Buffer.concat(chunks)) }))
    })
    request.on('error', reject)
  })
}
const cookieOf = async (username: string) => amplifyCookieHeader(username, await signInIdToken(env.cognitoUrl, username, PASSWORD))

test("a renamed page's earlier data and search fragment, kept for open tabs, are served only to the readers who may read the page", async () => {
  const keys = await bucket.listKeys()
  const kept = Object.keys((await bucket.readManifest())!.retired).sort()
  const [buildId] = fs.readdirSync(path.join(env.outDir, '_next/data'))
  const oldData = `_next/data/${buildId}${env.bucket.renamedRoute}.json`
  expect(kept).toContain(oldData)
  expect(kept.filter((key) => key.endsWith('/en_0earlier.pf_fragment'))).toHaveLength(1)
  expect(kept.every((key) => keys.has(key))).toBe(true)
  // The old page itself and its Markdown went with the second deploy.
  expect([...keys].filter((key) => key.startsWith(env.bucket.renamedRoute.slice(1)))).toEqual([])

  const marker = env.markers.body.internal
  const route = env.routeOfFile(MARKED_PAGES.internal)
  const served: string[] = []
  const readers: string[] = []
  for (const username of [null, ...SEEDED_USERS]) {
    const cookie = username === null ? undefined : await cookieOf(username)
    const answers = await Promise.all(kept.map((key) => get(`/${key}`, cookie)))
    // Each is served whole or not at all: no reader gets some of the old files and not others.
    expect([username, new Set(answers.map((answer) => answer.status === 200)).size]).toEqual([username, 1])
    if (answers[0].status === 200) {
      served.push(String(username))
      expect(answers.every((answer) => answer.body.includes(marker))).toBe(true)
    }
    if (username !== null && env.decide(route, { username, groups: seededGroupsOf(username) }) === 'allow') readers.push(username)
  }
  expect(served).toEqual(readers)
  // Some readers may read the page and some may not, so both answers were seen.
  expect(readers.length).toBeGreaterThan(0)
  expect(readers.length).toBeLessThan(SEEDED_USERS.length)
})

test("the deploy's record is in the bucket, and no request reaches it, in any spelling, even an admin's", async () => {
  expect(await bucket.listKeys()).toContain(MANIFEST_KEY)
  const record = `/${MANIFEST_KEY}`
  const spellings = [record, `${record}/`, record.toUpperCase(), `${record}.html`, `${record}.json`, record.replace('/m', '/%6D'), record.replace('/', '//'), `/docs/..${record}`, `${record}?x=1`, `${record}%00`, `${record}%2F`]
  const cookie = await cookieOf('admin')
  for (const spelling of spellings) {
    for (const answer of [await get(spelling), await get(spelling, cookie)]) {
      expect([spelling, answer.status === 200 || answer.body.includes('"retired"')]).toEqual([spelling, false])
    }
  }
})
