/**
 * CDK app for the access-controlled docs site.
 *
 * Stacks
 *   DocsAuthStack  (eu-west-2)  Cognito user pool + public web client.
 *   DocsSiteStack  (us-east-1)  private S3 bucket, CloudFront (OAC), Lambda@Edge
 *                               viewer-request authorizer, security headers, and
 *                               the AI tools' server at /mcp: a Lambda function URL
 *                               that only this distribution may call (OAC; the
 *                               why is in lib/mcp-origin.ts).
 *   Lambda@Edge must live in us-east-1, hence two stacks. They share no
 *   references: the authorizer has the pool config baked in by its build.
 *
 * Deploy order (run from infra/; bootstrap both regions once:
 *   npx cdk bootstrap aws://ACCOUNT/eu-west-2 aws://ACCOUNT/us-east-1)
 *   1. npx cdk deploy DocsAuthStack --exclusively
 *      (the site stack needs the production builds, which need the pool's ids:
 *      a deploy of the auth stack alone synthesizes it alone, lib/stackSelection.ts)
 *      -> note the UserPoolId / UserPoolClientId outputs (and, with a provider,
 *         HostedDomain / FederatedClientId: docs/deploy.md).
 *   2. Build the site, the authorizer and the AI tools' server with those ids
 *      (from the repo root):
 *        npm run build:prod   -> out/, edge/dist/, mcp/dist/
 *   3. npx cdk deploy DocsSiteStack --exclusively
 *      -> the bucket, the distribution, a new authorizer version and server
 *         (nothing when the bundles and settings did not change).
 *   4. npm run deploy (from the repo root)
 *      -> uploads the files of out/ that changed to the bucket of the stack's
 *         BucketName output, invalidates their paths (lib/stack-outputs.ts).
 *   The stack does not copy out/: a copy through CloudFormation unpacks the whole
 *   site in one Lambda function's /tmp, which a large site does not fit.
 *
 * Settings (context `-c key=value`, or env var):
 *   edgeCodeDir / EDGE_CODE_DIR   default ../edge/dist (relative to infra/)
 *   mcpCodeDir  / MCP_CODE_DIR    default ../mcp/dist  (relative to infra/)
 *   domainName  / DOMAIN_NAME     optional, with certificateArn / CERTIFICATE_ARN
 *                                 (ACM certificate in us-east-1)
 *   waf         / WAF             on: the AWS managed common rule set in the
 *                                 distribution's AWS WAF web ACL; default off
 *   wafRegistrationLimit / WAF_REGISTRATION_LIMIT
 *                                 the web ACL's rate rule on AI-tool registrations
 *                                 (POST /oauth/reg); default on, even with waf off
 *
 * cdk-nag's AwsSolutions rules run on every synth and deploy: an unacknowledged
 * error stops it (each acknowledgment is beside its construct in lib/, with its
 * reason; infra/test/nag.test.ts checks every setting in npm test).
 *
 * SECURITY: do NOT "just" `aws s3 sync out/ s3://bucket` and serve that
 * without this distribution + edge authorizer. To be reachable the bucket
 * would have to be public (S3 website hosting / public-read policy), which
 * publishes every page — including the restricted ones — to anyone, with no
 * sign-in at all. Access control exists only in the viewer-request authorizer;
 * the bucket stays private (Block Public Access + OAC) and is read only by
 * this CloudFront distribution.
 */
import * as path from 'node:path';
import * as cdk from 'aws-cdk-lib';
import { AwsSolutionsChecks } from 'cdk-nag';
import { assertBuildOutputs, MissingBuildOutputError, resolveInfraConfig } from '../lib/config';
import { BUNDLING_STACKS } from 'aws-cdk-lib/cx-api';
import { buildAuthStack, buildDocsStacks } from '../lib/docs-app';
import { selectsSiteStack } from '../lib/stackSelection';
import { BuiltForError } from '../../lib/auth/builtFor';
import { EdgePackageTooLargeError } from '../../edge/packageLimit';

const app = new cdk.App();
cdk.Validations.of(app).addPlugins(new AwsSolutionsChecks(app));

try {
  const config = resolveInfraConfig({
    infraDir: path.resolve(__dirname, '..'),
    read: (contextKey, envKey) => {
      const fromContext: unknown = app.node.tryGetContext(contextKey);
      if (typeof fromContext === 'string') return fromContext;
      return process.env[envKey];
    },
  });
  if (selectsSiteStack(app.node.tryGetContext(BUNDLING_STACKS))) {
    assertBuildOutputs(config);
    buildDocsStacks(app, config);
  } else buildAuthStack(app, config);
} catch (err) {
  if (err instanceof MissingBuildOutputError || err instanceof BuiltForError || err instanceof EdgePackageTooLargeError) {
    console.error(err.message);
    process.exit(1);
  }
  throw err;
}

app.synth();
