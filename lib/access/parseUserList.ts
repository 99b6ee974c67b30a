import { AccessConfigError } from './errors'

/**
 * Splits a comma-separated list, trims each entry and drops empty entries.
 * A username with inner whitespace cannot be matched exactly by anyone who types it,
 * so it is rejected rather than silently never matching.
 */
export function parseUserList(listName: string, raw: string): string[] {
  if (typeof raw !== 'string') {
    throw new AccessConfigError(`list "${listName}" must be a comma-separated string, got ${typeof raw}`)
  }
  const names = raw
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry.length > 0)
  for (const name of names) {
    if (/\s/.test(name)) {
      throw new AccessConfigError(`list "${listName}" has a username containing whitespace: "${name}"`)
    }
  }
  return names
}
