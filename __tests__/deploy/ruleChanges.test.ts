/**
 * @jest-environment node
 *
 * What each reader can fetch while pages and rules change, at every state a deploy passes
 * through: two small builds (__tests__/fixtures/ruleChangeBuilds.ts), each page's text a marker,
 * deployed with the deploy's own code to a real S3 API (s3rver, scripts/deploy/localS3.ts) and
 * fetched as each reader through the edge's own authorizer (edge/authorizeRequest.ts), with the
 * old build's rules and asset routes (the old edge) or the new build's (after cdk deploy).
 *
 * The promise checked after every upload and every delete: a reader fetches a file's text only if
 * the rules of a build that holds that file allow them that text, and the rules of the edge that
 * serves it do too. (A file the same in both builds is a file of each, so either edge may serve it.)
 * a. A leads page moved to the internal section (same rules, same build id).
 * b. An admin-only folder deleted with its finer rule.
 * c. A rule made finer: a leads folder becomes admin-only.
 */
import { GetObjectCommand, ListObjectsV2Command, PutObjectCommand } from '@aws-sdk/client-s3'
import { authorizeRequest, type AuthorizerDeps } from '../../edge/authorizeRequest'
import { createIdTokenVerifier } from '../../edge/tokenVerifier'
import { DEPLOY_RECORD_PREFIX } from '../../infra/lib/stack-outputs'
import { decideAccess } from '../../lib/access/decideAccess'
import type { AccessConfig, PathRule } from '../../lib/access/types'
import { startLocalS3, type LocalS3 } from '../../scripts/deploy/localS3'
import { ForeignBucketError, RulesChangedError } from '../../scripts/deploy/rulesRecord'
import { runDeploy } from '../../scripts/deploy/runDeploy'
import { s3SiteBucket, type SiteBucket } from '../../scripts/deploy/s3Bucket'
import { runWithdraw } from '../../scripts/deploy/withdraw'
import { smallBuild, type SmallBuild } from '../fixtures/ruleChangeBuilds'
import { CLIENT, POOL, cookiesFor, idClaims, newKeyPair, signJwt } from '../edge/tokens'

jest.setTimeout(60_000)

const GRACE_MS = 48 * 3_600_000
const READERS = [null, 'leads1', 'internal1', 'admin'] as const
type Reader = (typeof READERS)[number]

const SECRET_RULE: PathRule = { path: '/docs/leads/secret', match: 'prefix', require: 'fullAccessUsers' }
const configWith = (rules: PathRule[]): AccessConfig => ({
  protectDocs: true,
  lists: { fullAccessUsers: 'admin', leadsUsers: 'leads1', internalUsers: 'internal1' },
  sections: [
    { id: 'leads', title: 'Leads', description: 'Leads.', entry: '/docs/leads/intro', readers: 'leadsUsers' },
    { id: 'internal', title: 'Internal', description: 'Internal.', entry: '/docs/internal/intro', readers: 'internalUsers' },
  ],
  rules: [...rules, { path: '/', match: 'exact', require: 'signedIn' }],
  fallback: 'fullAccessUsers',
  publicPaths: ['/login', '/unauthorized', '/session-too-large'],
})

const key = newKeyPair('rule-change-key')
const verifyIdToken = createIdTokenVerifier({ userPoolId: POOL, clientId: CLIENT, jwks: { keys: [key.jwk as never] }, fetchUnknownKeys: false })
const cookies = Object.fromEntries(READERS.filter((reader) => reader !== null).map((reader) => [reader, cookiesFor(reader, signJwt(idClaims(reader), key))]))
/** The edge built with a build: its rules, asset routes and audiences. */
const edgeOf = (build: SmallBuild): AuthorizerDeps => ({ access: build.access, assetRoutes: build.assetRoutes, audiences: build.audiences, clientId: CLIENT, verifyIdToken })

let s3: LocalS3
let buckets = 0
beforeAll(async () => {
  s3 = await startLocalS3()
})
afterAll(async () => {
  await s3?.stop()
})

