/**
 * The AI tools' sign-in settings from access.config.ts, checked once: a bad entry fails the build
 * and the server's start with a message that names it, never a silently wider allowlist.
 */
import { unknownFieldProblem } from '../../lib/access/compileAccess'
import type { AiToolsConfig } from '../../lib/access/types'
import { TOKEN_MINUTES } from '../../lib/auth/authSettings'

export interface AiToolsSettings {
  hostedRedirectUris: readonly string[]
  accessTokenSeconds: number
  refreshTokenSeconds: number
}

export class AiToolsConfigError extends Error {
  constructor(problem: string) {
    super(`access.config.ts aiTools: ${problem}`)
    this.name = 'AiToolsConfigError'
  }
}

export const DEFAULT_REFRESH_DAYS = 30

/** The settings aiTools has (lib/access/types.ts AiToolsConfig): a misspelt one would be read as absent, its default in its place. */
const AI_TOOLS_FIELDS: readonly (keyof AiToolsConfig)[] = ['hostedRedirectUris', 'accessTokenMinutes', 'refreshTokenDays']

export function aiToolsSettings(config: AiToolsConfig | undefined): AiToolsSettings {
  if (config !== undefined && (typeof config !== 'object' || config === null || Array.isArray(config))) throw new AiToolsConfigError('must be an object ({ hostedRedirectUris, accessTokenMinutes, refreshTokenDays })')
  // A field one letter short or long of a known one (accessTokenMinute) is named as meant.
  const unknown = unknownFieldProblem(config ?? {}, AI_TOOLS_FIELDS, (field, known) => known.toLowerCase().startsWith(field.toLowerCase().replace(/s$/, '')) || field.toLowerCase().startsWith(known.toLowerCase().replace(/s$/, '')))
  if (unknown) throw new AiToolsConfigError(unknown)
  const hosted = config?.hostedRedirectUris ?? []
  if (!Array.isArray(hosted)) throw new AiToolsConfigError('hostedRedirectUris must be a list of https URLs')
  for (const uri of hosted) {
    if (typeof uri !== 'string') throw new AiToolsConfigError(`hostedRedirectUris holds ${JSON.stringify(uri)}, which is not a URL`)
    // Compared whole (redirectProblem): a pattern would match no app, and no app would be told why.
    if (uri.includes('*')) throw new AiToolsConfigError(`hosted redirect URI "${uri}" holds "*": each is matched exactly, so list every app's URI as it registers it`)
    let url: URL
    try {
      url = new URL(uri)
    } catch {
      throw new AiToolsConfigError(`hosted redirect URI "${uri}" is not a URL`)
    }
    if (url.protocol !== 'https:') throw new AiToolsConfigError(`hosted redirect URI "${uri}" must use https`)
    if (url.hash || url.href !== uri) throw new AiToolsConfigError(`hosted redirect URI "${uri}" must be written exactly as ${url.href.replace(/#.*$/, '')} (no fragment)`)
  }
  // Absent means the default; null, like any other value that is no whole number, is refused.
  const minutes = config?.accessTokenMinutes === undefined ? TOKEN_MINUTES : config.accessTokenMinutes
  if (!Number.isInteger(minutes) || minutes < 1 || minutes > TOKEN_MINUTES) {
    throw new AiToolsConfigError(`accessTokenMinutes must be a whole number from 1 to ${TOKEN_MINUTES} (the site's own token lifetime), not ${minutes}`)
  }
  const days = config?.refreshTokenDays === undefined ? DEFAULT_REFRESH_DAYS : config.refreshTokenDays
  if (!Number.isInteger(days) || days < 1 || days > 365) throw new AiToolsConfigError(`refreshTokenDays must be a whole number from 1 to 365, not ${days}`)
  return { hostedRedirectUris: [...hosted], accessTokenSeconds: minutes * 60, refreshTokenSeconds: days * 86400 }
}

/** Whether a redirect URI is a loopback address of the reader's own computer (any port). */
export function isLoopbackRedirect(uri: string): boolean {
  try {
    const url = new URL(uri)
    return url.protocol === 'http:' && ['127.0.0.1', 'localhost', '[::1]'].includes(url.hostname)
  } catch {
    return false
  }
}

/** Why a client's redirect URIs are refused, or null when every one is a loopback address or listed. */
export function redirectProblem(uris: readonly string[], settings: AiToolsSettings): string | null {
  const refused = uris.filter((uri) => !isLoopbackRedirect(uri) && !settings.hostedRedirectUris.includes(uri))
  return refused.length === 0 ? null : `redirect URI ${refused.join(', ')} is neither a loopback address nor a hosted app the site's admin allows`
}
