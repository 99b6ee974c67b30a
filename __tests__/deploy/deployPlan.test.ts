/** @jest-environment node */
import { CACHE_CONTROL } from '../../edge/cacheHeaders'
import { EMPTY_MANIFEST, MANIFEST_KEY, packRecord, parseChange, parseManifest, sameManifest, serialiseManifest, unpackRecord, type DeployManifest } from '../../scripts/deploy/deployManifest'
import { planDeploy, type LocalFile } from '../../scripts/deploy/deployPlan'
import { invalidationPaths, MAX_INVALIDATION_PATHS } from '../../scripts/deploy/invalidationPaths'
import { parseDeployArgs } from '../../scripts/deploy/deployArgs'
import { cloudFrontInvalidator } from '../../scripts/deploy/cloudFrontInvalidation'
import { assertAuthorizerOf, siteTargetsOf } from '../../scripts/deploy/stackOutputs'
import { RulesChangedError } from '../../scripts/deploy/rulesRecord'

const HOUR = 3_600_000
const now = new Date('2026-05-01T12:00:00Z')
const file = (key: string, sha = 'a'): LocalFile => ({ key, file: `/out/${key}`, bytes: 10, sha256: sha.repeat(64).slice(0, 64), contentType: 'text/plain', cacheControl: CACHE_CONTROL.file })
const deployed = (files: LocalFile[], retired: Record<string, string> = {}): DeployManifest => ({
  version: 1,
  through: 0,
  files: Object.fromEntries(files.map(({ key, sha256, contentType, cacheControl }) => [key, { sha256, contentType, cacheControl }])),
  retired,
})
const site = [file('_next/static/b1/_routes/a1.js'), file('_next/static/chunks/main-1.js'), file('_next/data/b1/docs/a.json'), file('docs/a.md'), file('docs/_pagefind/0/pagefind.en_1.pf_meta'), file('docs/_pagefind/0/pagefind-entry.json'), file('docs/_pagefind/shards.json'), file('docs/pages.json'), file('docs/a.html'), file('index.html')]
const keysOf = (files: LocalFile[]) => new Set([...files.map((entry) => entry.key), MANIFEST_KEY])

