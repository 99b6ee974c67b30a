/**
 * The identities the embedded local Cognito starts with. Every start is a fresh pool holding
 * exactly these users (all CONFIRMED, same password), matching the lists in access.config.ts.
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

/** The groups a seeded user's tokens carry. */
export const seededGroupsOf = (username: string): string[] =>
  Object.entries(SEEDED_GROUPS).flatMap(([group, members]) => (members.includes(username as SeededUser) ? [group] : []))

/** Local only: cognito-local's signing key is public, so nothing it issues is worth guarding. */
export const SEEDED_PASSWORD = 'docs-local-pass'