async function newBucket(): Promise<{ name: string; bucket: SiteBucket }> {
  const name = `rules-${++buckets}`
  await s3.createBucket(name)
  return { name, bucket: s3SiteBucket(s3.client, name) }
}

/** An object's text, read once per version (its ETag): the check runs after every write. */
const bodies = new Map<string, string>()
async function bodyOf(bucketName: string, objectKey: string, etag: string | undefined): Promise<string> {
  const id = `${bucketName}/${objectKey}/${etag}`
  if (etag === undefined || !bodies.has(id)) bodies.set(id, await (await s3.client.send(new GetObjectCommand({ Bucket: bucketName, Key: objectKey }))).Body!.transformToString())
  return bodies.get(id)!
}

/** Whether `build`'s rules let `reader` read the text `marker` (a text the build does not hold: its rules say nothing). */
function allows(build: SmallBuild, marker: string, reader: Reader): boolean {
  const route = build.routeOf[marker]
  return route === undefined || decideAccess(build.access, route, reader === null ? null : { username: reader }) === 'allow'
}

/** Every text a reader fetches from the bucket through one of `edges` that the promise forbids them, as `reader reads marker in key through edge`. */
async function forbiddenReads(bucketName: string, builds: readonly SmallBuild[], edges: readonly SmallBuild[]): Promise<string[]> {
  const markers = [...new Set(builds.flatMap((build) => Object.keys(build.routeOf)))]
  const listed = await s3.client.send(new ListObjectsV2Command({ Bucket: bucketName }))
  const found: string[] = []
  for (const { Key: objectKey, ETag } of listed.Contents ?? []) {
    if (!objectKey || objectKey.startsWith(DEPLOY_RECORD_PREFIX)) continue
    const body = await bodyOf(bucketName, objectKey, ETag)
    const held = markers.filter((marker) => body.includes(marker))
    if (held.length === 0) continue
    const ofBuilds = builds.filter((build) => build.files[objectKey] === body)
    for (const edge of edges) {
      for (const reader of READERS) {
        const outcome = await authorizeRequest({ path: `/${objectKey}`, query: '', cookieHeaders: reader === null ? [] : [cookies[reader]] }, edgeOf(edge))
        // Served as itself (a reader refused out of sight is sent to a key no deploy writes).
    if (outcome.kind !== 'serve' || outcome.objectKey !== `/${objectKey}`) continue
        for (const marker of held) {
          if (!ofBuilds.some((build) => allows(build, marker, reader) && allows(edge, marker, reader))) found.push(`${reader} reads ${marker} in ${objectKey} through the ${edge.name} edge`)
        }
      }
    }
  }
  return found
}

/** Whether `reader` can fetch `marker` from the bucket through `edge` at all. */
async function reads(bucketName: string, edge: SmallBuild, reader: Reader, marker: string): Promise<boolean> {
  const listed = await s3.client.send(new ListObjectsV2Command({ Bucket: bucketName }))
  for (const { Key: objectKey } of listed.Contents ?? []) {
    if (!objectKey || objectKey.startsWith(DEPLOY_RECORD_PREFIX)) continue
    const outcome = await authorizeRequest({ path: `/${objectKey}`, query: '', cookieHeaders: reader === null ? [] : [cookies[reader]] }, edgeOf(edge))
    // Served as itself (a reader refused out of sight is sent to a key no deploy writes).
    if (outcome.kind !== 'serve' || outcome.objectKey !== `/${objectKey}`) continue
    const body = await (await s3.client.send(new GetObjectCommand({ Bucket: bucketName, Key: objectKey }))).Body!.transformToString()
    if (body.includes(marker)) return true
  }
  return false
}

/**
 * The bucket with the promise checked after each of its writes: after each upload, and after each
 * key deleted (deleted one at a time, so every state in between is seen), through the edges live then.
 */
