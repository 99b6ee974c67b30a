/** @jest-environment node */
/**
 * `npm run deploy:access` deploys functions rebuilt from this checkout only in front of this
 * checkout's build (scripts/deploy/deployedBuildCheck.ts): a stale checkout's rules would
 * otherwise decide the files of a build that narrowed a folder since.
 */
import { assertBucketHoldsBuild, DeployedBuildError } from '../../scripts/deploy/deployedBuildCheck'
import { SEAL_KEY } from '../../scripts/deploy/deploySeal'
import { RULES_RECORD_KEY } from '../../scripts/deploy/rulesRecord'

const RULES = 'a'.repeat(64)
const OUT = 'b'.repeat(64)
const DEPLOY = '0123456789abcdef'
const seal = (outRecord = OUT, deploy = DEPLOY) => JSON.stringify({ version: 3, deploy, outRecord, retired: {}, record: { sequence: 1, changes: 0, changedFiles: 0, files: 10 } })
const rulesRecord = (fields: Partial<{ rules: string | null; withdrawnFor: string | null; uploading: boolean; deploy: string }> = {}) =>
  JSON.stringify({ version: 1, rules: RULES, withdrawnFor: null, uploading: false, deploy: DEPLOY, ...fields })
const bucketWith = (records: Record<string, string>) => ({ name: 'docs-site', readRecord: async (key: string) => records[key] ?? null })
const refusal = async (records: Record<string, string>, outRecord: string | null = OUT) => {
  try {
    await assertBucketHoldsBuild(bucketWith(records), RULES, outRecord)
    return null
  } catch (error) {
    expect(error).toBeInstanceOf(DeployedBuildError)
    const message = (error as Error).message
    expect(message).toMatch(/^s3:\/\/docs-site does not hold this checkout's build: .+\. Build the commit that is deployed, or deploy this one \(npm run deploy\), then run npm run deploy:access again$/)
    return message.slice(message.indexOf('build: ') + 'build: '.length, message.lastIndexOf('. Build the commit'))
  }
}

test("passes where the bucket holds this checkout's build, whole", async () => {
  expect(await refusal({ [SEAL_KEY]: seal(), [RULES_RECORD_KEY]: rulesRecord() })).toBeNull()
})

test("refuses, saying why, where the bucket holds another build, one under other rules, one half written or withdrawn, or none", async () => {
  expect(await refusal({ [SEAL_KEY]: seal('c'.repeat(64)), [RULES_RECORD_KEY]: rulesRecord() })).toBe("its files are another build's than this checkout's out/")
  expect(await refusal({ [SEAL_KEY]: seal(), [RULES_RECORD_KEY]: rulesRecord({ rules: 'd'.repeat(64) }) })).toBe("its files were built under other rules than this checkout's")
  expect(await refusal({ [SEAL_KEY]: seal(), [RULES_RECORD_KEY]: rulesRecord({ uploading: true }) })).toBe('its record is not whole (an upload under way, or a withdraw)')
  expect(await refusal({ [RULES_RECORD_KEY]: rulesRecord({ withdrawnFor: RULES }) })).toBe('it has no seal: a deploy of the site is under way, was cut short or withdrawn, or none has run')
  expect(await refusal({})).toBe('it has no seal: a deploy of the site is under way, was cut short or withdrawn, or none has run')
  expect(await refusal({ [SEAL_KEY]: seal(), [RULES_RECORD_KEY]: rulesRecord() }, null)).toBe('this checkout has no record of out/ (build the site that is deployed: npm run build:prod)')
})
