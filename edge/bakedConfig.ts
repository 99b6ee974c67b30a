import type { Jwks } from 'aws-jwt-verify/jwk'
import type { AssetRoutes } from '../lib/access/governingRoute'
import type { AuthSettings } from '../lib/auth/authSettings'

/** What the edge build bakes into the Lambda@Edge bundle. */
export interface BakedEdgeConfig {
  auth: AuthSettings
  jwks: Jwks
  assetRoutes: AssetRoutes
}
