/**
 * Bundles the AI tools' server for Lambda into mcp/dist/index.js (mcp/lambda.ts, behind a function
 * URL), with the configuration the edge authorizer bakes (pipeline/steps/bakedBundle.ts): the
 * same build's asset routes, audiences and list overrides, so the server and the edge decide
 * alike. A step of the site build (pipeline/steps/buildSteps.ts), after the edge; alone
 * (`tsx pipeline/steps/buildMcp.ts`) it reads the last build's files, as buildEdge.ts does.
 *
 * The AWS SDK stays out of the bundle: the Lambda Node.js runtime ships v3 (mcp/s3SiteFiles.ts).
 * The AI tools' sign-in (oidc-provider) is in it, loaded on first use (mcp/oauth/lambdaSignIn.ts).
 */
import path from 'node:path'
import { bakeConfig, bundleWithConfig, describeBundle, type BakeOptions, type Bundle } from './bakedBundle'
import { sitePaths } from './paths'
import { writeBuiltFor } from '../../lib/auth/builtFor'
import { runAsMain } from '../mainProcess'

export async function buildMcp(options: BakeOptions = {}): Promise<Bundle> {
  const paths = options.paths ?? sitePaths()
  const baked = await bakeConfig({ ...options, paths })
  // keepNames: oidc-provider names each stored model by its class's name (the store's keys, mcp/oauth/store/).
  const bundle = await bundleWithConfig({ root: paths.root, entry: path.join(paths.root, 'mcp/lambda.ts'), outDir: paths.mcpDist, baked, external: ['@aws-sdk/*'], keepNames: true })
  // The pool the function asks about readers, for the stack's IAM policy (lib/auth/builtFor.ts).
  writeBuiltFor(paths.mcpDist, baked.auth)
  return bundle
}

export const describeMcpBundle = describeBundle('Lambda limit 50 MB zipped')

if (require.main === module) runAsMain('buildMcp', () => buildMcp().then((bundle) => console.log(`buildMcp: ${describeMcpBundle(bundle)}`)), { prefixErrors: true })
