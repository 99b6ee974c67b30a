import * as cdk from 'aws-cdk-lib';
import { DocsAuthStack } from './auth-stack';
import { AUTH_REGION, type InfraConfig, SITE_REGION } from './config';
import { hostedDomainOf } from './federation';
import { DocsSiteStack } from './site-stack';
import { AUTH_STACK_NAME, SITE_STACK_NAME } from './stack-outputs';

export interface DocsStacks {
  readonly auth: DocsAuthStack;
  readonly site: DocsSiteStack;
}

/**
 * Adds both stacks to `app`. The stacks share no references (the edge
 * function has the pool config baked in), so no cross-region lookups are
 * needed; the dependency only orders `cdk deploy --all`.
 */
export function buildDocsStacks(app: cdk.App, config: InfraConfig): DocsStacks {
  const auth = buildAuthStack(app, config);

  const site = new DocsSiteStack(app, SITE_STACK_NAME, {
    env: { account: config.account, region: SITE_REGION },
    description: "Docs site: private S3 bucket, CloudFront + Lambda@Edge authorizer, the AI tools' server",
    edgeCodeDir: config.edgeCodeDir,
    mcpCodeDir: config.mcpCodeDir,
    domainName: config.domainName,
    certificateArn: config.certificateArn,
    authRegion: AUTH_REGION,
    hostedDomain: config.federation ? hostedDomainOf(config.federation, AUTH_REGION) : undefined,
    waf: config.waf,
    wafRegistrationLimit: config.wafRegistrationLimit,
  });
  site.addStackDependency(auth, 'The site and edge builds need the user pool ids');

  return { auth, site };
}

/**
 * Adds the user pool's stack alone: what a first deploy needs before any build, since the site's
 * builds take the pool's ids (`cdk deploy DocsAuthStack --exclusively`, bin/app.ts).
 */
export function buildAuthStack(app: cdk.App, config: Pick<InfraConfig, 'account' | 'federation'>): DocsAuthStack {
  cdk.Tags.of(app).add('project', 'internal-docs');
  return new DocsAuthStack(app, AUTH_STACK_NAME, {
    env: { account: config.account, region: AUTH_REGION },
    description: 'Docs site: Cognito user pool and web client',
    federation: config.federation,
  });
}
