/**
 * @jest-environment node
 *
 * The deploy takes out/'s files from the build's record of them (pipeline/steps/outRecord.ts,
 * scripts/deploy/localFiles.ts): with nothing to do it touches no file of out/; after an edit the
 * build rehashes only what it rewrote and the deploy uploads exactly that; without a whole record
 * (a build stopped half way, a damaged record) the deploy hashes out/ itself and still uploads
 * what changed. Against a real S3 API (s3rver on 127.0.0.1), with every way the deploy could open
 * a file of out/ counted.
 */
import fs from 'node:fs'
import path from 'node:path'
import { GetObjectCommand } from '@aws-sdk/client-s3'
import { readLastOutRecord, outRecordFileFor, readOut, readOutRecord, readOutRecordHeader, setOutRecordAside } from '../../pipeline/steps/outRecord'
import { listFiles } from '../../pipeline/files'
import { writtenBy } from '../../pipeline/steps/outFiles'
import { startLocalS3, type LocalS3 } from '../../scripts/deploy/localS3'
import { DamagedOutRecordError, NoBuildError } from '../../scripts/deploy/localFiles'
import { runDeploy } from '../../scripts/deploy/runDeploy'
import { s3SiteBucket } from '../../scripts/deploy/s3Bucket'
import { tempSite } from '../fixtures/tempSite'

jest.setTimeout(60_000)

let s3: LocalS3
beforeAll(async () => (s3 = await startLocalS3()))
afterAll(() => s3.stop())

/** An hour ago, in whole seconds: out/ as a build long finished left it. */
const BUILT_AT = Math.floor(Date.now() / 1000) - 3600
const FILES = {
  'index.html': '<html>home</html>',
  'docs/intro.html': '<html>intro, as built</html>',
  'docs/guide.html': '<html>guide, as built</html>',
  'docs/intro.md': '# Intro\n',
  '_next/data/b1/docs/intro.json': '{"pageProps":{}}',
  '_next/static/chunks/main-0123456789abcdef.js': 'console.log(1)',
}
const KEYS = Object.keys(FILES).sort()
let sites = 0

/** A built site: out/ as a build long finished left it, the build's record of it, and a bucket of its own. */
async function builtSite() {
  const root = tempSite('out-record-', Object.fromEntries(Object.entries(FILES).map(([key, text]) => [`out/${key}`, text])))
  const outDir = path.join(root, 'out')
  for (const key of KEYS) fs.utimesSync(path.join(outDir, key), BUILT_AT, BUILT_AT)
  setOutRecordAside(outDir)
  readOut(outDir).write('b1')
  const bucket = `site-${++sites}`
  await s3.createBucket(bucket)
  return { outDir, bucket, file: (key: string) => path.join(outDir, key) }
}

/** What a rebuild that rewrote `edits` does to out/ and its record: set aside at the start, files written, record written last. */
function rebuild(site: { outDir: string; file: (key: string) => string }, edits: Record<string, string>) {
  setOutRecordAside(site.outDir)
  for (const [key, text] of Object.entries(edits)) fs.writeFileSync(site.file(key), text)
  return readOut(site.outDir).write('b1')
}

/** One deploy: the files of out/ it stat'ed or opened, by any of the ways a file can be, and the keys it uploaded. */
async function deploy(site: { outDir: string; bucket: string }, options: { wholeRecord?: boolean } = {}) {
  const touched = new Set<string>()
  const spy = <T extends object>(owner: T, name: keyof T) => {
    const original = owner[name] as (...args: unknown[]) => unknown
    return jest.spyOn(owner, name as never).mockImplementation(((file: unknown, ...rest: unknown[]) => {
      const relative = path.relative(site.outDir, path.resolve(String(file)))
      if (!relative.startsWith('..')) touched.add(relative.split(path.sep).join('/'))
      return original.call(owner, file, ...rest)
    }) as never)
  }
  const spies = [
    ...(['createReadStream', 'readFileSync', 'readFile', 'openSync', 'open', 'statSync', 'stat', 'lstatSync', 'existsSync', 'readdirSync'] as const).map((name) => spy(fs, name)),
    ...(['readFile', 'open', 'stat', 'lstat', 'readdir'] as const).map((name) => spy(fs.promises, name)),
  ]
  try {
    const result = await runDeploy({ outDir: site.outDir, bucket: s3SiteBucket(s3.client, site.bucket), graceMs: 0, ...options })
    return { fromBuild: result.fromBuild, touched: [...touched].sort(), uploaded: (result.plan?.phases ?? []).flatMap((phase) => phase.files.map((file) => file.key)).sort() }
  } finally {
    spies.forEach((each) => each.mockRestore())
  }
}

