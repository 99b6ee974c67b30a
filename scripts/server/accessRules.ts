/**
 * The access rules `npm run dev` serves, read from access.config.ts at start and again after each
 * edit of it (./contentWatch.ts), so the page maps, the pages' props and the reader's view follow an
 * edit without a restart. A configuration is taken whole or not at all: it must pass the checks the
 * build makes of it (it compiles, every rule decides something, the AI tools' settings hold), or
 * the error that names its problem is thrown and the caller keeps the rules it had.
 */
import path from 'node:path'
import { compileAccess, type CompiledAccess } from '../../lib/access/compileAccess'
import { AccessConfigError } from '../../lib/access/errors'
import type { AudienceSummary } from '../../lib/access/readerView'
import type { AccessConfig } from '../../lib/access/types'
import { aiToolsSettings, type AiToolsSettings } from '../../mcp/oauth/aiToolsSettings'
import { audienceSummaries, planAggregates } from '../../lib/access/planAggregates'
import { scanContent } from '../../pipeline/content/contentSource'
import { assertRulesDecide, codePageRoutes, siteRoutes } from '../../pipeline/steps/checkRules'

export const ACCESS_CONFIG_FILE = 'access.config.ts'

/** One configuration's rules, checked: what the dev server's page props and authority are made from. */
export interface AccessRules {
  access: CompiledAccess
  aiTools: AiToolsSettings
}

/** access.config.ts did not evaluate to a configuration (a syntax error, a throw, no default export). */
export class AccessConfigLoadError extends Error {
  constructor(problem: string) {
    super(`${ACCESS_CONFIG_FILE} does not load: ${problem}`)
    this.name = 'AccessConfigLoadError'
  }
}

/**
 * The file's default export, evaluated again: the process that imported it at start holds it in
 * Node's module cache (tsx compiles it on require), so the cached module is dropped first. Only
 * this file is read again; a module it imports stays as it was first loaded.
 */
function freshConfig(root: string): AccessConfig {
  const file = require.resolve(path.join(path.resolve(root), ACCESS_CONFIG_FILE))
  delete require.cache[file]
  let loaded: { default?: unknown }
  try {
    loaded = require(file) as { default?: unknown }
  } catch (error) {
    throw new AccessConfigLoadError(error instanceof Error ? error.message : String(error))
  }
  if (typeof loaded?.default !== 'object' || loaded.default === null) throw new AccessConfigLoadError('its default export is not the configuration (`export default config`)')
  return loaded.default as AccessConfig
}

/** `root`'s access.config.ts as it is now, checked as the build checks it; throws what is wrong with it. */
export function loadAccessRules(root: string, env: NodeJS.ProcessEnv = process.env): AccessRules {
  const config = freshConfig(root)
  let access: CompiledAccess
  try {
    access = compileAccess(config, env)
  } catch (error) {
    if (error instanceof AccessConfigError) throw error
    // A configuration of the wrong shape (a field missing) fails inside the compiler with a TypeError.
    throw new AccessConfigLoadError(error instanceof Error ? error.message : String(error))
  }
  assertRulesDecide(access, siteRoutes(scanContent(root)), codePageRoutes())
  return { access, aiTools: aiToolsSettings(config.aiTools) }
}

/** The audiences of `root`'s pages under `access`, as a build would plan them: what the reader's view names. */
export function audiencesOf(root: string, access: CompiledAccess): AudienceSummary[] {
  return audienceSummaries(planAggregates({ access, routes: scanContent(root).pages.map((page) => page.route) }))
}
