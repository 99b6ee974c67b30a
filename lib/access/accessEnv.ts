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

/** The edits (a letter added, removed, changed, or two swapped) from `a` to `b`, up to `most` + 1. */
function editsBetween(a: string, b: string, most: number): number {
  if (Math.abs(a.length - b.length) > most) return most + 1
  const rows = [Array.from({ length: b.length + 1 }, (_, j) => j)]
  for (let i = 1; i <= a.length; i++) {
    const row = [i]
    for (let j = 1; j <= b.length; j++) {
      row[j] = Math.min(rows[i - 1][j] + 1, row[j - 1] + 1, rows[i - 1][j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1))
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) row[j] = Math.min(row[j], rows[i - 2][j - 2] + 1)
    }
    rows.push(row)
  }
  return rows[a.length][b.length]
}

/** The variable an unknown DOCS_ variable was most likely meant as: the same in other letter case, within two edits, without its `_USERS`, or naming protection. */
function meantVariable(variable: string, names: readonly string[]): string | undefined {
  const upper = variable.toUpperCase()
  return names.find((name) => editsBetween(upper, name, 2) <= 2 || upper === name.replace(/_USERS$/, '')) ?? (upper.includes('PROTECT') ? PROTECT_ENV_VAR : undefined)
}

/**
 * The override variables that are set, for the lists of `lists`: what the edge build bakes in. An
 * override variable that names none of them fails, and so does a DOCS_ variable that looks meant as
 * one or as DOCS_PROTECT (DOCS_LEADS_USER, DOCS_LEADS, docs_leads_users, DOCS_PROTECTED): a
 * misspelt one would leave its list, or the protection, as it is, with no word.
 */
export function accessEnvFor(lists: readonly ListName[], env: AccessEnv): Record<string, string> {
  const listVariables = lists.map(listEnvVar)
  const names = [PROTECT_ENV_VAR, ...listVariables]
  const unknown = Object.keys(env).flatMap((variable) => {
    if (!variable.toUpperCase().startsWith('DOCS_') || env[variable] === undefined || names.includes(variable)) return []
    const meant = meantVariable(variable, names)
    if (meant) return [`${variable} (did you mean ${meant}?)`]
    return OVERRIDE_VAR.test(variable) ? [variable] : []
  })
  if (unknown.length > 0) throw new AccessConfigError(`${unknown.join(', ')} ${unknown.length === 1 ? 'is' : 'are'} set, but ${unknown.length === 1 ? 'is' : 'are'} no variable of the access rules; they are ${names.join(', ')}`)
  return Object.fromEntries(names.flatMap((name) => (env[name] === undefined ? [] : [[name, env[name] as string]])))
}
