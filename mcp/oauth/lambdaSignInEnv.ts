/**
 * The environment the AI tools' sign-in reads on Lambda (mcp/oauth/lambdaSignIn.ts), which the CDK
 * stack sets (infra/lib/mcp-origin.ts). Apart from the sign-in, so the stack names them without
 * loading its library.
 */
/** The DynamoDB table of grants, codes, tokens and clients (mcp/oauth/store/tableSchema.ts). */
export const OAUTH_TABLE_ENV = 'DOCS_OAUTH_TABLE'
/** The ARN of the Secrets Manager secret the sign-in's keys derive from (mcp/oauth/keysSecret.ts). */
export const OAUTH_KEYS_SECRET_ENV = 'DOCS_OAUTH_KEYS_SECRET'
