/**
 * The names a deploy script reads back from CloudFormation: the site stack's name and the
 * OutputKeys of the outputs `npm run deploy` needs (scripts/deploy/). A plain module, without
 * aws-cdk-lib, so the deploy can import it; the stack creates its outputs under these names, so a
 * rename here renames both.
 */
export const SITE_STACK_NAME = 'DocsSiteStack'
/** Its region, as Lambda@Edge requires: its bucket's too, whatever region the rest of the account uses. */
export const SITE_STACK_REGION = 'us-east-1'
/** The user pool's stack, which a first deploy makes alone, before any build. */
export const AUTH_STACK_NAME = 'DocsAuthStack'

/** OutputKeys of DocsSiteStack (`aws cloudformation describe-stacks`, or `cdk deploy --outputs-file`). */
export const SITE_STACK_OUTPUTS = {
  /** The private bucket that holds the site's files. */
  bucketName: 'BucketName',
  /** The CloudFront distribution in front of it, whose changed paths a deploy invalidates. */
  distributionId: 'DistributionId',
  /** The rules fingerprint of the authorizer the stack deploys (edge/rulesFingerprint.ts): an upload goes out only in front of its own rules. */
  authorizerRules: 'AuthorizerRules',
} as const

/**
 * Where `npm run deploy` keeps its record of what is deployed, in the site bucket beside the site's
 * files. The record names every file of every section, so the bucket's policy keeps CloudFront from
 * reading anything under it: no visitor can fetch it, whatever the access rules say of the path.
 */
export const DEPLOY_RECORD_PREFIX = '_deploy/'

/**
 * The deploy's seal (scripts/deploy/deploySeal.ts): deleted as a deploy starts writing and written
 * when it ends, so its ETag names the deploy whose files the bucket holds. The AI tools' server asks
 * for it to know when the objects it keeps are another deploy's (mcp/deployedSite.ts).
 */
export const DEPLOY_SEAL_KEY = `${DEPLOY_RECORD_PREFIX}seal`
