/**
 * `npm run deploy`: uploads the built out/ to the site's bucket, changing only what changed.
 *
 *   npm run deploy -- --bucket <name> [--distribution <id>] [--endpoint <url>] [--grace-hours <n>] [--out <dir>]
 *   npm run deploy                     bucket and distribution from DocsSiteStack's outputs
 *   npm run deploy -- --withdraw       before a change of rules goes out: see below
 *
 * AWS credentials and region come from the usual environment. --endpoint points at any S3 API
 * (path-style). Each file goes up with the Content-Type and Cache-Control the local server sends;
 * build files first, pages last; files out/ no longer has are deleted after the pages that named
 * them are replaced, and earlier builds' hashed files are kept --grace-hours (48) for open tabs.
 * Without --distribution (and without a stack to read it from) nothing is invalidated. A run cut
 * short leaves the old site whole; run it again to finish. The record of what is deployed is
 * the bucket's `_deploy/manifest` (scripts/deploy/deployManifest.ts). out/'s files and hashes come
 * from the finished build's record of them, so an unchanged file is not read (localFiles.ts).
 *
 * The site must be built for the real user pool (npm run build:prod): the authorizer built with
 * out/ records the pool it was built for (edge/dist/user-pool.json), and one built for the local
 * Cognito goes only to a bucket at a loopback --endpoint.
 *
 * out/ must have been built under the rules of the authorizer folder (its record names them). The
 * rules out/ was built under (edge/dist/rules-fingerprint.txt, --edge names another folder)
 * are checked against the bucket's record of them: when they changed, the upload is refused until
 * `--withdraw` has deleted every file the new build changes and `cdk deploy` has shipped the new
 * edge (scripts/deploy/withdraw.ts, scripts/deploy/rulesRecord.ts). Without --bucket, the stack
 * must say so: settled, its authorizer of out/'s rules (./stackOutputs.ts assertAuthorizerOf).
 */
import { parseDeployArgs } from './deployArgs'
import { cloudFrontInvalidator, invalidationWaiter, loadCloudFront } from './cloudFrontInvalidation'
import { assertOutBuiltUnder, readRulesFingerprint } from '../../edge/rulesFingerprint'
import { readOutRecordHeader } from '../../pipeline/steps/outRecord'
import { printedProgress } from './progress'
import { runDeploy } from './runDeploy'
import { runWithdraw } from './withdraw'
import { s3ClientFor, s3SiteBucket } from './s3Bucket'
import { assertAuthorizerOf, deployedSiteTargets, isNoSuchStack } from './stackOutputs'
import { SITE_STACK_NAME } from '../../infra/lib/stack-outputs'
import { runAsMain } from '../../pipeline/mainProcess'
import { assertBuiltForProduction, assertOutBuiltFor } from '../../lib/auth/builtFor'
import { isLoopbackUrl } from '../../lib/auth/authSettings'

async function main() {
  const args = parseDeployArgs(process.argv.slice(2))
  // A site built for the local Cognito goes to a bucket on this machine only (a test's); its
  // authorizer trusts a key anyone can read (lib/auth/builtFor.ts).
  if (!(args.endpoint && isLoopbackUrl(args.endpoint))) assertBuiltForProduction([args.edgeDir], 'refused')
  const targets = args.bucket ? { bucket: args.bucket, distribution: args.distribution } : await deployedSiteTargets().catch((error) => {
    // The first time, before cdk deploy made the stack, there is no bucket and nothing to withdraw.
    if (args.withdraw && isNoSuchStack(error)) return null
    throw error
  })
  if (targets === null) return console.log(`deploy --withdraw: no ${SITE_STACK_NAME} yet, so no bucket: nothing to withdraw`)
  const distribution = args.distribution ?? targets.distribution
  const rules = readRulesFingerprint(args.edgeDir)
  const outHeader = readOutRecordHeader(args.outDir)
  assertOutBuiltUnder(args.outDir, outHeader?.rules ?? null, args.edgeDir, rules)
  assertOutBuiltFor(args.outDir, outHeader?.pool ?? null, args.edgeDir)
  const cloudFront = distribution ? await loadCloudFront() : null
  const invalidate = cloudFront && distribution ? cloudFrontInvalidator(cloudFront, distribution) : undefined
  const bucket = s3SiteBucket(s3ClientFor({ endpoint: args.endpoint ?? undefined }), targets.bucket)
  console.log(`deploy${args.withdraw ? ' --withdraw' : ''}: ${args.outDir} to s3://${targets.bucket}${args.endpoint ? ` at ${args.endpoint}` : ''}${distribution ? `, invalidating ${distribution}` : ', no invalidation'}`)
  if (args.withdraw) {
    if (!distribution) console.warn('deploy --withdraw: no distribution to invalidate; if a CDN serves this bucket, its copies of the deleted files outlive them (pass --distribution)')
    const awaitInvalidation = cloudFront && distribution ? invalidationWaiter(cloudFront, distribution) : undefined
    await runWithdraw({ outDir: args.outDir, bucket, rules, invalidate, awaitInvalidation, log: console.log, stopOnSignals: true })
    return
  }
  // Read from the stack, its authorizer must be of out/'s rules; --bucket names no stack (a test's bucket, or ops' own order).
  assertAuthorizerOf(targets, rules)
  await runDeploy({ rules, outDir: args.outDir, bucket, invalidate, graceMs: args.graceHours * 3_600_000, progress: printedProgress(), fullListing: args.list, wholeRecord: true, stopOnSignals: true })
}

// A deploy that runs out of work half way fails too, not exits 0 (pipeline/mainProcess.ts).
runAsMain('deploy', main, { prefixErrors: true })
