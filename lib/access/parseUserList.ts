import { AccessConfigError } from './errors'
import { codePointName } from '../plainText.mjs'

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

/** An entry with each invisible or control character (or each of `shown`) written as `<U+XXXX>`. */
export const shownEntry = (entry: string, shown: RegExp = /\p{C}/gu) => entry.replace(new RegExp(shown.source, 'gu'), (character) => `<${codePointName(character)}>`)

/** Letters and symbols that draw as blank space though Unicode counts them as neither space nor control (Hangul fillers, the blank braille pattern). */
const BLANK_LOOKING = /[\u115f\u1160\u3164\uffa0\u2800]/u
/** A combining mark (an accent, a variation selector) at the start or on a character that is no letter: it joins what a reader cannot see. */
const STRAY_MARK = /(?:^|[^\p{L}\p{M}])\p{M}/u
/** Commas of other scripts, which separate nothing: `leads1，leads2` is one entry. */
const OTHER_COMMAS = /[\uff0c\u3001\ufe50\ufe51\uff64\u060c\u055d\u07f8\u1363\u1802\u1808\u2e41\ua4fe\ua60d\ua6f5]/u
/** Scripts whose letters look like one another's (Cyrillic е, Latin e): one entry mixing them names nobody it seems to. */
const LOOK_ALIKE_SCRIPTS: readonly [string, RegExp][] = [
  ['Latin', /\p{Script=Latin}/u],
  ['Cyrillic', /\p{Script=Cyrillic}/u],
  ['Greek', /\p{Script=Greek}/u],
]

/**
 * Why one trimmed entry (a username or `group:<name>`) can match nobody, or null: a list's entry
 * and a requirement's single group are read by the same rule.
 */
export function entryProblem(entry: string): string | null {
  // A federated directory's group may be named with spaces ("Sales Team"); a username holds none.
  const group = entry.startsWith(GROUP_PREFIX) ? entry.slice(GROUP_PREFIX.length) : null
  if (/\s/.test(group === null ? entry : group.replace(/(?<=\S) (?=\S)/g, ''))) return `an entry containing whitespace: "${shownEntry(entry)}"${group === null ? '' : ' (a group\'s name may hold single spaces between words)'}`
  // Invisible in the config as in a review: no username or group holds one, so the entry would match nobody.
  if (/\p{C}/u.test(entry)) return `an entry with an invisible or control character: "${shownEntry(entry)}"`
  if (BLANK_LOOKING.test(entry)) return `an entry with a character that looks blank: "${shownEntry(entry, BLANK_LOOKING)}"`
  if (STRAY_MARK.test(entry)) return `an entry with a combining mark on no letter: "${shownEntry(entry, /\p{M}/gu)}"`
  if (OTHER_COMMAS.test(entry)) return `an entry containing a comma of another script: "${shownEntry(entry, OTHER_COMMAS)}"; entries are separated by "," (U+002C)`
  const scripts = LOOK_ALIKE_SCRIPTS.filter(([, letters]) => letters.test(group ?? entry)).map(([script]) => script)
  if (scripts.length > 1) return `an entry mixing ${scripts.join(' and ')} letters, which look alike: "${entry}"; no username or group is spelt so, and it would match nobody`
  if (entry.includes(';')) return `an entry containing ";": "${entry}"; entries are separated by commas`
  if (entry === GROUP_PREFIX) return `"${GROUP_PREFIX}" with no group name`
  // Read as a username, each would match nobody, and the readers the admin meant would lose the pages without a word.
  if (/^groups?:/i.test(entry) && !entry.startsWith(GROUP_PREFIX)) return `the entry "${entry}", which reads as a group but is a username; a group is written "${GROUP_PREFIX}<name>", in lowercase`
  // Quotes copied from code or a spreadsheet: usernames hold none at their ends, and the entry would match nobody.
  if (/^["'`‘’“”].*["'`‘’“”]$/su.test(entry) && entry.length > 1) return `the entry ${entry}, in quotes; write entries bare, separated by commas: leads1, group:support-team`
  if (entry.includes('*')) return `the entry "${entry}": entries name users and groups exactly, with no wildcard (a rule requiring "signedIn" admits every signed-in reader)`
  return null
}
