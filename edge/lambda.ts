/**
 * The Lambda@Edge entry. Lambda@Edge has no environment variables, so scripts/build/buildEdge.ts
 * bakes the auth settings, the pool's keys and the asset routes into this bundle, and the
 * access lists are inlined from access.config.ts as the site build saw them.
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

const access = compileAccess(accessConfig)

export const handler = createViewerRequestHandler(
  {
    access,
    assetRoutes: config.assetRoutes,
    clientId: config.auth.userPoolClientId,
    verifyIdToken: createIdTokenVerifier({
      userPoolId: config.auth.userPoolId,
      clientId: config.auth.userPoolClientId,
      jwks: config.jwks,
      fetchUnknownKeys: config.auth.mode === 'production',
      groupsClaim: access.groupsClaim,
    }),
  },
  securityHeaders(cognitoOriginFor(config.auth.region, config.auth.endpoint), config.auth.federation?.domain)
)
