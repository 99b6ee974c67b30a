import { AccessConfigError } from './errors'

/** What a list entry names: a user by exact username, or everyone whose token carries a group. */
export const GROUP_PREFIX = 'group:'

export interface ListEntries {
  users: string[]
  groups: string[]
}

/**
 * Splits a comma-separated list, trims each entry and drops empty entries. An entry is a username
 * or `group:<name>`. A name with inner whitespace cannot be matched exactly by anyone, and
 * `group:` with no name by no group, so both are rejected rather than silently never matching.
 */
export function parseUserList(listName: string, raw: string, source?: string): ListEntries {
  if (typeof raw !== 'string') {
    throw new AccessConfigError(`list "${listName}" must be a comma-separated string, got ${typeof raw}`, source)
  }
  const entries = raw
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry.length > 0)
  const parsed: ListEntries = { users: [], groups: [] }
  for (const entry of entries) {
    const problem = entryProblem(entry)
    if (problem) throw new AccessConfigError(`list "${listName}" has ${problem}`, source)
    if (entry.startsWith(GROUP_PREFIX)) parsed.groups.push(entry.slice(GROUP_PREFIX.length))
    else parsed.users.push(entry)
  }
  return parsed
}

/** An entry with each invisible or control character written as `<U+XXXX>`. */
export const shownEntry = (entry: string) => entry.replace(/\p{C}/gu, (character) => `<U+${(character.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0')}>`)

/**
 * Why one trimmed entry (a username or `group:<name>`) can match nobody, or null: a list's entry
 * and a requirement's single group are read by the same rule.
 */
export function entryProblem(entry: string): string | null {
  if (/\s/.test(entry)) return `an entry containing whitespace: "${shownEntry(entry)}"`
  // Invisible in the config as in a review: no username or group holds one, so the entry would match nobody.
  if (/\p{C}/u.test(entry)) return `an entry with an invisible or control character: "${shownEntry(entry)}"`
  if (entry.includes(';')) return `an entry containing ";": "${entry}"; entries are separated by commas`
  if (entry === GROUP_PREFIX) return `"${GROUP_PREFIX}" with no group name`
  // Read as a username, each would match nobody, and the readers the admin meant would lose the pages without a word.
  if (/^groups?:/i.test(entry) && !entry.startsWith(GROUP_PREFIX)) return `the entry "${entry}", which reads as a group but is a username; a group is written "${GROUP_PREFIX}<name>", in lowercase`
  // Quotes copied from code or a spreadsheet: usernames hold none at their ends, and the entry would match nobody.
  if (/^["'`‘’“”].*["'`‘’“”]$/su.test(entry) && entry.length > 1) return `the entry ${entry}, in quotes; write entries bare, separated by commas: leads1, group:support-team`
  if (entry.includes('*')) return `the entry "${entry}": entries name users and groups exactly, with no wildcard (a rule requiring "signedIn" admits every signed-in reader)`
  return null
}