describe('the plan', () => {
  test('a new bucket gets every file: build files first (route manifests, new names, with them), then content, search metadata, indexes, the search shard lists that name the indexes, and pages', () => {
    const plan = planDeploy(site, { manifest: null, keys: new Set() }, now, 48 * HOUR)
    expect(plan.phases.map((phase) => [phase.name, phase.files.map((entry) => entry.key)])).toEqual([
      ['build files', ['_next/static/b1/_routes/a1.js', '_next/static/chunks/main-1.js']],
      ['content', ['_next/data/b1/docs/a.json', 'docs/a.md']],
      ['search metadata', ['docs/_pagefind/0/pagefind.en_1.pf_meta']],
      ['indexes', ['docs/_pagefind/0/pagefind-entry.json', 'docs/pages.json']],
      ['search shard lists', ['docs/_pagefind/shards.json']],
      ['pages', ['docs/a.html', 'index.html']],
    ])
    expect(plan.manifestChanged).toBe(true)
  })

  test('a route manifest the bucket holds goes up after the pages it lists; one of a new build ID with the build files, before the pages that the reader view, from the edge deployed first, sends to it', () => {
    const edited = site.map((entry) => (entry.key === 'docs/a.html' || entry.key.includes('/_routes/') ? { ...entry, sha256: 'c'.repeat(64) } : entry))
    const sameBuild = planDeploy(edited, { manifest: deployed(site), keys: keysOf(site) }, now, 48 * HOUR)
    expect(sameBuild.phases.map((phase) => [phase.name, phase.files.map((entry) => entry.key)])).toEqual([
      ['pages', ['docs/a.html']],
      ['route manifests', ['_next/static/b1/_routes/a1.js']],
    ])
    const newBuild = edited.map((entry) => (entry.key.includes('/_routes/') ? { ...entry, key: '_next/static/b2/_routes/a1.js' } : entry))
    expect(planDeploy(newBuild, { manifest: deployed(site), keys: keysOf(site) }, now, 48 * HOUR).phases.map((phase) => [phase.name, phase.files.map((entry) => entry.key)])).toEqual([
      ['build files', ['_next/static/b2/_routes/a1.js']],
      ['pages', ['docs/a.html']],
    ])
  })

  test('what the manifest records and the bucket holds is not uploaded again, and the manifest is not rewritten', () => {
    const plan = planDeploy(site, { manifest: deployed(site), keys: keysOf(site) }, now, 48 * HOUR)
    expect([plan.phases, plan.deleteNow, plan.changedKeys, plan.manifestChanged, plan.unchanged]).toEqual([[], [], [], false, site.length])
  })

  test('a file whose bytes, type or Cache-Control changed is uploaded; so is one the bucket lost', () => {
    const edited = site.map((entry) => (entry.key === 'docs/a.html' ? file('docs/a.html', 'b') : entry.key === 'docs/a.md' ? { ...entry, cacheControl: 'no-store' } : entry))
    const keys = keysOf(site)
    keys.delete('index.html')
    const plan = planDeploy(edited, { manifest: deployed(site), keys }, now, 48 * HOUR)
    expect(plan.phases.flatMap((phase) => phase.files.map((entry) => entry.key))).toEqual(['docs/a.md', 'docs/a.html', 'index.html'])
    expect(plan.changedKeys).toEqual(['docs/a.html', 'docs/a.md'])
  })

  test('a route manifest changed under its name is invalidated; a changed chunk, a new name, is not', () => {
    const edited = site.map((entry) => (entry.key.startsWith('_next/static/') ? { ...entry, sha256: 'c'.repeat(64) } : entry))
    expect(planDeploy(edited, { manifest: deployed(site), keys: keysOf(site) }, now, 48 * HOUR).changedKeys).toEqual(['_next/static/b1/_routes/a1.js'])
  })

  test('a removed page goes at once; an earlier build file stays until the grace has passed, counted from when it left out/', () => {
    const next = site.filter((entry) => !['docs/a.html', 'docs/a.md', '_next/static/chunks/main-1.js'].includes(entry.key))
    const first = planDeploy(next, { manifest: deployed(site), keys: keysOf(site) }, now, 48 * HOUR)
    expect(first.deleteNow).toEqual(['docs/a.html', 'docs/a.md'])
    expect(first.keptForGrace).toEqual(['_next/static/chunks/main-1.js'])
    expect(first.manifest.retired).toEqual({ '_next/static/chunks/main-1.js': now.toISOString() })

    const keys = keysOf(next)
    keys.add('_next/static/chunks/main-1.js')
    const later = (hours: number) => planDeploy(next, { manifest: first.manifest, keys }, new Date(now.getTime() + hours * HOUR), 48 * HOUR)
    expect(later(47).deleteNow).toEqual([])
    expect(later(47).manifestChanged).toBe(false)
    expect(later(48).deleteNow).toEqual(['_next/static/chunks/main-1.js'])
    expect(later(48).manifest.retired).toEqual({})
  })

  test("an earlier build's page text goes at once (data files, search files, llms files, catalogs, route manifests), even one an earlier deploy kept; only its hashed build code stays for open tabs", () => {
    const earlier = [
      file('_next/data/b0/docs/a.json'),
      file('docs/_pagefind/0/fragment/en_0old.pf_fragment'),
      file('docs/_pagefind/0/index/en_0old.pf_index'),
      file('docs/_pagefind/0/pagefind.en_0old.pf_meta'),
      file('docs/secret/llms-full.txt'),
      file('docs/secret/pages.json'),
      file('_next/static/b0/_routes/a1.js'),
      file('_next/static/b0/_buildManifest.js'),
      file('_next/static/chunks/main-0.js'),
    ]
    const before = [...site, ...earlier]
    // The data file was kept by a deploy before this rule: it goes now too.
    const plan = planDeploy(site, { manifest: deployed(before, { '_next/data/b0/docs/a.json': now.toISOString() }), keys: keysOf(before) }, now, 48 * HOUR)
    expect(plan.keptForGrace).toEqual(['_next/static/b0/_buildManifest.js', '_next/static/chunks/main-0.js'])
    expect(plan.deleteNow).toEqual(earlier.map((entry) => entry.key).filter((key) => !plan.keptForGrace.includes(key)).sort())
  })
})