async function held(bucket: string, key: string): Promise<string> {
  const object = await s3.client.send(new GetObjectCommand({ Bucket: bucket, Key: key }))
  return object.Body!.transformToString()
}

test('a deploy with nothing to do neither stats nor reads any file of out/, and succeeds with out/ gone', async () => {
  const site = await builtSite()
  // The first deploy reads each file once, to upload it, and nothing else of out/.
  expect(await deploy(site)).toEqual({ fromBuild: 'b1', touched: KEYS, uploaded: KEYS })
  expect(await deploy(site)).toEqual({ fromBuild: 'b1', touched: [], uploaded: [] })
  // Not a file of out/ is needed: a deploy that walked or stat'ed out/ would fail here.
  fs.renameSync(site.outDir, `${site.outDir}-aside`)
  expect(await deploy(site)).toEqual({ fromBuild: 'b1', touched: [], uploaded: [] })
})

test('after a one-file edit and rebuild, the record changes for that file only, and the deploy uploads exactly it', async () => {
  const site = await builtSite()
  await deploy(site)
  const before = readOutRecord(site.outDir)!.files
  const summary = rebuild(site, { 'docs/intro.html': '<html>intro, edited and longer</html>' })
  // The rebuild hashed the one file it rewrote; the others kept their stat and their recorded hash.
  expect(summary).toEqual({ files: KEYS.length, hashed: 1, buildId: 'b1' })
  const after = readOutRecord(site.outDir)!.files
  expect(KEYS.filter((key) => JSON.stringify(before[key]) !== JSON.stringify(after[key]))).toEqual(['docs/intro.html'])
  expect(await deploy(site)).toEqual({ fromBuild: 'b1', touched: ['docs/intro.html'], uploaded: ['docs/intro.html'] })
  expect(await held(site.bucket, 'docs/intro.html')).toBe('<html>intro, edited and longer</html>')
  // Hashed less than two seconds after it was written, its stat is not trusted: the next build hashes it again.
  expect(rebuild(site, {}).hashed).toBe(1)
})

test("a record made from the last one is the one a build that trusted no record would write, as pages' inline scripts change, appear and go", async () => {
  const site = await builtSite()
  const script = (name: string) => `<html><script>${name}()</script></html>`
  /** The record a build that trusted nothing would write now: every file read again. */
  const fresh = () => {
    setOutRecordAside(site.outDir)
    return readOut(site.outDir, undefined, { lines: new Map(), digest: null, scripts: [] }).write('b1')
  }
  const digests = (edits: Record<string, string>) => {
    const made = rebuild(site, edits)
    const kept = readOutRecord(site.outDir)!.digest
    const summary = fresh()
    return { hashed: made.hashed, kept, fresh: readOutRecord(site.outDir)!.digest, all: summary.hashed }
  }
  // Two pages with scripts of their own; then the first takes the second's (its own reading goes);
  // then a page before both brings a new one; then nothing changes.
  const steps: Record<string, string>[] = [{ 'docs/a.html': script('a'), 'docs/b.html': script('b') }, { 'docs/a.html': script('b') }, { 'docs/0.html': script('c') }, {}]
  for (const edits of steps) {
    const { kept, fresh: whole, hashed, all } = digests(edits)
    expect(kept).toBe(whole)
    expect(hashed).toBeLessThan(all)
  }
})

test('a file rewritten with the same size and, by a coarse clock, the same time as when it was recorded is hashed again by the next build', async () => {
  const site = await builtSite()
  const justNow = (Date.now() - 500) / 1000
  rebuild(site, { 'docs/guide.html': '<html>guide, take two</html>' })
  fs.utimesSync(site.file('docs/guide.html'), justNow, justNow)
  rebuild(site, {})
  await deploy(site)
  // Written again, same size, same time: the record set aside has no stat for it, so it is read.
  const summary = rebuild(site, { 'docs/guide.html': '<html>guide, take 3!!</html>' })
  fs.utimesSync(site.file('docs/guide.html'), justNow, justNow)
  expect(summary.hashed).toBe(1)
  expect(await deploy(site)).toEqual({ fromBuild: 'b1', touched: ['docs/guide.html'], uploaded: ['docs/guide.html'] })
  expect(await held(site.bucket, 'docs/guide.html')).toBe('<html>guide, take 3!!</html>')
})

