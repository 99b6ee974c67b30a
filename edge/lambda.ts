/**
 * The Lambda@Edge entry. Lambda@Edge has no environment variables, so pipeline/steps/buildEdge.ts
 * bakes the auth settings, the pool's keys, the asset routes, the list overrides and the pages'
 * inline-script hashes it was built with into this bundle, beside access.config.ts.
 */
import accessConfig from '../access.config'
import { compileAccess } from '../lib/access/compileAccess'
import { createViewerRequestHandler } from './cloudfrontHandler'
import { cognitoOriginFor, securityHeaders } from './securityHeaders'
import { createIdTokenVerifier } from './tokenVerifier'
import type { BakedEdgeConfig } from './bakedConfig'
// Resolved by esbuild to the JSON that buildEdge.ts writes.
import baked from 'edge-baked-config'

const config = baked as BakedEdgeConfig

const access = compileAccess(accessConfig, config.accessEnv)

export const handler = createViewerRequestHandler(
  {
    access,
    assetRoutes: config.assetRoutes,
    audiences: config.audiences,
    clientId: config.auth.userPoolClientId,
    verifyIdToken: createIdTokenVerifier({
      userPoolId: config.auth.userPoolId,
      clientId: config.auth.userPoolClientId,
      jwks: config.jwks,
      fetchUnknownKeys: config.auth.mode === 'production',
      groupsClaim: access.groupsClaim,
    }),
  },
  securityHeaders({
    cognitoOrigin: cognitoOriginFor(config.auth.region, config.auth.endpoint),
    hostedDomain: config.auth.federation?.domain,
    scriptHashes: config.scriptHashes,
  })
)