function checkedBucket(bucket: SiteBucket, bucketName: string, builds: readonly SmallBuild[], edges: () => readonly SmallBuild[], seen: string[]): SiteBucket {
  const check = async () => seen.push(...(await forbiddenReads(bucketName, builds, edges())))
  return {
    ...bucket,
    async upload(file) {
      await bucket.upload(file)
      await check()
    },
    async deleteKeys(keys) {
      for (const deleted of keys) {
        await bucket.deleteKeys([deleted])
        await check()
      }
    },
  }
}

/**
 * The rule change in the documented order, checked at every state: withdraw (old edge), cdk deploy
 * (both edges live while CloudFront moves), upload (new edge). `earlier` may write the bucket after
 * the old build's deploy; `builds` are every build whose files the bucket may then hold.
 */
async function changeRules(old: SmallBuild, next: SmallBuild, earlier?: (bucket: SiteBucket) => Promise<void>, builds: readonly SmallBuild[] = [old, next]): Promise<{ bucketName: string; seen: Record<string, string[]> }> {
  const { name, bucket } = await newBucket()
  await runDeploy({ outDir: old.outDir, bucket, graceMs: GRACE_MS, rules: old.rules })
  await earlier?.(bucket)
  const seen: Record<string, string[]> = { before: await forbiddenReads(name, builds, [old]), withdraw: [], switch: [], upload: [] }
  let edges: SmallBuild[] = [old]
  await runWithdraw({ outDir: next.outDir, bucket: checkedBucket(bucket, name, builds, () => edges, seen.withdraw), rules: next.rules, concurrency: 1 })
  edges = [old, next]
  seen.switch = await forbiddenReads(name, builds, edges)
  edges = [next]
  await runDeploy({ outDir: next.outDir, bucket: checkedBucket(bucket, name, builds, () => edges, seen.upload), graceMs: GRACE_MS, rules: next.rules, concurrency: 1 })
  return { bucketName: name, seen }
}

const NONE = { before: [], withdraw: [], switch: [], upload: [] }

test('a. a leads page moved to the internal section: after the deploy no reader but the internal section\'s reads its text, in its old data file or search fragment or anywhere', async () => {
  const config = configWith([])
  const old = smallBuild('a-old', config, 'b1', { '/docs/leads/intro': 'MARK-a-intro', '/docs/leads/moved': 'MARK-a-moved', '/docs/internal/intro': 'MARK-a-internal' })
  const next = smallBuild('a-new', config, 'b1', { '/docs/leads/intro': 'MARK-a-intro', '/docs/internal/moved': 'MARK-a-moved', '/docs/internal/intro': 'MARK-a-internal' })
  expect(next.rules).toBe(old.rules)
  const { name, bucket } = await newBucket()
  await runDeploy({ outDir: old.outDir, bucket, graceMs: GRACE_MS, rules: old.rules })
  // The probe sees the text where it was: leads1 read it before the move.
  expect(await reads(name, old, 'leads1', 'MARK-a-moved')).toBe(true)

  // The same rules: the withdraw a pipeline runs before every deploy has nothing to do.
  expect((await runWithdraw({ outDir: next.outDir, bucket, rules: next.rules })).deleted).toEqual([])
  await runDeploy({ outDir: next.outDir, bucket, graceMs: GRACE_MS, rules: next.rules })
  expect(await forbiddenReads(name, [old, next], [next])).toEqual([])
  expect(await reads(name, next, 'leads1', 'MARK-a-moved')).toBe(false)
  expect(await reads(name, next, 'internal1', 'MARK-a-moved')).toBe(true)
})

