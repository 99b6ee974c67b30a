/** @jest-environment node */
/** The site bucket as the AI tools' server reads it on AWS (mcp/s3SiteFiles.ts), over a stand-in for the SDK. */
import { s3SiteFiles, SiteBucketError, type S3Sdk } from '../../mcp/s3SiteFiles'

const sent: Array<{ Bucket: string; Key: string }> = []
const objects: Record<string, string> = { 'docs/leads/intro.md': '# Intro\n' }
let seal: string | null = '"0123abcd"'
const failure = (name: string) => Object.assign(new Error(`${name} from S3`), { name })
const sdk: S3Sdk = {
  S3Client: class {
    async send(command: unknown) {
      const input = (command as { input: { Bucket: string; Key: string } }).input
      if (command instanceof sdk.HeadObjectCommand) {
        if (input.Key !== '_deploy/seal') throw failure('AccessDenied')
        if (seal === null) throw failure('NotFound')
        return { ETag: seal }
      }
      sent.push(input)
      if (input.Key === 'denied.md') throw failure('AccessDenied')
      if (!(input.Key in objects)) throw failure('NoSuchKey')
      return { Body: { transformToByteArray: async () => new TextEncoder().encode(objects[input.Key]) } }
    }
  },
  GetObjectCommand: class {
    constructor(public input: { Bucket: string; Key: string }) {}
  },
  HeadObjectCommand: class {
    constructor(public input: { Bucket: string; Key: string }) {}
  },
}

test('reads an object by its key without the leading slash; a missing key reads as null', async () => {
  const files = s3SiteFiles('docs-site-bucket', sdk)
  expect((await files.read('/docs/leads/intro.md'))?.toString('utf8')).toBe('# Intro\n')
  expect(await files.read('/docs/leads/none.md')).toBeNull()
  expect(sent).toEqual([
    { Bucket: 'docs-site-bucket', Key: 'docs/leads/intro.md' },
    { Bucket: 'docs-site-bucket', Key: 'docs/leads/none.md' },
  ])
})

test('a denial is an error naming the key, never "no such page"', async () => {
  await expect(s3SiteFiles('docs-site-bucket', sdk).read('/denied.md')).rejects.toThrow(new SiteBucketError('/denied.md', failure('AccessDenied')))
})

test("the deploy the bucket holds is its seal's ETag, and none while there is no seal (a deploy writing)", async () => {
  const files = s3SiteFiles('docs-site-bucket', sdk)
  expect(await files.deploy()).toBe('"0123abcd"')
  seal = null
  expect(await files.deploy()).toBeNull()
})
