/**
 * @jest-environment node
 *
 * `npm run deploy` against a real S3 API (s3rver on 127.0.0.1, scripts/deploy/localS3.ts), with
 * a real build in a copy of the project. What the bucket holds is read back through S3, and what
 * a deploy wrote is counted on the server's side.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import crypto from 'node:crypto'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { DeleteObjectCommand, GetObjectCommand, ListObjectsV2Command } from '@aws-sdk/client-s3'
import { copyProject } from '../../scripts/audit/copyProject'
import { CACHE_CONTROL, cacheControlForObject } from '../../edge/cacheHeaders'
import { contentTypeFor } from '../../scripts/server/contentTypes'
import { DEPLOY_RECORD_PREFIX } from '../../infra/lib/stack-outputs'
import { MANIFEST_KEY } from '../../scripts/deploy/deployManifest'
import { readOutRecord } from '../../pipeline/steps/outRecord'
import { changeKey } from '../../scripts/deploy/deployRecord'
import { LEASE_KEY } from '../../scripts/deploy/deployLease'
import { SEAL_KEY } from '../../scripts/deploy/deploySeal'
import { readRulesRecord, RULES_RECORD_KEY } from '../../scripts/deploy/rulesRecord'
import { startLocalS3, type LocalS3 } from '../../scripts/deploy/localS3'
import { runDeploy } from '../../scripts/deploy/runDeploy'
import { s3SiteBucket } from '../../scripts/deploy/s3Bucket'

jest.setTimeout(300_000)

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'deploy-'))
const outDir = path.join(dir, 'out')
const intro = path.join(dir, 'content/docs/leads/intro.mdx')
let s3: LocalS3

type Held = Record<string, { sha256: string; contentType: string; cacheControl: string }>
const sha256 = (bytes: Buffer | Uint8Array) => crypto.createHash('sha256').update(bytes).digest('hex')

/** Runs a command in the copy; resolves with its output, rejects naming it when it fails. */
function run(command: string, args: string[], started?: (child: ChildProcess) => void): Promise<{ code: number | null; stdout: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...s3.env, NEXT_TELEMETRY_DISABLED: '1' } })
    started?.(child)
    let stdout = ''
    let stderr = ''
    child.stdout!.on('data', (chunk) => (stdout += chunk))
    child.stderr!.on('data', (chunk) => (stderr = (stderr + chunk).slice(-4000)))
    child.on('exit', (code, signal) => (code === 0 || signal ? resolve({ code, stdout }) : reject(new Error(`${command} ${args.join(' ')} failed (${code}):\n${stdout.slice(-2000)}\n${stderr}`))))
  })
}
/** The command of an npm script of the copy (`node …`), run without npm, as one process. */
function npmScript(name: string): [string, string[]] {
  const [command, ...args] = (JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts[name].split(' ')
  return [command, args]
}
const build = () => run(...npmScript('build'))
/** `npm run deploy` as a user runs it (one process, so a test can kill it); resolves once the server has reported every request it got. */
async function deploy(bucket: string, extra: string[] = [], started?: (child: ChildProcess) => void) {
  const [command, args] = npmScript('deploy')
  const result = await run(command, [...args, '--bucket', bucket, '--endpoint', s3.endpoint, ...extra], started)
  await s3.settled()
  return result
}

/** What the local server would send for each file of out/: its bytes, and the headers of the functions it answers with. */
function expectedFromOut(): Held {
  const held: Held = {}
  for (const entry of fs.readdirSync(outDir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue
    const file = path.join(entry.parentPath, entry.name)
    const key = path.relative(outDir, file).split(path.sep).join('/')
    held[key] = { sha256: sha256(fs.readFileSync(file)), contentType: contentTypeFor(key), cacheControl: cacheControlForObject('/' + key) }
  }
  return held
}

/** Every object in a bucket, read back: its bytes' sha256 and the headers S3 serves it with. */
async function heldBy(bucket: string): Promise<Held> {
  const held: Held = {}
  let token: string | undefined
  do {
    const page = await s3.client.send(new ListObjectsV2Command({ Bucket: bucket, ContinuationToken: token }))
    for (const { Key } of page.Contents ?? []) {
      const object = await s3.client.send(new GetObjectCommand({ Bucket: bucket, Key }))
      held[Key!] = { sha256: sha256(await object.Body!.transformToByteArray()), contentType: object.ContentType!, cacheControl: object.CacheControl! }
    }
    token = page.IsTruncated ? page.NextContinuationToken : undefined
  } while (token)
  return held
}
/** The site's files, without the deploy's record (its manifest and change records). */
const withoutManifest = (held: Held) => Object.fromEntries(Object.entries(held).filter(([key]) => !key.startsWith(DEPLOY_RECORD_PREFIX)))

/** The keys a deploy wrote or deleted, from the server's log since `from`. */
function writesSince(from: number, bucket = 'site'): { put: string[]; deleted: number } {
  const since = s3.requests.slice(from)
  return {
    put: since.filter((request) => request.method === 'PUT').map((request) => request.path.slice(bucket.length + 2)).sort(),
    // DeleteObjects is a POST (?delete); DeleteObject a DELETE.
    deleted: since.filter((request) => request.method === 'POST' || request.method === 'DELETE').length,
  }
}

beforeAll(async () => {
  copyProject(process.cwd(), dir)
  s3 = await startLocalS3()
  await s3.createBucket('site')
  await s3.createBucket('clean')
  await build()
})
afterAll(async () => {
  await s3?.stop()
  fs.rmSync(dir, { recursive: true, force: true })
})

test('the first deploy uploads every file of out/, each with the Content-Type and Cache-Control the local server sends', async () => {
  await deploy('site')
  const held = await heldBy('site')
  expect(withoutManifest(held)).toEqual(expectedFromOut())
  expect(Object.keys(held)).toContain(MANIFEST_KEY)
  // The headers spelled out, so that a wrong table or rule cannot pass by being used on both sides.
  expect(held['docs/leads/intro.html']).toMatchObject({ contentType: 'text/html; charset=utf-8', cacheControl: CACHE_CONTROL.file })
  const chunk = Object.keys(held).find((key) => key.startsWith('_next/static/chunks/') && key.endsWith('.js'))!
  expect(held[chunk]).toMatchObject({ contentType: 'text/javascript; charset=utf-8', cacheControl: CACHE_CONTROL.hashedAsset })
})

test("the deploy refuses out/ beside an authorizer of other rules (another build's), before it touches the bucket", async () => {
  const link = path.join(dir, 'edge/dist/rules-fingerprint.txt')
  const own = fs.readFileSync(link, 'utf8')
  fs.writeFileSync(link, `${'0'.repeat(64)}\n`)
  try {
    const from = await s3.requestsSoFar()
    await expect(deploy('site')).rejects.toThrow(`${outDir} was built under other rules than the authorizer in ${path.join(dir, 'edge/dist')}: deploy the out/ and the edge/dist of one finished build (npm run build:prod writes both)`)
    await expect(deploy('site', ['--withdraw'])).rejects.toThrow('was built under other rules than the authorizer')
    expect(s3.requests.slice(from)).toEqual([])
  } finally {
    fs.writeFileSync(link, own)
  }
})

test("a deploy with nothing changed writes nothing: the bucket's seal names the build's record, so neither out/ nor the bucket's record is read", async () => {
  let from = await s3.requestsSoFar()
  const sealed = await deploy('site')
  expect(writesSince(from)).toEqual({ put: [], deleted: 0 })
  expect(sealed.stdout).toMatch(/the bucket already holds build \S+ as its record of out\/ names it/)
  // Two small records read (scripts/deploy/deploySeal.ts), and no listing.
  expect(s3.requests.slice(from).map((request) => `${request.method} ${request.path}`).sort()).toEqual([`GET /site/${RULES_RECORD_KEY}`, `GET /site/${SEAL_KEY}`])

  // Without the seal (a bucket deployed before it): out/'s files come from the build's record, compared with the bucket's record, and nothing is written but the seal (and the lease it was compared under, taken and let go).
  await s3.client.send(new DeleteObjectCommand({ Bucket: 'site', Key: SEAL_KEY }))
  from = await s3.requestsSoFar()
  const compared = await deploy('site')
  expect(compared.stdout).toMatch(/files of out\/ as build \S+ recorded them/)
  expect(writesSince(from)).toEqual({ put: [LEASE_KEY, SEAL_KEY], deleted: 1 })
  // With out/ moved away, the deploy still finds nothing to do: it neither walks nor reads out/.
  fs.renameSync(outDir, `${outDir}-aside`)
  try {
    from = await s3.requestsSoFar()
    await deploy('site')
  } finally {
    fs.renameSync(`${outDir}-aside`, outDir)
  }
  expect(writesSince(from)).toEqual({ put: [], deleted: 0 })
})

test('after a one-page edit and an incremental build, a deploy writes exactly the files whose bytes changed', async () => {
  const before = expectedFromOut()
  const recordBefore = readOutRecord(outDir)!.files
  fs.appendFileSync(intro, '\nEdited for the deploy test.\n')
  await build()
  const after = expectedFromOut()
  const changed = Object.keys(after).filter((key) => before[key]?.sha256 !== after[key].sha256).sort()
  expect(changed).toContain('docs/leads/intro.html')
  expect(changed.length).toBeLessThan(Object.keys(after).length / 10)
  // The build's record says what out/ holds, and changed for the files the build rewrote only.
  const record = readOutRecord(outDir)!.files
  expect(Object.fromEntries(Object.entries(record).map(([key, entry]) => [key, entry.sha256]))).toEqual(Object.fromEntries(Object.entries(after).map(([key, entry]) => [key, entry.sha256])))
  expect(Object.keys(record).filter((key) => recordBefore[key]?.sha256 !== record[key].sha256).sort()).toEqual(changed)

  const from = await s3.requestsSoFar()
  await deploy('site')
  // The record: a change record of this deploy's changes, not the whole manifest again; and the
  // rules record, marked while the bucket is written and cleared after (scripts/deploy/rulesRecord.ts).
  expect(writesSince(from).put).toEqual([...changed, changeKey(2), LEASE_KEY, RULES_RECORD_KEY, RULES_RECORD_KEY, SEAL_KEY].sort())
  // From the build's record of what changed since the deploy before (pipeline/steps/outDelta.ts): neither the bucket listed nor its record read.
  expect(s3.requests.slice(from).filter((request) => request.listPrefix !== undefined || request.path.endsWith(MANIFEST_KEY))).toEqual([])
  const held = withoutManifest(await heldBy('site'))
  expect(Object.fromEntries(Object.keys(after).map((key) => [key, held[key]]))).toEqual(after)
  // The edited page's old search files go at once: they hold its old text (a tab open on the old build searches without them until it reloads).
  expect(Object.keys(held).filter((key) => !(key in after))).toEqual([])
})

test("a removed page's files go at once: its page, Markdown, data file and search files; only hashed build code stays for open tabs", async () => {
  const page = path.join(dir, 'content/docs/leads/removed-later.mdx')
  fs.writeFileSync(page, '---\ntitle: Removed later\n---\n\n# Removed later\n\nA page that goes.\n')
  await build()
  await deploy('site')
  const withPage = Object.keys(await heldBy('site'))
  expect(withPage).toContain('docs/leads/removed-later.html')

  fs.rmSync(page)
  await build()
  await deploy('site')
  const held = await heldBy('site')
  const gone = withPage.filter((key) => !(key in held))
  expect(gone).toEqual(expect.arrayContaining(['docs/leads/removed-later.html', 'docs/leads/removed-later.md']))
  // The build ID did not change, but the page's data file went from out/: it goes from the bucket too.
  expect(gone.some((key) => /^_next\/data\/[^/]+\/docs\/leads\/removed-later\.json$/.test(key))).toBe(true)
  const kept = Object.keys(withoutManifest(held)).filter((key) => !(key in expectedFromOut()))
  expect(kept.filter((key) => !key.startsWith('_next/static/') || key.includes('/_routes/'))).toEqual([])

  // Two days and a bit later, the next deploy deletes the kept build code, and the bucket holds out/ exactly.
  const later = new Date(Date.now() + 49 * 3_600_000)
  const result = await runDeploy({ outDir, bucket: s3SiteBucket(s3.client, 'site'), graceMs: 48 * 3_600_000, now: () => later })
  expect(result.uploaded).toBe(0)
  expect(result.deleted).toBe(kept.length)
  expect(withoutManifest(await heldBy('site'))).toEqual(expectedFromOut())
})

test('a deploy killed halfway leaves the old site whole, and the next run leaves the bucket as a clean deploy does', async () => {
  const old = await heldBy('site')
  fs.appendFileSync(intro, '\nEdited again, for the interrupted deploy.\n')
  await build()

  const from = await s3.requestsSoFar()
  let child: ChildProcess | null = null
  let puts = 0
  s3.onRequest = (request) => {
    // Killed from the server's side on its second upload of a file (the first write is the rules
    // record saying an upload is under way), while the rest of that phase is in flight.
    if (request.method === 'PUT' && !request.path.includes(`/${DEPLOY_RECORD_PREFIX}`) && ++puts === 2) child?.kill('SIGKILL')
  }
  const killed = await deploy('site', [], (started) => (child = started)).finally(() => (s3.onRequest = null))
  expect(killed.code).toBeNull()
  // Of the record, only the lease and the rules record were written, before the first file: the rules record says an upload was cut short.
  expect(writesSince(from).put.filter((key) => key.startsWith(DEPLOY_RECORD_PREFIX))).toEqual([LEASE_KEY, RULES_RECORD_KEY])
  expect(await readRulesRecord(s3SiteBucket(s3.client, 'site'))).toMatchObject({ uploading: true })

  // Every page still served is the old one, and every build file a page names is there.
  const interrupted = await heldBy('site')
  for (const key of Object.keys(old).filter((name) => name.endsWith('.html'))) expect(interrupted[key]).toEqual(old[key])
  const namedByPages = new Set<string>()
  for (const [key] of Object.entries(interrupted).filter(([name]) => name.endsWith('.html'))) {
    const object = await s3.client.send(new GetObjectCommand({ Bucket: 'site', Key: key }))
    for (const match of (await object.Body!.transformToString()).matchAll(/(?:src|href)="\/(_next\/static\/[^"?#]+)"/g)) namedByPages.add(decodeURIComponent(match[1]))
  }
  expect(namedByPages.size).toBeGreaterThan(5)
  expect([...namedByPages].filter((key) => !(key in interrupted))).toEqual([])

  await deploy('site', ['--grace-hours', '0'])
  await deploy('clean', ['--grace-hours', '0'])
  const [resumed, clean] = await Promise.all([heldBy('site'), heldBy('clean')])
  expect(withoutManifest(resumed)).toEqual(withoutManifest(clean))
  expect(withoutManifest(resumed)).toEqual(expectedFromOut())
})

test("a build stopped half way leaves out/ beside no rules fingerprint or user pool: the deploy refuses it, naming what to build, until a build finishes", async () => {
  fs.appendFileSync(intro, '\nEdited once more, for the stopped build.\n')
  const [command, args] = npmScript('build')
  const child = spawn(command, args, { cwd: dir, stdio: ['ignore', 'pipe', 'ignore'], env: { ...process.env, NEXT_TELEMETRY_DISABLED: '1' } })
  let output = ''
  // Stopped once its steps write into out/: the render has started.
  child.stdout!.on('data', (chunk) => {
    output += chunk
    if (output.includes('build: render')) child.kill('SIGKILL')
  })
  await new Promise((resolve) => child.on('exit', resolve))
  expect(output).toContain('build: render')
  expect(output).not.toContain('build: edge')
  for (const file of ['rules-fingerprint.txt', 'user-pool.json']) expect([file, fs.existsSync(path.join(dir, 'edge/dist', file))]).toEqual([file, false])
  await expect(deploy('site')).rejects.toThrow(/rules-fingerprint\.txt is missing: the deploy needs the edge bundle built with out\//)
  await build()
  await deploy('site')
})
