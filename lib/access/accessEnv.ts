/**
 * The build-time variables that override access.config.ts (which reads each one by its literal
 * name, so the bundlers can inline it). next.config.ts inlines them into the client bundle and
 * buildEdge.ts into the Lambda@Edge bundle, so both see the lists the site build saw.
 */
export const ACCESS_ENV_VARS = ['DOCS_PROTECT', 'DOCS_FULL_ACCESS_USERS', 'DOCS_LEADS_USERS', 'DOCS_INTERNAL_USERS', 'DOCS_TWILIO_SUPPORT_USERS'] as const
