/**
 * @jest-environment node
 *
 * One deploy or withdraw writes a bucket at a time (scripts/deploy/deployLease.ts), on a real S3 API
 * (s3rver, with S3's conditional write: scripts/deploy/localS3Server.ts).
 */
import { spawn, spawnSync } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { PutObjectCommand } from '@aws-sdk/client-s3'
import { DeployLeaseError, LEASE_HOURS, LEASE_KEY } from '../../scripts/deploy/deployLease'
import { runWithdraw } from '../../scripts/deploy/withdraw'
import { startLocalS3, type LocalS3 } from '../../scripts/deploy/localS3'
import { runDeploy } from '../../scripts/deploy/runDeploy'
import { s3SiteBucket, type SiteBucket } from '../../scripts/deploy/s3Bucket'
import { tempSite } from '../fixtures/tempSite'

jest.setTimeout(60_000)

let s3: LocalS3
let buckets = 0
beforeAll(async () => {
  s3 = await startLocalS3()
})
afterAll(async () => {
  await s3?.stop()
})

async function newBucket(): Promise<SiteBucket> {
  const name = `lease-${++buckets}`
  await s3.createBucket(name)
  return s3SiteBucket(s3.client, name)
}

const pages = (extra: Record<string, string>) => ({ 'index.html': '<p>home</p>', 'docs/leads/intro.html': '<p>intro</p>', ...extra })
const deploy = (bucket: SiteBucket, outDir: string) => runDeploy({ outDir, bucket, graceMs: 0, rules: 'r1' })
const siteKeys = async (bucket: SiteBucket) => [...(await bucket.listKeys())].filter((key) => !key.startsWith('_deploy/')).sort()

test('two deploys at once: one writes, the other is refused before it writes, and the bucket holds exactly the build that was deployed', async () => {
  const bucket = await newBucket()
  await deploy(bucket, tempSite('lease-old-', pages({})))
  const first = tempSite('lease-a-', pages({ 'docs/leads/zebra.html': '<p>zebra</p>' }))
  const second = tempSite('lease-b-', pages({ 'docs/leads/yak.html': '<p>yak</p>' }))
  const outcomes = await Promise.allSettled([deploy(bucket, first), deploy(bucket, second)])
  const refused = outcomes.filter((outcome) => outcome.status === 'rejected')
  expect(refused).toHaveLength(1)
  expect((refused[0] as PromiseRejectedResult).reason).toBeInstanceOf(DeployLeaseError)
  // Named as the holder when the loser reads the lease; as a take-over when it does not see it yet (it raced the holder's write).
  expect(String((refused[0] as PromiseRejectedResult).reason.message)).toMatch(/another deploy or withdraw (is writing s3:\/\/lease-\d+ \(process \d+ on .*\)|took over s3:\/\/lease-\d+\/_deploy\/lease as this one did); run this once it has ended/)
  const deployed = outcomes[0].status === 'fulfilled' ? 'zebra' : 'yak'
  expect(await siteKeys(bucket)).toEqual(['docs/leads/intro.html', `docs/leads/${deployed}.html`, 'index.html'])
  // The lease went with the deploy that held it, and the other deploy, run again, goes ahead.
  expect(await bucket.readRecord(LEASE_KEY)).toBeNull()
  await deploy(bucket, deployed === 'zebra' ? second : first)
  expect(await siteKeys(bucket)).toEqual(['docs/leads/intro.html', `docs/leads/${deployed === 'zebra' ? 'yak' : 'zebra'}.html`, 'index.html'])
})

test("a lease left by a deploy that was killed is taken over: one of this machine's processes that no longer runs, or one older than the lease's hours", async () => {
  const bucket = await newBucket()
  const out = tempSite('lease-c-', pages({}))
  const ended = spawnSync(process.execPath, ['-e', 'console.log(process.pid)'], { encoding: 'utf8' })
  const deadPid = Number(ended.stdout.trim())
  await bucket.writeRecord(LEASE_KEY, JSON.stringify({ host: os.hostname(), namespace: fs.readlinkSync('/proc/self/ns/pid'), pid: deadPid, since: new Date().toISOString(), token: 'killed' }))
  await deploy(bucket, out)
  expect(await siteKeys(bucket)).toEqual(['docs/leads/intro.html', 'index.html'])
  expect(await bucket.readRecord(LEASE_KEY)).toBeNull()

  const old = new Date(Date.now() - (LEASE_HOURS + 1) * 3_600_000).toISOString()
  await bucket.writeRecord(LEASE_KEY, JSON.stringify({ host: 'ci-runner-7', pid: 4242, since: old, token: 'stale' }))
  await deploy(bucket, tempSite('lease-d-', pages({ 'docs/leads/new.html': '<p>new</p>' })))
  expect(await siteKeys(bucket)).toContain('docs/leads/new.html')
})

