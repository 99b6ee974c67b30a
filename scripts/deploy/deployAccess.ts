/**
 * `npm run deploy:access`: after an edit to access.config.ts's lists, or to the DOCS_*_USERS
 * overrides, rebuild and redeploy the two functions that hold the lists: the edge authorizer and
 * the AI tools' server (mcp/). No file of out/ depends on the lists, so the site is not rebuilt or
 * uploaded again.
 *
 *   npm run deploy:access                 check the lists, rebuild edge/dist and mcp/dist, cdk deploy DocsSiteStack
 *   npm run deploy:access -- --no-deploy  check and rebuild only (CI, or to look before deploying)
 *   npm run deploy:access -- -c key=value  each stack setting the stack was deployed with as context
 *
 * It needs the .next/asset-routes.json and .next/script-hashes.json of the build that is deployed
 * (the site's own build leaves them there) and the DOCS_AUTH_MODE=production and DOCS_COGNITO_*
 * settings of that build: it refuses to deploy an authorizer built for the local Cognito, or to
 * rebuild one for another pool than the authorizer in edge/dist/ was built for (lib/auth/builtFor.ts).
 * Before `cdk deploy` it reads the bucket's seal and rules record, and refuses unless the bucket
 * holds this checkout's build, whole (./deployedBuildCheck.ts): the functions would otherwise stand
 * in front of another build's files, under its rules.
 */
import { spawnSync } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import { parseArgs } from 'node:util'
import accessConfig from '../../access.config'
import { compileAccess } from '../../lib/access/compileAccess'
import { buildEdge } from '../../pipeline/steps/buildEdge'
import { buildMcp } from '../../pipeline/steps/buildMcp'
import { sitePaths } from '../../pipeline/steps/paths'
import { SITE_STACK_NAME } from '../../infra/lib/stack-outputs'
import { readRulesFingerprint } from '../../edge/rulesFingerprint'
import { readOutRecordHeader } from '../../pipeline/steps/outRecord'
import { assertBucketHoldsBuild } from './deployedBuildCheck'
import { s3ClientFor, s3SiteBucket } from './s3Bucket'
import { deployedSiteTargets } from './stackOutputs'
import { readAuthSettings, type AuthEnv } from '../../lib/auth/authSettings'
import { assertBuiltForProduction, readBuiltFor } from '../../lib/auth/builtFor'

async function main() {
  const started = Date.now()
  // Its options; another (a misspelt `--no-deploy`, a `--dry-run`) would deploy, with no word.
  const { values } = parseArgs({ args: process.argv.slice(2), options: { 'no-deploy': { type: 'boolean' }, context: { type: 'string', short: 'c', multiple: true } }, strict: true, allowPositionals: false })
  const deploy = !values['no-deploy']
  // The stack's settings given as `cdk deploy -c key=value` (a domain, WAF, a provider): the stack
  // is deployed again whole, and without them it would drop them, with no word.
  const context = values.context ?? []
  const malformed = context.find((setting) => !/^[A-Za-z][A-Za-z0-9]*=./.test(setting))
  if (malformed !== undefined) throw new Error(`-c ${malformed}: a stack setting is -c key=value, as for cdk deploy (-c domainName=docs.example.com)`)
  const access = compileAccess(accessConfig)
  const { assetRoutes, audiences, scriptHashes, edgeDist, mcpDist } = sitePaths()
  const auth = readAuthSettings(process.env as AuthEnv)
  if (deploy && auth.mode !== 'production') {
    throw new Error('it deploys to AWS, so it builds the authorizer for the real user pool: set DOCS_AUTH_MODE=production and the DOCS_COGNITO_* settings the deployed site was built with (as for npm run build:prod; docs/deploy.md), or pass --no-deploy to rebuild for the local Cognito')
  }
  const built = readBuiltFor(edgeDist)
  if (built && (built.mode !== auth.mode || built.userPoolId !== auth.userPoolId)) {
    throw new Error(`${path.relative('.', edgeDist)} was built for ${built.userPoolId} (${built.mode}), and these settings are for ${auth.userPoolId} (${auth.mode}): set the DOCS_AUTH_MODE and DOCS_COGNITO_* settings the deployed site was built with`)
  }
  for (const file of [assetRoutes, audiences, scriptHashes]) {
    if (!fs.existsSync(file)) throw new Error(`${path.relative('.', file)} is missing: build the site that is deployed first (npm run build:prod; npm run dev empties .next/)`)
  }
  const { file, bytes } = await buildEdge()
  // The AI tools' server decides with the same lists: a reader removed from one must lose /mcp too.
  const mcp = await buildMcp()
  const lists = Object.entries(access.members).map(([list, members]) => `${list} ${members.users.size} users, ${members.groups.size} groups`).join('; ')
  console.log(`deploy:access: lists checked (${lists}); ${path.relative('.', file)} ${(bytes / 1024).toFixed(1)} kB, ${path.relative('.', mcp.file)} ${(mcp.bytes / 1024).toFixed(1)} kB in ${((Date.now() - started) / 1000).toFixed(1)} s`)
  if (!deploy) return
  assertBuiltForProduction([edgeDist, mcpDist], 'refused')
  // The functions hold this checkout's build's rules and routes: only in front of that build's files.
  const targets = await deployedSiteTargets()
  await assertBucketHoldsBuild(s3SiteBucket(s3ClientFor({}), targets.bucket), readRulesFingerprint(edgeDist), readOutRecordHeader(sitePaths().out)?.digest ?? null)
  const cdk = spawnSync('npx', ['cdk', 'deploy', SITE_STACK_NAME, '--exclusively', '--require-approval', 'never', ...context.flatMap((setting) => ['-c', setting])], { cwd: path.resolve('infra'), stdio: 'inherit' })
  if (cdk.status !== 0) throw new Error(`cdk deploy failed (exit ${cdk.status})`)
  console.log(`deploy:access: the new authorizer and AI tools' server are deployed in ${((Date.now() - started) / 1000).toFixed(0)} s; CloudFront replicates it to its edge locations within minutes`)
}

main().catch((error) => {
  console.error(`deploy:access: ${error instanceof Error ? error.message : error}`)
  process.exit(1)
})
