import { AccessConfigError } from './errors'
import type { ListName } from './types'

/**
 * The variable that overrides a list of access.config.ts without an edit: `DOCS_` and the list's
 * name in upper snake case (`twilioSupportUsers` → `DOCS_TWILIO_SUPPORT_USERS`). Only the
 * authorizer (the edge bundle bakes the values it was built with) and the build read them.
 */
export const listEnvVar = (list: ListName) => `DOCS_${list.replace(/[A-Z]/g, (letter) => `_${letter}`).toUpperCase()}`

/** Turns off protection: any signed-in user reads everything. */
export const PROTECT_ENV_VAR = 'DOCS_PROTECT'

export type AccessEnv = Readonly<Record<string, string | undefined>>

/** An override variable's form: DOCS_ and a list's name in upper snake case. */
const OVERRIDE_VAR = /^DOCS_[A-Z0-9_]+_USERS$/

/**
 * The override variables that are set, for the lists of `lists`: what the edge build bakes in. An
 * override variable that names none of them fails: a misspelt one (DOCS_LEAD_USERS) would leave
 * its list as it is, with no word.
 */
export function accessEnvFor(lists: readonly ListName[], env: AccessEnv): Record<string, string> {
  const listVariables = lists.map(listEnvVar)
  const names = [PROTECT_ENV_VAR, ...listVariables]
  const unknown = Object.keys(env).filter((variable) => OVERRIDE_VAR.test(variable) && env[variable] !== undefined && !listVariables.includes(variable))
  if (unknown.length > 0) throw new AccessConfigError(`${unknown.join(', ')} ${unknown.length === 1 ? 'is' : 'are'} set, but override${unknown.length === 1 ? 's' : ''} no list; the lists' variables are ${listVariables.join(', ')}`)
  return Object.fromEntries(names.flatMap((name) => (env[name] === undefined ? [] : [[name, env[name] as string]])))
}