describe('b. an admin-only folder deleted with its finer rule', () => {
  const old = smallBuild('b-old', configWith([SECRET_RULE]), 'old', { '/docs/leads/intro': 'MARK-b-intro', '/docs/leads/secret/plan': 'MARK-b-secret' })
  const next = smallBuild('b-new', configWith([]), 'new', { '/docs/leads/intro': 'MARK-b-intro' })

  test('in the documented order, no reader reads the folder\'s text at any state, and after it nobody can', async () => {
    const { bucketName, seen } = await changeRules(old, next)
    expect(seen).toEqual(NONE)
    for (const reader of READERS) expect([reader, await reads(bucketName, next, reader, 'MARK-b-secret')]).toEqual([reader, false])
    expect(await reads(bucketName, next, 'leads1', 'MARK-b-intro')).toBe(true)
  })

  test('an upload over the old rules\' files without the withdraw is refused before it writes anything', async () => {
    const { name, bucket } = await newBucket()
    await runDeploy({ outDir: old.outDir, bucket, graceMs: GRACE_MS, rules: old.rules })
    const from = await s3.requestsSoFar()
    await expect(runDeploy({ outDir: next.outDir, bucket, graceMs: GRACE_MS, rules: next.rules })).rejects.toThrow(RulesChangedError)
    await s3.settled()
    expect(s3.requests.slice(from).filter((request) => request.method !== 'GET' && request.method !== 'HEAD' && request.path.startsWith(`/${name}`))).toEqual([])
  })
})

describe('c. a rule made finer: a leads folder becomes admin-only', () => {
  const old = smallBuild('c-old', configWith([]), 'old', { '/docs/leads/intro': 'MARK-c-intro', '/docs/leads/secret/plan': 'MARK-c-secret' })
  const next = smallBuild('c-new', configWith([SECRET_RULE]), 'new', { '/docs/leads/intro': 'MARK-c-intro', '/docs/leads/secret/plan': 'MARK-c-secret' })

  test('in the documented order, leads1 never reads the folder\'s text through the new edge: not in llms-full.txt, a search fragment or a data file', async () => {
    const { bucketName, seen } = await changeRules(old, next)
    expect(seen).toEqual(NONE)
    expect(await reads(bucketName, next, 'leads1', 'MARK-c-secret')).toBe(false)
    expect(await reads(bucketName, next, 'admin', 'MARK-c-secret')).toBe(true)
    expect(await reads(bucketName, next, 'leads1', 'MARK-c-intro')).toBe(true)
  })

  test('the order the docs gave before (cdk deploy, then npm run deploy) would let leads1 read it: the check sees it', async () => {
    const { name, bucket } = await newBucket()
    await runDeploy({ outDir: old.outDir, bucket, graceMs: GRACE_MS, rules: old.rules })
    const leaked = await forbiddenReads(name, [old, next], [next])
    expect(leaked).toEqual(expect.arrayContaining(['leads1 reads MARK-c-secret in docs/leads/llms-full.txt through the c-new edge']))
    expect(leaked.some((line) => line.startsWith('leads1 reads MARK-c-secret in docs/leads/_pagefind/0/fragment/'))).toBe(true)
  })
})

test("an earlier build's route manifests are not kept for open tabs: by today's rule for their path (here a fallback of signedIn) every signed-in reader could fetch the internal section's list of pages", async () => {
  const config = { ...configWith([]), fallback: 'signedIn' }
  const pages = { '/docs/leads/intro': 'MARK-r-intro', '/docs/internal/intro': 'MARK-r-internal' }
  const old = smallBuild('r-old', config, 'old', pages)
  const next = smallBuild('r-new', config, 'new', pages)
  const { name, bucket } = await newBucket()
  await runDeploy({ outDir: old.outDir, bucket, graceMs: GRACE_MS, rules: old.rules })
  await runDeploy({ outDir: next.outDir, bucket, graceMs: GRACE_MS, rules: next.rules })
  const internalManifest = Object.keys(old.files).find((file) => file.startsWith('_next/static/old/_routes/') && old.files[file].includes('/docs/internal/intro'))!
  expect(await authorizeRequest({ path: `/${internalManifest}`, query: '', cookieHeaders: [cookies.leads1] }, edgeOf(next))).toEqual({ kind: 'serve', objectKey: `/${internalManifest}` })
  const held = await bucket.listKeys()
  expect([...held].filter((key) => key.includes('/_routes/') && !key.startsWith('_next/static/new/'))).toEqual([])
  // The earlier build's code stays for open tabs.
  expect(held.has('_next/static/old/_buildManifest.js')).toBe(true)
})