test("a lease another machine holds is refused, naming it and what to do, and nothing is written; a failed deploy lets its own go", async () => {
  const bucket = await newBucket()
  const since = new Date().toISOString()
  await bucket.writeRecord(LEASE_KEY, JSON.stringify({ host: 'ci-runner-7', pid: 4242, since, token: 'theirs' }))
  const from = await s3.requestsSoFar()
  await expect(deploy(bucket, tempSite('lease-e-', pages({})))).rejects.toThrow(
    `deploy: another deploy or withdraw is writing s3://${bucket.name} (process 4242 on ci-runner-7, since ${since}); run this once it has ended. If that run was stopped, delete s3://${bucket.name}/${LEASE_KEY} and run this again.`
  )
  await s3.settled()
  expect(s3.requests.slice(from).filter((request) => request.method !== 'GET' && request.method !== 'HEAD' && request.path.startsWith(`/${bucket.name}/`) && request.path !== `/${bucket.name}/${LEASE_KEY}`)).toEqual([])
  expect(JSON.parse((await bucket.readRecord(LEASE_KEY))!).token).toBe('theirs')

  await bucket.deleteKeys([LEASE_KEY])
  await s3.refuse({ method: 'PUT', path: `/${bucket.name}/index.html`, times: 10 })
  try {
    await expect(deploy(bucket, tempSite('lease-f-', pages({})))).rejects.toThrow()
  } finally {
    await s3.refuse(null)
  }
  expect(await bucket.readRecord(LEASE_KEY)).toBeNull()
})

test("a lease dated further ahead than a stopped run's is behind is taken over; a damaged one is named with the one thing to do", async () => {
  const bucket = await newBucket()
  const ahead = new Date(Date.now() + (LEASE_HOURS + 1) * 3_600_000).toISOString()
  await bucket.writeRecord(LEASE_KEY, JSON.stringify({ host: 'ci-runner-7', pid: 4242, since: ahead, token: 'future' }))
  await deploy(bucket, tempSite('lease-g-', pages({ 'docs/leads/ahead.html': '<p>ahead</p>' })))
  expect(await siteKeys(bucket)).toContain('docs/leads/ahead.html')

  // Gzip's magic and then nothing: not a record any deploy wrote.
  await s3.client.send(new PutObjectCommand({ Bucket: bucket.name, Key: LEASE_KEY, Body: Buffer.from([0x1f, 0x8b, 0x08, 0x00]) }))
  await expect(deploy(bucket, tempSite('lease-h-', pages({ 'docs/leads/more.html': '<p>more</p>' })))).rejects.toThrow(
    `deploy: s3://${bucket.name}/${LEASE_KEY} is damaged (not as a deploy wrote it); if no deploy or withdraw is writing the bucket, delete it and run this again`
  )
  await bucket.deleteKeys([LEASE_KEY])
  await deploy(bucket, tempSite('lease-i-', pages({ 'docs/leads/more.html': '<p>more</p>' })))
  expect(await siteKeys(bucket)).toContain('docs/leads/more.html')
})

test('two runs that find the same stopped lease: one takes it over, the other is refused', async () => {
  const bucket = await newBucket()
  await deploy(bucket, tempSite('lease-g-', pages({})))
  const old = new Date(Date.now() - (LEASE_HOURS + 1) * 3_600_000).toISOString()
  await bucket.writeRecord(LEASE_KEY, JSON.stringify({ host: 'ci-runner-7', pid: 4242, since: old, token: 'stale' }))
  // Each run reads the stopped lease before either replaces it: the race a takeover must decide.
  let stalesRead = 0
  let bothRead: () => void = () => {}
  const barrier = new Promise<void>((resolve) => (bothRead = resolve))
  const atBarrier = async <T>(read: Promise<T>): Promise<T> => {
    const value = await read
    if (JSON.stringify(value).includes('stale') && ++stalesRead <= 2) {
      if (stalesRead === 2) bothRead()
      await barrier
    }
    return value
  }
  // And a removal of the lease by the second run waits until the first has taken it: the order in which deleting, then creating, lets both in.
  let leaseDeletes = 0
  let taken: () => void = () => {}
  const firstTaken = new Promise<void>((resolve) => (taken = resolve))
  const racing: SiteBucket = {
    ...bucket,
    readRecord: (key) => atBarrier(bucket.readRecord(key)),
    readTaggedRecord: (key) => atBarrier(bucket.readTaggedRecord(key)),
    async createRecord(key, text, replacing) {
      const created = await bucket.createRecord(key, text, replacing)
      if (created && key === LEASE_KEY) taken()
      return created
    },
    async deleteKeys(keys) {
      if (keys.includes(LEASE_KEY) && ++leaseDeletes === 2) await Promise.race([firstTaken, new Promise((resolve) => setTimeout(resolve, 2000))])
      return bucket.deleteKeys(keys)
    },
  }
  const outcomes = await Promise.allSettled([deploy(racing, tempSite('lease-h-', pages({ 'docs/leads/h.html': 'h' }))), deploy(racing, tempSite('lease-i-', pages({ 'docs/leads/i.html': 'i' })))])
  expect(outcomes.map((outcome) => outcome.status).sort()).toEqual(['fulfilled', 'rejected'])
  expect((outcomes.find((outcome) => outcome.status === 'rejected') as PromiseRejectedResult).reason).toBeInstanceOf(DeployLeaseError)
  expect(await bucket.readRecord(LEASE_KEY)).toBeNull()
})

