import { readAuthSettings } from './authSettings'

/**
 * The settings this build was made with. next.config.ts resolves and checks them, then
 * inlines these variables into the bundle, so the literal `process.env.X` reads matter.
 */
export const siteAuthSettings = readAuthSettings({
  DOCS_AUTH_MODE: process.env.DOCS_AUTH_MODE,
  DOCS_COGNITO_REGION: process.env.DOCS_COGNITO_REGION,
  DOCS_COGNITO_USER_POOL_ID: process.env.DOCS_COGNITO_USER_POOL_ID,
  DOCS_COGNITO_CLIENT_ID: process.env.DOCS_COGNITO_CLIENT_ID,
  DOCS_COGNITO_ENDPOINT: process.env.DOCS_COGNITO_ENDPOINT,
  DOCS_FEDERATED_PROVIDER: process.env.DOCS_FEDERATED_PROVIDER,
  DOCS_COGNITO_DOMAIN: process.env.DOCS_COGNITO_DOMAIN,
  DOCS_FEDERATED_CLIENT_ID: process.env.DOCS_FEDERATED_CLIENT_ID,
})
