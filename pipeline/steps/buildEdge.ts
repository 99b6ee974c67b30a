/**
 * Bundles the Lambda@Edge authorizer into edge/dist/index.js with its configuration baked in
 * (pipeline/steps/bakedBundle.ts, the same one the AI tools' server bakes), and leaves the pages'
 * inline-script hashes beside it (edge/dist/script-hashes.json), where the CDK stack reads them for
 * its response-headers policy, and the fingerprint of its rules (edge/rulesFingerprint.ts), which
 * `npm run deploy` checks against the bucket's. A step of the site build (pipeline/steps/buildSteps.ts);
 * `npm run build:edge` runs it alone on the last build's asset routes and script hashes.
 */
import fs from 'node:fs'
import path from 'node:path'
import accessConfig from '../../access.config'
import { RULES_FINGERPRINT_FILE, rulesFingerprint, writeRulesFingerprint } from '../../edge/rulesFingerprint'
import { compileAccess } from '../../lib/access/compileAccess'
import { writeScriptHashesFile } from '../../edge/scriptHashesFile'
import { assertFitsViewerRequest, VIEWER_REQUEST_ZIPPED_LIMIT } from '../../edge/packageLimit'
import { BUILT_FOR_FILE, writeBuiltFor } from '../../lib/auth/builtFor'
import { SCRIPT_HASHES_FILE } from '../../edge/securityHeaders'
import { bakeConfig, bundleWithConfig, describeBundle, type BakeOptions, type Bundle } from './bakedBundle'
import { sitePaths } from './paths'
import { runAsMain } from '../mainProcess'

/**
 * The authorizer with this build's asset routes and audiences: the site build hands them over;
 * alone (after a change of lists, npm run deploy:access) they are read from the last build's files.
 */
export async function buildEdge(options: BakeOptions = {}): Promise<Bundle> {
  const paths = options.paths ?? sitePaths()
  const baked = await bakeConfig({ ...options, paths })
  const bundle = await bundleWithConfig({ root: paths.root, entry: path.join(paths.root, 'edge/lambda.ts'), outDir: paths.edgeDist, baked })
  writeScriptHashesFile(path.join(paths.edgeDist, SCRIPT_HASHES_FILE), baked.scriptHashes)
  // Compiled as edge/lambda.ts compiles it, with the list overrides the bundle bakes.
  writeRulesFingerprint(paths.edgeDist, rulesFingerprint(compileAccess(accessConfig, baked.accessEnv), baked.assetRoutes))
  writeBuiltFor(paths.edgeDist, baked.auth)
  assertFitsViewerRequest(path.relative('.', paths.edgeDist) || paths.edgeDist)
  return bundle
}

/**
 * Before a build changes out/: the records of what the last authorizer was built for go, and the edge
 * step writes them again. A build stopped half way then leaves out/ of new rules beside no
 * fingerprint or pool a deploy would take for its own (a deploy refuses, naming the build to run).
 */
export function setEdgeRecordsAside(edgeDist: string): void {
  for (const file of [RULES_FINGERPRINT_FILE, BUILT_FOR_FILE]) fs.rmSync(path.join(edgeDist, file), { force: true })
}

export const describeEdgeBundle = describeBundle(`Lambda@Edge viewer-request limit ${VIEWER_REQUEST_ZIPPED_LIMIT / 1024 / 1024} MB zipped`)

if (require.main === module) runAsMain('buildEdge', () => buildEdge().then((bundle) => console.log(`buildEdge: ${describeEdgeBundle(bundle)}`)), { prefixErrors: true })
