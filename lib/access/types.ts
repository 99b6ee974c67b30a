/** The names of the username lists an admin maintains in access.config.ts. */
export type ListName = 'fullAccessUsers' | 'leadsUsers' | 'internalUsers' | 'twilioSupportUsers'

/** What a path rule requires: a named list, or merely being signed in. */
export type Requirement = ListName | 'signedIn'

/** A rule applies to `path` itself and, with `match: 'prefix'`, to every path below it on a segment boundary. */
export interface PathRule {
  path: string
  match: 'exact' | 'prefix'
  require: Requirement
}

/** The admin-facing configuration: data only, no logic. */
export interface AccessConfig {
  /** When false, any signed-in user may read everything. */
  protectDocs: boolean
  /** Comma-separated entries per list, exactly as an admin writes them: `username` or `group:<name>`. */
  lists: Record<ListName, string>
  /**
   * A token claim that carries groups from a federated identity provider (for example
   * `custom:groups`, mapped from an OIDC or SAML groups attribute); `cognito:groups` is always read.
   */
  groupsClaim?: string
  /** Evaluated in order; the first rule that matches wins. */
  rules: PathRule[]
  /** What every path that no rule matches requires. */
  fallback: Requirement
  /** Readable by anyone, signed in or not (the sign-in screen and error pages). */
  publicPaths: string[]
}

/**
 * The signed-in user as far as access is concerned, or null when nobody is signed in. Groups come
 * from the verified ID token (`cognito:groups`, and the configured federated groups claim).
 */
export type AccessUser = { username: string; groups?: readonly string[] } | null

export type Decision = 'allow' | 'login' | 'deny'
