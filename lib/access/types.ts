/** The name of a list an admin maintains in access.config.ts (`fullAccessUsers` is always one). */
export type ListName = string

/** The list whose entries may read everything: merged into every other list, and the fallback's. */
export const FULL_ACCESS_LIST = 'fullAccessUsers'

/**
 * A docs section, declared once: the rules, navigation, home cards, search indexes, link checks,
 * the edge and the audits all read this. Its pages live under `/docs/<id>/` (content/docs/<id>/),
 * and its search index under `/docs/<id>/_pagefind/`, so both follow the section's rule.
 */
export interface SectionDeclaration {
  /** Lowercase slug: the content folder and the URL segment. */
  id: string
  /** The navbar tab and home card title. */
  title: string
  /** The home card's line. */
  description: string
  /** The page the tab and card open, under `/docs/<id>/`. */
  entry: string
  /** The list whose entries may read the section, or one group as `group:<name>`. */
  readers: ListName
}

/** What a path rule requires: a named list, one group as `group:<name>` (with full access merged in), or merely being signed in. */
export type Requirement = ListName | 'signedIn'

/** A rule applies to `path` itself and, with `match: 'prefix'`, to every path below it on a segment boundary. */
export interface PathRule {
  path: string
  match: 'exact' | 'prefix'
  require: Requirement
}

/**
 * The one claim a federated provider's groups arrive in: the user pool fills it from the provider's
 * attribute mapping alone (infra/lib/auth-stack.ts), and its guard drops it from any other token
 * (infra/lib/groups-claim-guard.ts). Any other claim (a standard attribute such as `locale`) a
 * reader could write about themselves.
 */
export const GROUPS_CLAIM = 'custom:groups'

/** The admin-facing configuration: data only, no logic. */
export interface AccessConfig {
  /** When false, any signed-in user may read everything. */
  protectDocs: boolean
  /**
   * Comma-separated entries per list, exactly as an admin writes them: `username` or
   * `group:<name>`. Each can be overridden without an edit by the variable `DOCS_<LIST_NAME>`
   * (`leadsUsers` by `DOCS_LEADS_USERS`).
   */
  lists: Record<ListName, string>
  /** The docs sections, in navbar order. Each adds the rule `/docs/<id>` (prefix) → its readers. */
  sections: SectionDeclaration[]
  /**
   * The token claim that carries groups from a federated identity provider: `custom:groups`
   * (GROUPS_CLAIM), which the user pool maps from an OIDC or SAML groups attribute and no reader can
   * write; `cognito:groups` is always read.
   */
  groupsClaim?: typeof GROUPS_CLAIM
  /** Rules for paths outside the sections (the home page); evaluated first, in order. */
  rules: PathRule[]
  /** What every path that no rule matches requires. */
  fallback: Requirement
  /** Readable by anyone, signed in or not (the sign-in screen and error pages). */
  publicPaths: string[]
  /** How readers' AI tools may sign in to the docs (mcp/oauth/); absent: the defaults of aiToolsSettings. */
  aiTools?: AiToolsConfig
}

/**
 * What an admin sets for AI tools that sign in as their reader (mcp/oauth/aiToolsSettings.ts
 * checks it). Tools that run on the reader's computer redirect to a loopback address on any port
 * and need no entry here.
 */
export interface AiToolsConfig {
  /** Redirect URIs of hosted AI apps allowed to receive a reader's sign-in, exactly as each app registers it. */
  hostedRedirectUris: string[]
  /** How long an AI tool's access token lives, in minutes (at most 15, the site's own token lifetime). */
  accessTokenMinutes?: number
  /** How long an AI tool stays connected after its reader allowed it, in days; then it signs in again. */
  refreshTokenDays?: number
}

/**
 * The signed-in user as far as access is concerned, or null when nobody is signed in. Groups come
 * from the verified ID token (`cognito:groups`, and the configured federated groups claim).
 */
export type AccessUser = { username: string; groups?: readonly string[] } | null

export type Decision = 'allow' | 'login' | 'deny'