test('a build stopped half way leaves no record: the deploy hashes out/ itself and uploads what changed; the next build hashes only what changed', async () => {
  const site = await builtSite()
  await deploy(site)
  // One killed while it wrote its record left the part it wrote, which the next build removes (a fault review's leftover).
  const partial = `${outRecordFileFor(site.outDir)}.4242.partial`
  fs.writeFileSync(partial, 'part of a record')
  // Stopped after writing a file, before its record.
  setOutRecordAside(site.outDir)
  fs.writeFileSync(site.file('docs/guide.html'), '<html>guide, half a build</html>')
  expect(fs.existsSync(outRecordFileFor(site.outDir))).toBe(false)
  expect(await deploy(site)).toEqual({ fromBuild: null, touched: expect.arrayContaining(KEYS), uploaded: ['docs/guide.html'] })
  expect(await held(site.bucket, 'docs/guide.html')).toBe('<html>guide, half a build</html>')
  // The next build starts with no record to set aside and keeps the one set aside before.
  expect(rebuild(site, {}).hashed).toBe(1)
  expect(fs.existsSync(partial)).toBe(false)
  expect(await deploy(site)).toEqual({ fromBuild: 'b1', touched: [], uploaded: [] })
})

test('a damaged or truncated record is not trusted: the deploy hashes out/', async () => {
  const site = await builtSite()
  const file = outRecordFileFor(site.outDir)
  const whole = fs.readFileSync(file, 'utf8')
  // A hash changed by hand no longer matches the record's digest.
  fs.writeFileSync(file, whole.replace(/\t([0-9a-f])([0-9a-f]{63})\t/, (_, first: string, others: string) => `\t${first === '0' ? '1' : '0'}${others}\t`))
  expect((await deploy(site)).fromBuild).toBeNull()
  fs.writeFileSync(file, whole.slice(0, whole.length / 2))
  expect(await deploy(site)).toEqual({ fromBuild: null, touched: expect.arrayContaining(KEYS), uploaded: [] })
  // npm run deploy asks for the whole record: its first line alone (rules, pool) says nothing of which files the build wrote (a fault review's stray file shipped).
  fs.writeFileSync(site.file('docs/stray.html'), '<html>put there by hand</html>')
  await expect(deploy(site, { wholeRecord: true })).rejects.toThrow(DamagedOutRecordError)
  await expect(deploy(site, { wholeRecord: true })).rejects.toThrow(/is not whole: its files do not match its digest, so nothing says which files of .* the build wrote \(one put there by hand would ship\); build again/)
  expect(await deploy(site)).toEqual({ fromBuild: null, touched: expect.arrayContaining(KEYS), uploaded: ['docs/stray.html'] })
  fs.rmSync(site.file('docs/stray.html'))
  fs.rmSync(file)
  fs.rmSync(site.outDir, { recursive: true })
  await expect(deploy(site)).rejects.toThrow(NoBuildError)
})

test("a record whose first line is not this build's header (another version, a digest that is not one, a field missing) is not read", async () => {
  const site = await builtSite()
  const file = outRecordFileFor(site.outDir)
  const whole = fs.readFileSync(file, 'utf8')
  const newline = whole.indexOf('\n')
  const header = JSON.parse(whole.slice(0, newline)) as Record<string, unknown>
  expect(readOutRecordHeader(site.outDir)).toEqual({ buildId: 'b1', digest: header.digest, rules: null, pool: null })
  const { buildId: _dropped, ...noBuildId } = header
  for (const changed of [{ ...header, version: 1 }, { ...header, digest: 'f'.repeat(63) }, { ...header, digest: 42 }, noBuildId, null]) {
    fs.writeFileSync(file, `${JSON.stringify(changed)}${whole.slice(newline)}`)
    expect([readOutRecordHeader(site.outDir), readOutRecord(site.outDir)]).toEqual([null, null])
  }
})

