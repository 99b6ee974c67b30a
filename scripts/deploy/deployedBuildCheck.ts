/**
 * What `npm run deploy:access` checks before it deploys the two functions it rebuilt from this
 * checkout (the rules, asset routes and script hashes of its build, and the lists): that the
 * bucket holds that build, whole. Its seal, trusted beside the rules record (./deploySeal.ts
 * trustedSeal: no upload under way, no withdraw, the same rules and deploy), must name this
 * checkout's record of out/. Otherwise an authorizer of one build would stand in front of another
 * build's files: a folder that build narrowed would be served under the older rules.
 */
import { readSeal, trustedSeal } from './deploySeal'
import { readRulesRecord } from './rulesRecord'
import type { SiteBucket } from './s3Bucket'

export class DeployedBuildError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'DeployedBuildError'
  }
}

/** Throws DeployedBuildError, saying why, unless `bucket` holds the build whose rules fingerprint is `rules` and whose record of out/ has the digest `outRecord`. */
export async function assertBucketHoldsBuild(bucket: Pick<SiteBucket, 'name' | 'readRecord'>, rules: string, outRecord: string | null): Promise<void> {
  const [seal, rulesRecord] = await Promise.all([readSeal(bucket), readRulesRecord(bucket)])
  const trusted = trustedSeal({ seal, rulesRecord, rules })
  if (trusted !== null && outRecord !== null && trusted.outRecord === outRecord) return
  const why =
    outRecord === null
      ? "this checkout has no record of out/ (build the site that is deployed: npm run build:prod)"
      : seal === null
        ? 'it has no seal: a deploy of the site is under way, was cut short or withdrawn, or none has run'
        : rulesRecord?.rules !== rules
          ? "its files were built under other rules than this checkout's"
          : trusted === null
            ? 'its record is not whole (an upload under way, or a withdraw)'
            : "its files are another build's than this checkout's out/"
  throw new DeployedBuildError(`s3://${bucket.name} does not hold this checkout's build: ${why}. Build the commit that is deployed, or deploy this one (npm run deploy), then run npm run deploy:access again`)
}