describe('an upload cut short', () => {
  const pages = (secret: string) => ({ '/docs/leads/intro': 'MARK-d-intro', '/docs/leads/secret/plan': secret })
  const old = smallBuild('d-old', configWith([SECRET_RULE]), 'old', pages('MARK-d-secret'))
  // An edit under the old rules (same build id): its Markdown goes up, its page never does.
  const edited = smallBuild('d-edit', configWith([SECRET_RULE]), 'old', pages('MARK-d-secret-edited'))
  // The rule removed: the folder's page, as it was, is now for the section's readers.
  const next = smallBuild('d-new', configWith([]), 'new', pages('MARK-d-secret'))
  const cutShort = async (bucket: SiteBucket) => {
    const stopping: SiteBucket = {
      ...bucket,
      async upload(file) {
        if (file.key.endsWith('.html')) throw new Error('the deploy was stopped')
        await bucket.upload(file)
      },
    }
    await expect(runDeploy({ outDir: edited.outDir, bucket: stopping, graceMs: GRACE_MS, rules: edited.rules, concurrency: 1 })).rejects.toThrow('the deploy was stopped')
  }

  test("then a withdraw trusts no file to be the same in both builds: an admin-only page's edit, half uploaded, does not reach leads1 once the folder's rule is removed", async () => {
    expect(next.files['docs/leads/secret/plan.md']).toBe(old.files['docs/leads/secret/plan.md'])
    const { bucketName, seen } = await changeRules(old, next, cutShort, [old, edited, next])
    expect(seen).toEqual(NONE)
    expect(await reads(bucketName, next, 'leads1', 'MARK-d-secret')).toBe(true)
    for (const reader of READERS) expect([reader, await reads(bucketName, next, reader, 'MARK-d-secret-edited')]).toEqual([reader, false])
  })

  test('then the next upload, of whichever build, puts up every file again: none is left as the cut-short one wrote it', async () => {
    const { name, bucket } = await newBucket()
    await runDeploy({ outDir: old.outDir, bucket, graceMs: GRACE_MS, rules: old.rules })
    await cutShort(bucket)
    await runDeploy({ outDir: old.outDir, bucket, graceMs: GRACE_MS, rules: old.rules })
    for (const reader of READERS) expect([reader, await reads(name, old, reader, 'MARK-d-secret-edited')]).toEqual([reader, false])
  })
})

describe('a withdraw left behind: the next deploy of the live build puts back what it deleted', () => {
  const pages = { '/docs/leads/intro': 'MARK-e-intro', '/docs/leads/secret/plan': 'MARK-e-secret' }
  const live = smallBuild('e-live', configWith([SECRET_RULE]), 'old', pages)
  const abandoned = smallBuild('e-abandoned', configWith([]), 'new', pages)
  const missing = async (bucket: SiteBucket) => {
    const held = await bucket.listKeys()
    return Object.keys(live.files).filter((file) => !held.has(file))
  }

  test('a rule change given up after its withdraw (a withdraw for the live rules, then their deploy)', async () => {
    const { bucket } = await newBucket()
    await runDeploy({ outDir: live.outDir, bucket, graceMs: GRACE_MS, rules: live.rules })
    expect((await runWithdraw({ outDir: abandoned.outDir, bucket, rules: abandoned.rules })).deleted.length).toBeGreaterThan(0)
    expect(await missing(bucket)).not.toEqual([])
    await runWithdraw({ outDir: live.outDir, bucket, rules: live.rules })
    await runDeploy({ outDir: live.outDir, bucket, graceMs: GRACE_MS, rules: live.rules })
    expect(await missing(bucket)).toEqual([])
  })

  test('a withdraw stopped after its deletes (its invalidation failed), then a deploy of the live build', async () => {
    const { bucket } = await newBucket()
    await runDeploy({ outDir: live.outDir, bucket, graceMs: GRACE_MS, rules: live.rules })
    const failing = { invalidate: async () => Promise.reject(new Error('CloudFront is unreachable')), awaitInvalidation: async () => undefined }
    await expect(runWithdraw({ outDir: abandoned.outDir, bucket, rules: abandoned.rules, ...failing })).rejects.toThrow('CloudFront is unreachable')
    expect(await missing(bucket)).not.toEqual([])
    await runDeploy({ outDir: live.outDir, bucket, graceMs: GRACE_MS, rules: live.rules })
    expect(await missing(bucket)).toEqual([])
  })
})