test('the deploy trusts the record: a file changed in out/ after the build is not seen until a build that stats it', async () => {
  const site = await builtSite()
  await deploy(site)
  fs.writeFileSync(site.file('docs/intro.md'), '# Intro, edited after the build\n')
  expect(await deploy(site)).toEqual({ fromBuild: 'b1', touched: [], uploaded: [] })
  expect(await held(site.bucket, 'docs/intro.md')).toBe('# Intro\n')
  rebuild(site, {})
  expect(await deploy(site)).toEqual({ fromBuild: 'b1', touched: ['docs/intro.md'], uploaded: ['docs/intro.md'] })
  expect(await held(site.bucket, 'docs/intro.md')).toBe('# Intro, edited after the build\n')
})

test("a rebuild in place stats and reads only what its steps wrote; a file added or removed is seen, one changed by hand is not, and the deploy uploads what the build wrote", async () => {
  const site = await builtSite()
  await deploy(site)
  setOutRecordAside(site.outDir)
  fs.writeFileSync(site.file('docs/intro.html'), '<html>intro, written by the render</html>')
  fs.writeFileSync(site.file('_next/data/b1/docs/intro.json'), '{"pageProps":{"edited":true}}')
  fs.writeFileSync(site.file('docs/guide.html'), '<html>guide, changed by hand</html>')
  fs.writeFileSync(site.file('docs/added.html'), '<html>added</html>')
  fs.rmSync(site.file('docs/intro.md'))
  const statted: string[] = []
  const lstat = fs.lstatSync
  const spy = jest.spyOn(fs, 'lstatSync').mockImplementation(((file: string, ...rest: never[]) => {
    const relative = path.relative(site.outDir, file)
    if (!relative.startsWith('..')) statted.push(relative)
    return lstat(file, ...rest)
  }) as never)
  try {
    // What the steps said they wrote: a page's HTML, and a folder its data file is in.
    const summary = readOut(site.outDir, undefined, undefined, [{ files: ['docs/intro.html'] }, { files: [], folders: ['_next/data/'] }]).write('b1')
    expect(summary).toEqual({ files: KEYS.length, hashed: 3, buildId: 'b1' })
  } finally {
    spy.mockRestore()
  }
  // The added file, which no step named, is read as the last record does not name it.
  expect(statted.sort()).toEqual(['_next/data/b1/docs/intro.json', 'docs/added.html', 'docs/intro.html'])
  const record = readOutRecord(site.outDir)!.files
  expect(Object.keys(record).sort()).toEqual([...KEYS.filter((key) => key !== 'docs/intro.md'), 'docs/added.html'].sort())
  expect(await deploy(site)).toEqual({ fromBuild: 'b1', touched: ['_next/data/b1/docs/intro.json', 'docs/added.html', 'docs/intro.html'], uploaded: ['_next/data/b1/docs/intro.json', 'docs/added.html', 'docs/intro.html'] })
  // out/ is the build's: the page changed by hand keeps its recorded hash, and the bucket the build's page.
  expect(await held(site.bucket, 'docs/guide.html')).toBe('<html>guide, as built</html>')
  await expect(held(site.bucket, 'docs/intro.md')).rejects.toThrow()
  // A build that stats every file (one after a build stopped half way, or after `next build`) reads it.
  setOutRecordAside(site.outDir)
  readOut(site.outDir).write('b1')
  expect(await deploy(site)).toEqual({ fromBuild: 'b1', touched: ['docs/guide.html'], uploaded: ['docs/guide.html'] })
})

test("a deploy of another folder beside out/ (--out) does not take out/'s record: it hashes that folder and uploads what it holds", async () => {
  const site = await builtSite()
  const staging = path.join(path.dirname(site.outDir), 'out-staging')
  fs.cpSync(site.outDir, staging, { recursive: true })
  fs.writeFileSync(path.join(staging, 'docs/staged.html'), '<html>only in staging</html>')
  const result = await deploy({ outDir: staging, bucket: site.bucket })
  expect(result.fromBuild).toBeNull()
  expect(result.uploaded).toEqual([...KEYS, 'docs/staged.html'].sort())
  expect(await held(site.bucket, 'docs/staged.html')).toBe('<html>only in staging</html>')
  // out/ itself still deploys from its record.
  expect((await deploy(site)).fromBuild).toBe('b1')
})

test('a file of out/ whose name is not ASCII is recorded and read back under its own name', () => {
  const root = tempSite('out-record-names-', { 'out/index.html': '<html>home</html>', 'out/docs/café-日本.html': '<html>é</html>' })
  const outDir = path.join(root, 'out')
  setOutRecordAside(outDir)
  readOut(outDir).write('b1')
  expect(Object.keys(readOutRecord(outDir)!.files).sort()).toEqual(['docs/café-日本.html', 'index.html'])
})

