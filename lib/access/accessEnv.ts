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

/** The override variables that are set, for the lists of `lists`: what the edge build bakes in. */
export function accessEnvFor(lists: readonly ListName[], env: AccessEnv): Record<string, string> {
  const names = [PROTECT_ENV_VAR, ...lists.map(listEnvVar)]
  return Object.fromEntries(names.flatMap((name) => (env[name] === undefined ? [] : [[name, env[name] as string]])))
}
