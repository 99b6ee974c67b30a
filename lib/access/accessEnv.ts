import type { ListName } from './types'

/**
 * The build-time variables that override access.config.ts (which reads each one by its literal
 * name). buildEdge.ts inlines them into the Lambda@Edge bundle, the one place besides the build
 * and the local server that holds the lists; the browser bundle never gets them.
 */
export const LIST_ENV_VARS: Readonly<Record<ListName, string>> = {
  fullAccessUsers: 'DOCS_FULL_ACCESS_USERS',
  leadsUsers: 'DOCS_LEADS_USERS',
  internalUsers: 'DOCS_INTERNAL_USERS',
  twilioSupportUsers: 'DOCS_TWILIO_SUPPORT_USERS',
}

export const ACCESS_ENV_VARS = ['DOCS_PROTECT', ...Object.values(LIST_ENV_VARS)] as const
