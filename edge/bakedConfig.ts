import type { Jwks } from 'aws-jwt-verify/jwk'
import type { AssetRoutes } from '../lib/access/governingRoute'
import type { AudienceSummary } from '../lib/access/readerView'
import type { AuthSettings } from '../lib/auth/authSettings'

/** What the edge build bakes into the Lambda@Edge bundle. */
export interface BakedEdgeConfig {
  auth: AuthSettings
  jwks: Jwks
  assetRoutes: AssetRoutes
  /** Each audience's search index, llms file and section entries (lib/access/planAggregates.ts). */
  audiences: AudienceSummary[]
  /** The list overrides (DOCS_<LIST_NAME>) set when the bundle was built. */
  accessEnv: Record<string, string>
  /** The build's inline-script hashes, for the Content-Security-Policy (edge/securityHeaders.ts). */
  scriptHashes: string[]
}