describe('invalidation paths', () => {
  test('a page under its route and its key; the home page as /; other files by key, encoded', () => {
    expect(invalidationPaths(['docs/a.html', 'index.html', 'docs/images/a b.svg'])).toEqual(['/', '/docs/a', '/docs/a.html', '/docs/images/a%20b.svg', '/index.html'])
  })
  test('beyond CloudFront\'s quota of paths, one wildcard', () => {
    const many = Array.from({ length: MAX_INVALIDATION_PATHS }, (_, index) => `docs/file-${index}.txt`)
    expect(invalidationPaths(many)).toHaveLength(MAX_INVALIDATION_PATHS)
    expect(invalidationPaths([...many, 'docs/one-more.txt'])).toEqual(['/*'])
  })
  test('the invalidator hands CloudFront the paths and returns its id', async () => {
    const calls: unknown[] = []
    const invalidate = cloudFrontInvalidator({ createInvalidation: async (input) => (calls.push(input), { Invalidation: { Id: 'I123' } }) }, 'E1', () => 'ref-1')
    await expect(invalidate(['/docs/a'])).resolves.toBe('I123')
    expect(calls).toEqual([{ DistributionId: 'E1', InvalidationBatch: { CallerReference: 'ref-1', Paths: { Quantity: 1, Items: ['/docs/a'] } } }])
  })
})

describe('comparing manifests', () => {
  // The plan writes the record when the bucket's manifest differs from the one it would write; the
  // comparison must see every difference the written text would, and nothing else.
  const base = deployed(site, { '_next/static/chunks/old.js': '2026-04-30T12:00:00.000Z' })
  const variants: Array<[string, DeployManifest]> = [
    ['a file changed', { ...base, files: { ...base.files, 'docs/a.html': { ...base.files['docs/a.html'], sha256: 'b'.repeat(64) } } }],
    ['a header changed', { ...base, files: { ...base.files, 'docs/a.html': { ...base.files['docs/a.html'], cacheControl: CACHE_CONTROL.hashedAsset } } }],
    ['a file added', { ...base, files: { ...base.files, 'docs/b.html': base.files['docs/a.html'] } }],
    ['a file removed', { ...base, files: Object.fromEntries(Object.entries(base.files).slice(1)) }],
    ['a retired file gone', { ...base, retired: {} }],
    ['a retired time changed', { ...base, retired: { '_next/static/chunks/old.js': '2026-04-30T13:00:00.000Z' } }],
    ['a key renamed, same count', { ...base, retired: { '_next/static/chunks/new.js': '2026-04-30T12:00:00.000Z' } }],
    ['another change record', { ...base, through: 3 }],
  ]
  test.each(variants)('%s: not the same, as their texts are not', (_, other) => {
    expect(serialiseManifest(other)).not.toBe(serialiseManifest(base))
    expect(sameManifest(base, other)).toBe(false)
    expect(sameManifest(other, base)).toBe(false)
  })
  test('the same entries in another order: the same, as their texts are', () => {
    const reordered: DeployManifest = { ...base, files: Object.fromEntries(Object.entries(base.files).reverse()) }
    expect(serialiseManifest(reordered)).toBe(serialiseManifest(base))
    expect(sameManifest(base, reordered)).toBe(true)
    expect(planDeploy([...site].reverse(), { manifest: { ...base, retired: {} }, keys: keysOf(site) }, now, 48 * HOUR).manifestChanged).toBe(false)
  })
})

