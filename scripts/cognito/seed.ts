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
  'outsider',
] as const

export type SeededUser = (typeof SEEDED_USERS)[number]

/** Local only: cognito-local's signing key is public, so nothing it issues is worth guarding. */
export const SEEDED_PASSWORD = 'docs-local-pass'