test('a record of more files than one write takes is read back whole, each file under its own name', () => {
  const names = Array.from({ length: 1300 }, (_, i) => `docs/page-${String(i).padStart(4, '0')}.html`)
  const root = tempSite('out-record-many-', Object.fromEntries(names.map((name, i) => [`out/${name}`, `<html>${i}</html>`])))
  const outDir = path.join(root, 'out')
  setOutRecordAside(outDir)
  readOut(outDir).write('b1')
  const files = readOutRecord(outDir)!.files
  expect(Object.keys(files)).toEqual(names)
  expect(files[names[1299]].size).toBe('<html>1299</html>'.length)
})

test("a step's folder covers every file under it, at any depth, and no folder whose name only begins the same", () => {
  const written = writtenBy([{ files: ['docs/intro.html'] }, { files: [], folders: ['docs/_pagefind/1/'] }])
  expect(['docs/intro.html', 'docs/_pagefind/1/pagefind-entry.json', 'docs/_pagefind/1/fragment/en_1.pf_fragment'].every(written)).toBe(true)
  expect(['docs/intro.md', 'docs/_pagefind/10/pagefind-entry.json', 'docs/_pagefind/shards.json', 'docs/_pagefind/1'].some(written)).toBe(false)
})

test('a rebuild in place removes from out/ a file that neither its steps wrote nor the last build recorded (put there by hand), so the record and the deploy never take it', async () => {
  const site = await builtSite()
  await deploy(site)
  setOutRecordAside(site.outDir)
  fs.writeFileSync(site.file('docs/intro.html'), '<html>intro, written by the render</html>')
  fs.writeFileSync(site.file('docs/stray.html'), '<html>dropped into out/ by hand</html>')
  const log = jest.spyOn(console, 'log').mockImplementation(() => {})
  try {
    readOut(site.outDir, undefined, readLastOutRecord(site.outDir), [{ files: ['docs/intro.html'] }]).write('b1')
    expect(log.mock.calls.flat().join('\n')).toContain('removed 1 file(s) from out/ that no build wrote (docs/stray.html)')
  } finally {
    log.mockRestore()
  }
  expect(fs.existsSync(site.file('docs/stray.html'))).toBe(false)
  expect(Object.keys(readOutRecord(site.outDir)!.files).sort()).toEqual([...KEYS].sort())
  expect(await deploy(site)).toEqual({ fromBuild: 'b1', touched: ['docs/intro.html'], uploaded: ['docs/intro.html'] })
})

test('a rebuild in place that removes the last files of a folder leaves no empty folder in out/, as a clean build would not; a folder still holding a file stays', () => {
  const root = tempSite('out-record-folders-', {
    'out/index.html': '<html>home</html>',
    'out/docs/moved/a.html': '<html>moved away, beside a folder</html>',
    'out/docs/moved/deep/page.html': '<html>moved away</html>',
    'out/docs/moved/deep/page.md': '# Moved away\n',
    'out/docs/kept/page.html': '<html>kept</html>',
    'out/docs/kept/old.html': '<html>removed</html>',
  })
  const outDir = path.join(root, 'out')
  setOutRecordAside(outDir)
  readOut(outDir).write('b1')
  setOutRecordAside(outDir)
  for (const key of ['docs/moved/a.html', 'docs/moved/deep/page.html', 'docs/moved/deep/page.md', 'docs/kept/old.html']) fs.rmSync(path.join(outDir, key))
  // A file dropped by hand into a folder of its own goes with its folder.
  fs.mkdirSync(path.join(outDir, 'docs/by-hand'))
  fs.writeFileSync(path.join(outDir, 'docs/by-hand/stray.html'), '<html>stray</html>')
  const log = jest.spyOn(console, 'log').mockImplementation(() => {})
  try {
    readOut(outDir, undefined, readLastOutRecord(outDir), [{ files: [] }]).write('b2')
  } finally {
    log.mockRestore()
  }
  expect(fs.existsSync(path.join(outDir, 'docs/moved'))).toBe(false)
  expect(fs.existsSync(path.join(outDir, 'docs/by-hand'))).toBe(false)
  expect(fs.readdirSync(path.join(outDir, 'docs')).sort()).toEqual(['kept'])
  expect(fs.readdirSync(path.join(outDir, 'docs/kept'))).toEqual(['page.html'])
})