describe('inputs', () => {
  test('a manifest that is not one is refused, naming the problem', () => {
    expect(() => parseManifest('{', 's3://b/_deploy/manifest')).toThrow(/s3:\/\/b\/_deploy\/manifest is not JSON/)
    expect(() => parseManifest('{"version":1,"files":{"a":{"sha256":"x"}},"retired":{}}', 'm')).toThrow(/m is not a deploy manifest: files\.a\.sha256/)
    expect(parseManifest(serialiseManifest(EMPTY_MANIFEST), 'm')).toEqual(EMPTY_MANIFEST)
    const sha = 'a'.repeat(64)
    const manifestOf = (files: unknown) => JSON.stringify({ version: 1, files, retired: {} })
    expect(() => parseManifest(manifestOf({ a: { sha256: sha, contentType: 'text/html', cacheControl: 'x' }, b: { sha256: sha, contentType: 7, cacheControl: 'x' } }), 'm')).toThrow(/m is not a deploy manifest: files\.b\.contentType: expected a string/)
    expect(() => parseManifest(manifestOf({ a: { sha256: sha.toUpperCase(), contentType: 'text/html', cacheControl: 'x' } }), 'm')).toThrow(/files\.a\.sha256: expected 64 lowercase hex digits/)
    expect(() => parseManifest(manifestOf({ a: { sha256: sha, contentType: 'text/html' } }), 'm')).toThrow(/files\.a\.cacheControl/)
    // Only a change record names a removed file, as null.
    expect(() => parseManifest(manifestOf({ a: null }), 'm')).toThrow(/files\.a: expected an object/)
    expect(() => parseManifest(manifestOf([]), 'm')).toThrow(/files: expected an object of file records/)
    expect(parseChange(manifestOf({ a: null, b: { sha256: sha, contentType: 't', cacheControl: 'c' } }), 'c').files).toEqual({ a: null, b: { sha256: sha, contentType: 't', cacheControl: 'c' } })
    expect(() => parseChange(manifestOf({ a: 'gone' }), 'c')).toThrow(/c is not a deploy change record: files\.a: expected an object/)
  })
  test('the manifest is stored gzipped, a fifth of its text for a site of many files, and read back whole; a plain one of earlier deploys still reads', () => {
    const many = deployed(Array.from({ length: 2000 }, (_, i) => file(`docs/generated/page-${i}.html`, (i % 16).toString(16))))
    const text = serialiseManifest(many)
    const stored = packRecord(text)
    expect(stored.length).toBeLessThan(text.length / 5)
    expect(parseManifest(unpackRecord(stored, 'm'), 'm')).toEqual(many)
    expect(parseManifest(unpackRecord(Buffer.from(text), 'm'), 'm')).toEqual(many)
    // Cut short, as by a hand's copy: the error names the object and what to do, as for damaged JSON.
    expect(() => unpackRecord(stored.subarray(0, 3000), 's3://site/_deploy/manifest')).toThrow(/^s3:\/\/site\/_deploy\/manifest is damaged \(its gzip: unexpected end of file\); restore its previous version .* or delete _deploy\/manifest, _deploy\/seal and every _deploy\/change-… record \(keep the other objects under _deploy\/\), and the next deploy lists the bucket and uploads every file again$/)
  })
  test('bad arguments get an error naming them', () => {
    expect(() => parseDeployArgs(['--grace-hours', 'two'])).toThrow(/--grace-hours must be a number of hours/)
    expect(() => parseDeployArgs(['--endpoint', 'localhost:4569'])).toThrow(/--endpoint must be an http\(s\) URL/)
    expect(() => parseDeployArgs(['--bucket', 'Not_A_Bucket'])).toThrow(/--bucket must be an S3 bucket name/)
    expect(() => parseDeployArgs(['--bukcet', 'x'])).toThrow(/Unknown option '--bukcet'/)
    expect(() => parseDeployArgs(['--withdraw', '--list'])).toThrow('--list is for the upload, not --withdraw; run the withdraw without it')
    expect(() => parseDeployArgs(['--withdraw', '--grace-hours', '2'])).toThrow('--grace-hours is for the upload, not --withdraw')
    expect(parseDeployArgs(['--bucket', 'site', '--grace-hours', '0'])).toMatchObject({ bucket: 'site', graceHours: 0, distribution: null })
    // An unset variable in a pipeline's `--grace-hours "$HOURS"` is no value, not 0 hours or no distribution.
    for (const option of ['bucket', 'distribution', 'endpoint', 'grace-hours', 'out', 'edge']) {
      expect(() => parseDeployArgs([`--${option}=`])).toThrow(new RegExp(`^--${option} is empty`))
      expect(() => parseDeployArgs([`--${option}`, ' '])).toThrow(new RegExp(`^--${option} is empty`))
    }
  })
  test("without --bucket, the stack's outputs name the bucket and distribution; a stack without them is an error", async () => {
    const stack = (outputs: Array<{ OutputKey: string; OutputValue: string }>) => ({ describeStacks: async () => ({ Stacks: [{ Outputs: outputs }] }) })
    await expect(siteTargetsOf(stack([{ OutputKey: 'BucketName', OutputValue: 'b' }, { OutputKey: 'DistributionId', OutputValue: 'E1' }]))).resolves.toMatchObject({ bucket: 'b', distribution: 'E1' })
    await expect(siteTargetsOf(stack([]))).rejects.toThrow(/DocsSiteStack has no BucketName output.*--bucket/)
  })

  // A review's upload of new rules went out after a withdraw while cdk deploy had failed: the old
  // authorizer gave a restricted page's text, in its section's llms file, to a reader neither set of rules admits.
  test("an upload read from the stack goes out only in front of an authorizer of its rules, once the stack has settled", async () => {
    const rules = 'a'.repeat(64)
    const stack = (status: string, authorizerRules?: string) =>
      siteTargetsOf({ describeStacks: async () => ({ Stacks: [{ StackStatus: status, Outputs: [{ OutputKey: 'BucketName', OutputValue: 'b' }, ...(authorizerRules ? [{ OutputKey: 'AuthorizerRules', OutputValue: authorizerRules }] : [])] }] }) })
    for (const status of ['CREATE_COMPLETE', 'UPDATE_COMPLETE']) {
      const targets = await stack(status, rules)
      expect(() => assertAuthorizerOf(targets, rules)).not.toThrow()
    }
    // --bucket names no stack: a test's bucket, or ops keeping the order themselves.
    expect(() => assertAuthorizerOf({ bucket: 'b', distribution: null }, rules)).not.toThrow()
    await expect(stack('UPDATE_COMPLETE', 'b'.repeat(64)).then((targets) => assertAuthorizerOf(targets, rules))).rejects.toThrow(RulesChangedError)
    await expect(stack('UPDATE_COMPLETE', 'b'.repeat(64)).then((targets) => assertAuthorizerOf(targets, rules))).rejects.toThrow(/the authorizer DocsSiteStack deploys decides with other rules \(bbbbbbbbbbbb…\) than out\/ was built under \(aaaaaaaaaaaa…\).*npm run deploy -- --withdraw, then cdk deploy DocsSiteStack, then npm run deploy/)
    for (const status of ['UPDATE_ROLLBACK_COMPLETE', 'UPDATE_IN_PROGRESS', 'UPDATE_COMPLETE_CLEANUP_IN_PROGRESS', 'ROLLBACK_COMPLETE']) {
      await expect(stack(status, rules).then((targets) => assertAuthorizerOf(targets, rules))).rejects.toThrow(new RegExp(`DocsSiteStack is ${status}, so the authorizer at the edge may not be this build's`))
    }
    await expect(stack('UPDATE_COMPLETE').then((targets) => assertAuthorizerOf(targets, rules))).rejects.toThrow(/DocsSiteStack has no AuthorizerRules output \(deployed before it\): run cdk deploy DocsSiteStack once/)
  })
})