test('a withdraw with nothing to withdraw takes no lease and writes nothing', async () => {
  const bucket = await newBucket()
  const out = tempSite('lease-j-', pages({}))
  await deploy(bucket, out)
  const from = await s3.requestsSoFar()
  expect((await runWithdraw({ outDir: out, bucket, rules: 'r1' })).deleted).toEqual([])
  await s3.settled()
  expect(s3.requests.slice(from).filter((request) => request.method !== 'GET' && request.method !== 'HEAD')).toEqual([])
})

test('a run stopped by SIGTERM lets its lease go', async () => {
  const bucket = await newBucket()
  const script = path.join(tempSite('lease-k-'), 'hold.ts')
  fs.writeFileSync(
    script,
    [
      `import { withDeployLease } from ${JSON.stringify(path.resolve('scripts/deploy/deployLease'))}`,
      `import { s3ClientFor, s3SiteBucket } from ${JSON.stringify(path.resolve('scripts/deploy/s3Bucket'))}`,
      `const bucket = s3SiteBucket(s3ClientFor({ endpoint: ${JSON.stringify(s3.endpoint)} }), ${JSON.stringify(bucket.name)})`,
      `void withDeployLease(bucket, 'deploy', () => { console.log('held'); return new Promise(() => setInterval(() => {}, 1000)) }, { stopOnSignals: true })`,
    ].join('\n')
  )
  const child = spawn(process.execPath, [path.resolve('node_modules/tsx/dist/cli.mjs'), script], { env: { ...process.env, ...s3.env }, stdio: ['ignore', 'pipe', 'inherit'] })
  await new Promise<void>((resolve) => child.stdout!.on('data', (chunk) => String(chunk).includes('held') && resolve()))
  expect(await bucket.readRecord(LEASE_KEY)).not.toBeNull()
  child.kill('SIGTERM')
  const code = await new Promise((resolve) => child.on('exit', (exitCode) => resolve(exitCode)))
  expect(code).toBe(143)
  expect(await bucket.readRecord(LEASE_KEY)).toBeNull()
})

test('a lease written but not read back (the S3 API failed on the read) is let go: the run fails, and the next one, from any host, is not refused', async () => {
  const bucket = await newBucket()
  const outDir = tempSite('lease-readback-', pages({}))
  let reads = 0
  const failing: SiteBucket = {
    ...bucket,
    async readTaggedRecord(key) {
      if (key === LEASE_KEY && ++reads === 1) throw new Error('AccessDenied: the read of the lease failed')
      return bucket.readTaggedRecord(key)
    },
  }
  await expect(deploy(failing, outDir)).rejects.toThrow('AccessDenied: the read of the lease failed')
  expect([...(await bucket.listKeys())]).not.toContain(LEASE_KEY)
  await deploy(bucket, outDir)
  expect(await siteKeys(bucket)).toEqual(['docs/leads/intro.html', 'index.html'])
})

test("a lease write whose answer was lost, sent again by the SDK and refused, is the run's own: the deploy goes ahead", async () => {
  const bucket = await newBucket()
  let lost = 0
  // The first write takes effect and its answer is lost; the SDK's second send is refused (412): false.
  const losing: SiteBucket = {
    ...bucket,
    async createRecord(key, text, replacing) {
      const created = await bucket.createRecord(key, text, replacing)
      return key === LEASE_KEY && created && ++lost === 1 ? false : created
    },
  }
  await deploy(losing, tempSite('lease-lost-', pages({})))
  expect(lost).toBe(1)
  expect(await siteKeys(bucket)).toEqual(['docs/leads/intro.html', 'index.html'])
  expect(await bucket.readRecord(LEASE_KEY)).toBeNull()
})

test("a run that fails and then cannot let its lease go names its own failure, and says the lease was left", async () => {
  const bucket = await newBucket()
  let leaseReads = 0
  const failing: SiteBucket = {
    ...bucket,
    async upload(file) {
      if (file.key === 'index.html') throw new Error('upload of index.html failed 5 times: ServiceUnavailable')
      return bucket.upload(file)
    },
    async readTaggedRecord(key) {
      // The take's read back, then the release's read, which fails.
      if (key === LEASE_KEY && ++leaseReads === 2) throw new Error('read of the lease failed 5 times: ServiceUnavailable')
      return bucket.readTaggedRecord(key)
    },
  }
  const said = jest.spyOn(console, 'error').mockImplementation(() => {})
  try {
    await expect(deploy(failing, tempSite('lease-left-', pages({})))).rejects.toThrow('upload of index.html failed 5 times: ServiceUnavailable')
    expect(said).toHaveBeenCalledWith(
      `deploy: s3://${bucket.name}/${LEASE_KEY} was not let go (read of the lease failed 5 times: ServiceUnavailable); a run on this machine takes it over once this process has ended; elsewhere, delete it once no run is writing the bucket`
    )
  } finally {
    said.mockRestore()
  }
})
