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
import { sessionClientIds } from '../lib/auth/authSettings'
import type { BakedEdgeConfig } from './bakedConfig'
// Resolved by esbuild to the JSON that buildEdge.ts writes.
import baked from 'edge-baked-config'

const config = baked as BakedEdgeConfig

const access = compileAccess(accessConfig, config.accessEnv)
// The username form's client and, with a federated provider, the provider's: a session of either is a reader's.
const clientIds = sessionClientIds(config.auth)

export const handler = createViewerRequestHandler(
  {
    access,
    assetRoutes: config.assetRoutes,
    audiences: config.audiences,
    clientId: clientIds,
    verifyIdToken: createIdTokenVerifier({
      userPoolId: config.auth.userPoolId,
      clientId: clientIds,
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
