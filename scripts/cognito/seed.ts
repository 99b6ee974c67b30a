import type { CompiledAccess } from '../../lib/access/compileAccess'

/**
 * The demo identities the embedded local Cognito starts with, whatever the lists say (the README's
 * table, and the tests' readers). Every start is a fresh pool holding these and every username the
 * lists of access.config.ts name (demoUsers), all CONFIRMED, with one password.
 */
export const SEEDED_USERS = [
  'admin',
  'leads1',
  'leads2',
  'leads3',
  'leads4',
  'leads5',
  'internal1',
  'support1',
  'supportlead',
  'outsider',
] as const

export type SeededUser = (typeof SEEDED_USERS)[number]

/** User-pool groups and their members; access.config.ts names `group:support-team` in a list. */
export const SEEDED_GROUPS: Readonly<Record<string, readonly SeededUser[]>> = {
  'support-team': ['supportlead'],
}

/**
 * Every demo user of a start: the seeded ones, then each username the lists name, in their order,
 * so that a reader an admin adds (a new section's) can sign in to the preview as the docs say.
 */
export const demoUsers = (members: CompiledAccess['members']): string[] => [...new Set([...SEEDED_USERS, ...Object.values(members).flatMap((list) => [...list.users])])]

/** The groups a seeded user's tokens carry. */
export const seededGroupsOf = (username: string): string[] =>
  Object.entries(SEEDED_GROUPS).flatMap(([group, members]) => (members.includes(username as SeededUser) ? [group] : []))

/** Local only: cognito-local's signing key is public, so nothing it issues is worth guarding. */
export const SEEDED_PASSWORD = 'docs-local-pass'