test("a record that cannot be read names how to start it afresh, and doing so leaves the bucket whole, with no withdraw", async () => {
  const pages = { '/docs/leads/intro': 'MARK-f-intro', '/docs/leads/secret/plan': 'MARK-f-secret' }
  const live = smallBuild('f-live', configWith([SECRET_RULE]), 'old', pages)
  const edited = smallBuild('f-edited', configWith([SECRET_RULE]), 'old', { ...pages, '/docs/leads/intro': 'MARK-f-intro-edited' })
  const { bucket } = await newBucket()
  await runDeploy({ outDir: live.outDir, bucket, graceMs: GRACE_MS, rules: live.rules })
  await bucket.writeRecord(`${DEPLOY_RECORD_PREFIX}change-000009`, '{}')
  const refused = runDeploy({ outDir: edited.outDir, bucket, graceMs: GRACE_MS, rules: edited.rules })
  await expect(refused).rejects.toThrow(/delete _deploy\/manifest, _deploy\/seal and every _deploy\/change-… record \(keep the other objects under _deploy\/\)/)
  // As the message says.
  await bucket.deleteKeys([...(await bucket.listKeys(DEPLOY_RECORD_PREFIX))].filter((key) => /^_deploy\/(manifest|seal|change-\d+)$/.test(key)))
  await runDeploy({ outDir: edited.outDir, bucket, graceMs: GRACE_MS, rules: edited.rules })
  const held = await bucket.listKeys()
  expect(Object.keys(edited.files).filter((file) => !held.has(file))).toEqual([])
  expect(await reads(bucket.name, edited, 'leads1', 'MARK-f-intro-edited')).toBe(true)
})

test('a bucket holding files and no record of a deploy of this site (a mistyped --bucket) is refused by the deploy and by the withdraw its refusal would lead to: nothing of it is deleted', async () => {
  const build = smallBuild('g-live', configWith([SECRET_RULE]), 'old', { '/docs/leads/intro': 'MARK-g-intro' })
  const { name, bucket } = await newBucket()
  const foreign = ['cloudfront/E2ABC.2026-12-01.gz', 'cloudfront/E2ABC.2026-12-02.gz', 'reports/q4.csv']
  for (const objectKey of foreign) await s3.client.send(new PutObjectCommand({ Bucket: name, Key: objectKey, Body: 'not the site' }))
  const refusal = `s3://${name} holds 3 objects (cloudfront/E2ABC.2026-12-01.gz, cloudfront/E2ABC.2026-12-02.gz, reports/q4.csv) and no record of a deploy of this site`
  await expect(runDeploy({ outDir: build.outDir, bucket, graceMs: GRACE_MS, rules: build.rules })).rejects.toThrow(ForeignBucketError)
  await expect(runDeploy({ outDir: build.outDir, bucket, graceMs: GRACE_MS, rules: build.rules })).rejects.toThrow(refusal)
  await expect(runWithdraw({ outDir: build.outDir, bucket, rules: build.rules })).rejects.toThrow(refusal)
  expect([...(await bucket.listKeys())].filter((objectKey) => !objectKey.startsWith(DEPLOY_RECORD_PREFIX)).sort()).toEqual(foreign)
})
