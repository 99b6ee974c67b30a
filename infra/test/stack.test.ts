/** @jest-environment node */
import { spawnSync, type SpawnSyncReturns } from 'node:child_process';
import * as crypto from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as cdk from 'aws-cdk-lib';
import { Match, Template } from 'aws-cdk-lib/assertions';
import {
  assertBuildOutputs,
  type InfraConfig,
  MissingBuildOutputError,
  resolveInfraConfig,
} from '../lib/config';
import { buildDocsStacks, type DocsStacks } from '../lib/docs-app';
import { FIXTURE_RULES, USER_POOL } from './fixtures';
import { writeBuiltFor } from '../../lib/auth/builtFor';
import { writeRulesFingerprint } from '../../edge/rulesFingerprint';
import { CLOUDFRONT_MAX_CSP_LENGTH, contentSecurityPolicy } from '../lib/site-stack';
import { DEPLOY_RECORD_PREFIX, SITE_STACK_NAME, SITE_STACK_OUTPUTS } from '../lib/stack-outputs';

jest.setTimeout(180_000);

const INFRA_DIR = path.resolve(__dirname, '..');
const REPO_DIR = path.resolve(INFRA_DIR, '..');

/** The fixture's inline-script hashes (sha256 of `a` and of `b`), standing in for a build's. */
const FIXTURE_SCRIPT_HASHES = [
  'sha256-ypeBEsobvcr6wjGzmiPcTaeG7/gUfE5yuYB3ha/uSLs=',
  'sha256-PiPoFgA5WUoziU9lZOGxNIu9egCI1CxKy3PurtWcAJ0=',
];

let tmpRoot: string;
let edgeDir: string;
let mcpDir: string;

/** Same feature flags as `cdk synth` uses. */
function cdkJsonContext(): Record<string, unknown> {
  const cdkJson = JSON.parse(fs.readFileSync(path.join(INFRA_DIR, 'cdk.json'), 'utf8')) as {
    context?: Record<string, unknown>;
  };
  return cdkJson.context ?? {};
}

function synthStacks(overrides: Partial<InfraConfig> = {}): DocsStacks {
  const app = new cdk.App({
    context: cdkJsonContext(),
    outdir: fs.mkdtempSync(path.join(tmpRoot, 'cdkout-')),
  });
  return buildDocsStacks(app, {
    edgeCodeDir: edgeDir,
    mcpCodeDir: mcpDir,
    account: '111111111111',
    ...overrides,
  });
}

/** Environment for subprocesses: no AWS credentials/profile, no IMDS, no telemetry. */
function hermeticEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const key of Object.keys(env)) {
    if (key.startsWith('AWS_') || key.startsWith('CDK_')) delete env[key];
  }
  return Object.assign(env, {
    AWS_EC2_METADATA_DISABLED: 'true',
    AWS_CONFIG_FILE: path.join(tmpRoot, 'no-aws-config'),
    AWS_SHARED_CREDENTIALS_FILE: path.join(tmpRoot, 'no-aws-credentials'),
    CDK_DISABLE_VERSION_CHECK: 'true',
    CDK_DISABLE_CLI_TELEMETRY: 'true',
    ...extra,
  });
}

function describeFailure(res: SpawnSyncReturns<string>): string {
  return `exit ${res.status} (signal ${res.signal})\n--- stdout ---\n${res.stdout}\n--- stderr ---\n${res.stderr}`;
}

beforeAll(() => {
  tmpRoot = fs.mkdtempSync(path.join(os.tmpdir(), 'docs-infra-test-'));
  edgeDir = path.join(tmpRoot, 'edge-dist');
  mcpDir = path.join(tmpRoot, 'mcp-dist');
  fs.mkdirSync(edgeDir);
  fs.mkdirSync(mcpDir);
  fs.writeFileSync(path.join(mcpDir, 'index.js'), 'exports.handler = async () => ({ statusCode: 404, body: "" });\n');
  writeBuiltFor(mcpDir, USER_POOL);
  writeBuiltFor(edgeDir, USER_POOL);
  fs.writeFileSync(
    path.join(edgeDir, 'index.js'),
    'exports.handler = async (event) => event.Records[0].cf.request;\n',
  );
  // What the site build leaves beside the authorizer: its pages' inline-script hashes (a fixture).
  fs.writeFileSync(path.join(edgeDir, 'script-hashes.json'), JSON.stringify({ scriptHashes: FIXTURE_SCRIPT_HASHES }));
  // And the rules it decides with (edge/rulesFingerprint.ts), which the stack's output names.
  writeRulesFingerprint(edgeDir, FIXTURE_RULES);
});

afterAll(() => {
  if (tmpRoot) fs.rmSync(tmpRoot, { recursive: true, force: true });
});

describe('stacks (in-process synth)', () => {
  let stacks: DocsStacks;
  let site: Template;
  let auth: Template;

  beforeAll(() => {
    // Synth prints CDK's validation warnings via console.error; keep test
    // output readable (nag.test.ts asserts there are none from cdk-nag).
    jest.spyOn(console, 'error').mockImplementation(() => undefined);
    stacks = synthStacks();
    site = Template.fromStack(stacks.site);
    auth = Template.fromStack(stacks.auth);
  });

  afterAll(() => {
    jest.restoreAllMocks();
  });

  test('regions: user pool in eu-west-2, site + edge in us-east-1, no cross-stack imports', () => {
    expect(stacks.auth.region).toBe('eu-west-2');
    expect(stacks.site.region).toBe('us-east-1');
    expect(JSON.stringify(site.toJSON())).not.toContain('Fn::ImportValue');
    for (const output of Object.values(auth.toJSON().Outputs ?? {}) as Array<Record<string, unknown>>) {
      expect(output.Export).toBeUndefined();
    }
  });

  test('bucket is private, encrypted, versioned, retained', () => {
    // The site bucket, and the bucket of its and the distribution's access logs (logs-and-waf.test.ts).
    site.resourceCountIs('AWS::S3::Bucket', 2);
    site.hasResource('AWS::S3::Bucket', {
      DeletionPolicy: 'Retain',
      UpdateReplacePolicy: 'Retain',
      Properties: {
        PublicAccessBlockConfiguration: {
          BlockPublicAcls: true,
          BlockPublicPolicy: true,
          IgnorePublicAcls: true,
          RestrictPublicBuckets: true,
        },
        BucketEncryption: {
          ServerSideEncryptionConfiguration: [
            { ServerSideEncryptionByDefault: { SSEAlgorithm: 'AES256' } },
          ],
        },
        VersioningConfiguration: { Status: 'Enabled' },
        WebsiteConfiguration: Match.absent(),
      },
    });
  });

  test('OAC exists and the bucket policy only lets this distribution read (plus TLS-only deny)', () => {
    // One for the bucket, one for the AI tools' server's function URL (mcp.test.ts).
    site.resourceCountIs('AWS::CloudFront::OriginAccessControl', 2);
    site.hasResourceProperties('AWS::CloudFront::OriginAccessControl', {
      OriginAccessControlConfig: {
        OriginAccessControlOriginType: 's3',
        SigningBehavior: 'always',
        SigningProtocol: 'sigv4',
      },
    });
    site.hasResourceProperties('AWS::CloudFront::Distribution', {
      DistributionConfig: {
        Origins: Match.arrayWith([
          Match.objectLike({
            OriginAccessControlId: Match.anyValue(),
            S3OriginConfig: { OriginAccessIdentity: '' },
          }),
        ]),
      },
    });

    const siteBucketId = Object.keys(site.findResources('AWS::S3::Bucket')).find((id) => id.startsWith('SiteBucket'));
    const policies = Object.values(site.findResources('AWS::S3::BucketPolicy')).filter((p: any) => p.Properties.Bucket.Ref === siteBucketId);
    expect(policies).toHaveLength(1);
    const statements = (policies[0] as any).Properties.PolicyDocument.Statement as any[];

    const cfGrant = statements.find(
      (s) => s.Effect === 'Allow' && s.Principal?.Service === 'cloudfront.amazonaws.com',
    );
    expect(cfGrant).toBeDefined();
    expect([cfGrant.Action].flat()).toContain('s3:GetObject');
    const sourceArn = cfGrant.Condition?.StringEquals?.['AWS:SourceArn'];
    expect(sourceArn).toBeDefined();
    expect(JSON.stringify(sourceArn)).toContain(':distribution/');
    const distributionLogicalId = Object.keys(site.findResources('AWS::CloudFront::Distribution'))[0];
    expect(JSON.stringify(sourceArn)).toContain(distributionLogicalId);

    // enforceSSL
    expect(
      statements.some(
        (s) => s.Effect === 'Deny' && s.Condition?.Bool?.['aws:SecureTransport'] === 'false',
      ),
    ).toBe(true);
    // nothing public
    for (const s of statements.filter((st) => st.Effect === 'Allow')) {
      expect(JSON.stringify(s.Principal)).not.toMatch(/"\*"/);
    }
  });

  test('default behavior: HTTPS redirect, a cache policy behind the authorizer, viewer-request Lambda@Edge, security headers', () => {
    site.resourceCountIs('AWS::CloudFront::Distribution', 1);
    // The authorizer's, and the AI tools' server's body hash (mcp.test.ts).
    const versionIds = Object.keys(site.findResources('AWS::Lambda::Version')).filter((id) => id.startsWith('Authorizer'));
    expect(versionIds).toHaveLength(1);
    site.hasResourceProperties('AWS::CloudFront::Distribution', {
      DistributionConfig: {
        DefaultRootObject: 'index.html',
        PriceClass: 'PriceClass_100',
        HttpVersion: 'http2and3',
        DefaultCacheBehavior: Match.objectLike({
          ViewerProtocolPolicy: 'redirect-to-https',
          CachePolicyId: { Ref: Match.stringLikeRegexp('^BehindAuthorizer') },
          ResponseHeadersPolicyId: Match.anyValue(),
          LambdaFunctionAssociations: [
            { EventType: 'viewer-request', LambdaFunctionARN: { Ref: versionIds[0] } },
          ],
        }),
      },
    });
  });

  test('every additional cache behavior runs the authorizer at viewer-request, but the AI tools\' server\'s and their sign-in\'s, which go to its function only', () => {
    const dist = Object.values(site.findResources('AWS::CloudFront::Distribution'))[0] as any;
    const behaviors: any[] = dist.Properties.DistributionConfig.CacheBehaviors ?? [];
    const mcpPaths = ['/mcp', '/.well-known/oauth-protected-resource/mcp', '/oauth', '/oauth/*', '/.well-known/oauth-authorization-server/oauth'];
    expect(behaviors.map((b) => b.PathPattern).filter((p) => mcpPaths.includes(p)).sort()).toEqual([...mcpPaths].sort());
    const s3OriginId = dist.Properties.DistributionConfig.DefaultCacheBehavior.TargetOriginId;
    for (const b of behaviors) {
      if (mcpPaths.includes(b.PathPattern)) {
        expect(b.TargetOriginId).not.toBe(s3OriginId);
        continue;
      }
      expect(b.LambdaFunctionAssociations).toEqual(
        expect.arrayContaining([expect.objectContaining({ EventType: 'viewer-request' })]),
      );
    }
  });

  test('error responses: 404 -> /404.html (404), kept by no cache; no 403 mapping, nothing maps to index.html', () => {
    const dist = Object.values(site.findResources('AWS::CloudFront::Distribution'))[0] as any;
    const errors: any[] = dist.Properties.DistributionConfig.CustomErrorResponses ?? [];
    // A cached miss would outlive the deploy that uploads the file (a new page stays 404 at an
    // edge), and the mapping covers the AI tools' function too, whose 404s vary by request.
    expect(errors).toContainEqual({ ErrorCode: 404, ResponseCode: 404, ResponsePagePath: '/404.html', ErrorCachingMinTTL: 0 });
    expect(errors.filter((e) => e.ErrorCode === 403)).toEqual([]);
    expect(errors.filter((e) => /index\.html$/.test(e.ResponsePagePath ?? ''))).toEqual([]);
  });

  test('response headers policy: HSTS (2y, subdomains, preload), nosniff, referrer, DENY, CSP with Cognito and the build\'s script hashes', () => {
    site.hasResourceProperties('AWS::CloudFront::ResponseHeadersPolicy', {
      ResponseHeadersPolicyConfig: {
        SecurityHeadersConfig: {
          StrictTransportSecurity: {
            AccessControlMaxAgeSec: 63072000,
            IncludeSubdomains: true,
            Preload: true,
            Override: true,
          },
          ContentTypeOptions: { Override: true },
          ReferrerPolicy: { ReferrerPolicy: 'strict-origin-when-cross-origin', Override: true },
          FrameOptions: { FrameOption: 'DENY', Override: true },
          ContentSecurityPolicy: {
            ContentSecurityPolicy: Match.stringLikeRegexp(
              "connect-src 'self' https://cognito-idp\\.eu-west-2\\.amazonaws\\.com",
            ),
            Override: true,
          },
        },
        CustomHeadersConfig: { Items: [{ Header: 'Cross-Origin-Resource-Policy', Value: 'same-origin', Override: true }] },
      },
    });
    const csp = contentSecurityPolicy(FIXTURE_SCRIPT_HASHES);
    expect(csp).toBe(
      "default-src 'self'; connect-src 'self' https://cognito-idp.eu-west-2.amazonaws.com; " +
        "img-src 'self' data:; style-src 'self' 'unsafe-inline'; " +
        `script-src 'self' '${FIXTURE_SCRIPT_HASHES[0]}' '${FIXTURE_SCRIPT_HASHES[1]}' 'wasm-unsafe-eval'; ` +
        "font-src 'self' data:; frame-ancestors 'none'; base-uri 'self'; form-action 'self'",
    );
    // The stack's policy is that one: the hashes it read from the edge bundle's folder.
    site.hasResourceProperties('AWS::CloudFront::ResponseHeadersPolicy', {
      ResponseHeadersPolicyConfig: {
        SecurityHeadersConfig: Match.objectLike({ ContentSecurityPolicy: { ContentSecurityPolicy: csp, Override: true } }),
      },
    });
  });

  test('the CSP fits CloudFront\'s limit, or synth says why', () => {
    const many = Array.from({ length: 40 }, (_, i) => `sha256-${Buffer.alloc(32, i).toString('base64')}`);
    expect(() => contentSecurityPolicy(many)).toThrow(/over CloudFront's 1783 .* 40 distinct inline scripts/);
    expect(contentSecurityPolicy(many.slice(0, 10)).length).toBeLessThanOrEqual(CLOUDFRONT_MAX_CSP_LENGTH);
  });

  test('edge function: nodejs24.x, index.handler, 128 MB, 5 s, assumable by edgelambda', () => {
    site.hasResourceProperties('AWS::Lambda::Function', {
      Runtime: 'nodejs24.x',
      Handler: 'index.handler',
      MemorySize: 128,
      Timeout: 5,
      Environment: Match.absent(), // Lambda@Edge does not allow env vars
    });
    site.hasResourceProperties('AWS::IAM::Role', {
      AssumeRolePolicyDocument: {
        Statement: Match.arrayWith([
          Match.objectLike({
            Principal: { Service: Match.arrayWith(['edgelambda.amazonaws.com']) },
          }),
        ]),
      },
    });
  });

  test('the stack does not copy the site: no upload resource, no upload function, no asset of out/ (npm run deploy uploads it)', () => {
    site.resourceCountIs('Custom::CDKBucketDeployment', 0);
    // The upload function aws-cdk-lib adds for a BucketDeployment is a Python one (it runs the AWS CLI).
    const runtimes = Object.values(site.findResources('AWS::Lambda::Function')).map((fn: any) => fn.Properties.Runtime);
    expect(runtimes.filter((runtime) => typeof runtime === 'string' && runtime.startsWith('python'))).toEqual([]);
    // The only file assets are the functions' bundles: the authorizer's and the AI tools' server's
    // folders (and CDK's own handlers), never a folder holding the site's pages.
    const assembly = stacks.site.node.root as cdk.App;
    const manifest = JSON.parse(fs.readFileSync(path.join(assembly.outdir, `${SITE_STACK_NAME}.assets.json`), 'utf8')) as { files: Record<string, { source: { path: string } }> };
    const assetDirs = Object.values(manifest.files).map(({ source }) => path.join(assembly.outdir, source.path));
    const folders = assetDirs.filter((p) => fs.existsSync(p) && fs.statSync(p).isDirectory());
    // The two bundles are there (so this reads the stack's real assets)...
    const bundles = folders.filter((dir) => fs.existsSync(path.join(dir, 'index.js'))).map((dir) => fs.readFileSync(path.join(dir, 'index.js'), 'utf8'));
    expect(bundles).toEqual(expect.arrayContaining([fs.readFileSync(path.join(edgeDir, 'index.js'), 'utf8'), fs.readFileSync(path.join(mcpDir, 'index.js'), 'utf8')]));
    // ...and no page.
    for (const dir of folders) expect([dir, fs.readdirSync(dir, { recursive: true }).filter((file) => String(file).endsWith('.html'))]).toEqual([dir, []]);
  });

  test("CloudFront may never read the deploy's record (it names every section's files): the bucket policy denies it that prefix", () => {
    const siteBucketId = Object.keys(site.findResources('AWS::S3::Bucket')).find((id) => id.startsWith('SiteBucket'))!;
    const policy = Object.values(site.findResources('AWS::S3::BucketPolicy')).find((p: any) => p.Properties.Bucket.Ref === siteBucketId) as any;
    const statements = policy.Properties.PolicyDocument.Statement as any[];
    const denied = statements.filter((st) => st.Effect === 'Deny' && st.Principal?.Service === 'cloudfront.amazonaws.com');
    expect(denied).toEqual([
      expect.objectContaining({
        Action: 's3:GetObject',
        Resource: { 'Fn::Join': ['', [{ 'Fn::GetAtt': [siteBucketId, 'Arn'] }, `/${DEPLOY_RECORD_PREFIX}*`]] },
      }),
    ]);
    expect(DEPLOY_RECORD_PREFIX).toBe('_deploy/');
  });

  test('the bucket expires old versions and their delete markers, never a current file', () => {
    const bucket = Object.entries(site.findResources('AWS::S3::Bucket')).find(([id]) => id.startsWith('SiteBucket'))![1] as any;
    const rules: any[] = bucket.Properties.LifecycleConfiguration.Rules;
    expect(rules).toEqual([
      {
        Id: 'expire-old-versions',
        Status: 'Enabled',
        NoncurrentVersionExpiration: { NoncurrentDays: 30 },
        ExpiredObjectDeleteMarker: true,
        AbortIncompleteMultipartUpload: { DaysAfterInitiation: 7 },
      },
    ]);
  });

  test('CloudFront keeps no file behind the authorizer: minimum and default TTL 0, so the `private` of every object keeps it out of its cache too', () => {
    site.hasResourceProperties('AWS::CloudFront::CachePolicy', {
      CachePolicyConfig: Match.objectLike({
        MinTTL: 0,
        DefaultTTL: 0,
        ParametersInCacheKeyAndForwardedToOrigin: Match.objectLike({
          CookiesConfig: { CookieBehavior: 'none' },
          HeadersConfig: { HeaderBehavior: 'none' },
          QueryStringsConfig: { QueryStringBehavior: 'none' },
        }),
      }),
    });
  });

  test('site outputs: what `npm run deploy` reads (the bucket, the distribution and the rules of the authorizer the stack deploys, under the names it asks for), and the domain name', () => {
    expect(stacks.site.stackName).toBe(SITE_STACK_NAME);
    expect(SITE_STACK_OUTPUTS).toEqual({ bucketName: 'BucketName', distributionId: 'DistributionId', authorizerRules: 'AuthorizerRules' });
    site.hasOutput(SITE_STACK_OUTPUTS.authorizerRules, { Value: FIXTURE_RULES });
    site.hasOutput(SITE_STACK_OUTPUTS.bucketName, { Value: { Ref: Match.stringLikeRegexp('^SiteBucket') } });
    site.hasOutput(SITE_STACK_OUTPUTS.distributionId, { Value: { Ref: Match.stringLikeRegexp('^Distribution') } });
    site.hasOutput('DistributionDomainName', {
      Value: { 'Fn::GetAtt': [Match.stringLikeRegexp('^Distribution'), 'DomainName'] },
    });
  });

  test('user pool: admin-created users only, username sign-in, MFA off, min length 8, no self-service recovery (the sign-in form says so), retained', () => {
    auth.resourceCountIs('AWS::Cognito::UserPool', 1);
    auth.hasResource('AWS::Cognito::UserPool', {
      DeletionPolicy: 'Retain',
      Properties: {
        AdminCreateUserConfig: { AllowAdminCreateUserOnly: true },
        UsernameAttributes: Match.absent(),
        AliasAttributes: Match.absent(),
        MfaConfiguration: 'OFF',
        // pages/login.tsx tells readers an administrator resets a password: keep the two together.
        AccountRecoverySetting: { RecoveryMechanisms: [{ Name: 'admin_only', Priority: 1 }] },
        Policies: {
          PasswordPolicy: {
            MinimumLength: 8,
            RequireLowercase: false,
            RequireUppercase: false,
            RequireNumbers: false,
            RequireSymbols: false,
          },
        },
      },
    });
  });

  test('app client: public (no secret), SRP only, no user existence leaks', () => {
    auth.resourceCountIs('AWS::Cognito::UserPoolClient', 1);
    auth.hasResourceProperties('AWS::Cognito::UserPoolClient', {
      GenerateSecret: false,
      ExplicitAuthFlows: Match.arrayWith(['ALLOW_USER_SRP_AUTH']),
      PreventUserExistenceErrors: 'ENABLED',
      IdTokenValidity: 15,
      AccessTokenValidity: 15,
      RefreshTokenValidity: 30 * 24 * 60,
      TokenValidityUnits: { IdToken: 'minutes', AccessToken: 'minutes', RefreshToken: 'minutes' },
    });
    const client = Object.values(auth.findResources('AWS::Cognito::UserPoolClient'))[0] as any;
    const flows: string[] = client.Properties.ExplicitAuthFlows;
    expect(flows).not.toContain('ALLOW_USER_PASSWORD_AUTH');
    expect(flows).not.toContain('ALLOW_CUSTOM_AUTH');
    expect(flows).not.toContain('ALLOW_ADMIN_USER_PASSWORD_AUTH');
    auth.hasOutput('UserPoolId', { Value: { Ref: Match.stringLikeRegexp('^UserPool') } });
    auth.hasOutput('UserPoolClientId', { Value: { Ref: Match.stringLikeRegexp('^UserPoolWebClient') } });
  });

  test('custom domain: aliases + us-east-1 certificate with TLS 1.2 policy', () => {
    const arn = 'arn:aws:acm:us-east-1:111111111111:certificate/00000000-0000-0000-0000-000000000000';
    const withDomain = Template.fromStack(
      synthStacks({ domainName: 'docs.example.com', certificateArn: arn }).site,
    );
    withDomain.hasResourceProperties('AWS::CloudFront::Distribution', {
      DistributionConfig: {
        Aliases: ['docs.example.com'],
        ViewerCertificate: {
          AcmCertificateArn: arn,
          MinimumProtocolVersion: 'TLSv1.2_2021',
          SslSupportMethod: 'sni-only',
        },
      },
    });
  });
});

describe('configuration and build-output checks', () => {
  test('defaults resolve to ../edge/dist and ../mcp/dist relative to infra/', () => {
    const config = resolveInfraConfig({ infraDir: INFRA_DIR, read: () => undefined, env: {} });
    expect(config.edgeCodeDir).toBe(path.join(REPO_DIR, 'edge', 'dist'));
    expect(config.mcpCodeDir).toBe(path.join(REPO_DIR, 'mcp', 'dist'));
    expect(config.account).toBe('111111111111');
    expect(config.domainName).toBeUndefined();
    expect(config.certificateArn).toBeUndefined();
  });

  test('context values win and relative paths resolve against cwd', () => {
    const values: Record<string, string> = { edgeCodeDir: 'e', mcpCodeDir: '/abs/mcp' };
    const config = resolveInfraConfig({
      infraDir: INFRA_DIR,
      cwd: '/some/cwd',
      read: (key) => values[key],
      env: { CDK_DEFAULT_ACCOUNT: '222222222222' },
    });
    expect(config.edgeCodeDir).toBe(path.resolve('/some/cwd', 'e'));
    expect(config.mcpCodeDir).toBe('/abs/mcp');
    expect(config.account).toBe('222222222222');
  });

  test('domainName without certificateArn, or a non-us-east-1 certificate, is rejected', () => {
    expect(() =>
      resolveInfraConfig({
        infraDir: INFRA_DIR,
        read: (key) => (key === 'domainName' ? 'docs.example.com' : undefined),
        env: {},
      }),
    ).toThrow(/certificateArn/);
    expect(() =>
      resolveInfraConfig({
        infraDir: INFRA_DIR,
        read: (key) =>
          ({
            domainName: 'docs.example.com',
            certificateArn: 'arn:aws:acm:eu-west-2:111111111111:certificate/x',
          })[key],
        env: {},
      }),
    ).toThrow(/us-east-1/);
  });

  test('missing edge dir fails with a clear message naming it and `npm run build:prod`', () => {
    const missing = path.join(tmpRoot, 'does-not-exist', 'edge', 'dist');
    let error: unknown;
    try {
      assertBuildOutputs({ edgeCodeDir: missing, mcpCodeDir: mcpDir });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(MissingBuildOutputError);
    expect((error as Error).message).toContain(missing);
    expect((error as Error).message).toContain('npm run build:prod');
    expect((error as Error).message).not.toContain("AI tools' server bundle"); // only what is missing
  });

  test('edge dir without the script hashes is rejected, naming the file and `npm run build:prod`', () => {
    const oldEdge = fs.mkdtempSync(path.join(tmpRoot, 'old-edge-'));
    fs.writeFileSync(path.join(oldEdge, 'index.js'), 'exports.handler = async () => ({});\n');
    for (const check of [() => assertBuildOutputs({ edgeCodeDir: oldEdge, mcpCodeDir: mcpDir }), () => synthStacks({ edgeCodeDir: oldEdge })]) {
      let error: unknown;
      try {
        check();
      } catch (e) {
        error = e;
      }
      expect(error).toBeInstanceOf(MissingBuildOutputError);
      expect((error as Error).message).toContain(oldEdge);
      expect((error as Error).message).toContain('script-hashes.json');
      expect((error as Error).message).toContain('npm run build:prod');
    }
    fs.writeFileSync(path.join(oldEdge, 'script-hashes.json'), JSON.stringify({ scriptHashes: ['sha256-short'] }));
    expect(() => synthStacks({ edgeCodeDir: oldEdge })).toThrow(/not a sha256 hash source: "sha256-short"/);
  });

  test("a missing AI tools' server bundle is rejected, naming it and `npm run build:prod`", () => {
    const emptyMcp = fs.mkdtempSync(path.join(tmpRoot, 'empty-mcp-'));
    expect(() => assertBuildOutputs({ edgeCodeDir: edgeDir, mcpCodeDir: emptyMcp })).toThrow(
      new RegExp(`${path.join(emptyMcp, 'index.js').replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}[\\s\\S]*npm run build:prod\``),
    );
  });

  /** A copy of the fixture's outputs, changed by `change`. */
  function outputsCopy(change: (dirs: { edgeCodeDir: string; mcpCodeDir: string }) => void): { edgeCodeDir: string; mcpCodeDir: string } {
    const root = fs.mkdtempSync(path.join(tmpRoot, 'outputs-'));
    const dirs = { edgeCodeDir: path.join(root, 'edge'), mcpCodeDir: path.join(root, 'mcp') };
    fs.cpSync(edgeDir, dirs.edgeCodeDir, { recursive: true });
    fs.cpSync(mcpDir, dirs.mcpCodeDir, { recursive: true });
    change(dirs);
    return dirs;
  }

  test('bundles built for the local Cognito are refused, naming the bundle and `npm run build:prod`', () => {
    for (const which of ['edgeCodeDir', 'mcpCodeDir'] as const) {
      const dirs = outputsCopy((made) => writeBuiltFor(made[which], { mode: 'local', region: 'eu-west-2', userPoolId: 'eu-west-2_LocalDocs' }));
      expect(() => assertBuildOutputs(dirs)).toThrow(new RegExp(`${dirs[which].replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')} was built for the local Cognito[\\s\\S]*npm run build:prod`));
    }
    const unrecorded = outputsCopy(({ edgeCodeDir }) => fs.rmSync(path.join(edgeCodeDir, 'user-pool.json')));
    expect(() => assertBuildOutputs(unrecorded)).toThrow(/has no user-pool\.json[\s\S]*npm run build:prod/);
  });

  test('an authorizer and a server built for two pools are refused', () => {
    const dirs = outputsCopy(({ edgeCodeDir }) => writeBuiltFor(edgeCodeDir, { ...USER_POOL, userPoolId: 'eu-west-2_OtherPool9' }));
    expect(() => assertBuildOutputs(dirs)).toThrow(/built for the pool eu-west-2_OtherPool9 and .* for eu-west-2_FixturePool1/);
  });

  test("an authorizer over Lambda@Edge's 1 MB zipped is refused, naming its size and what to do", () => {
    // Random bytes do not compress: 1.2 MB of them (in base64) stand in for a bundle baked with very long lists.
    const dirs = outputsCopy(({ edgeCodeDir }) => fs.appendFileSync(path.join(edgeCodeDir, 'index.js'), `//${crypto.randomBytes(1_200_000).toString('base64')}\n`));
    expect(() => assertBuildOutputs(dirs)).toThrow(/is 1\.\d\d MB zipped, over Lambda@Edge's 1 MB limit[\s\S]*group:<name>/);
  });

  test('edge dir without index.js is rejected; complete outputs pass', () => {
    const emptyEdge = fs.mkdtempSync(path.join(tmpRoot, 'empty-edge-'));
    expect(() => assertBuildOutputs({ edgeCodeDir: emptyEdge, mcpCodeDir: mcpDir })).toThrow(/index\.js/);
    expect(() => assertBuildOutputs({ edgeCodeDir: edgeDir, mcpCodeDir: mcpDir })).not.toThrow();
  });
});

describe('app entry (bin/app.ts) as a subprocess', () => {
  const tsx = path.join(REPO_DIR, 'node_modules', '.bin', 'tsx');

  test('exits 1 with the clear message when the edge dir is missing', () => {
    const missing = path.join(tmpRoot, 'missing-edge-dist');
    const res = spawnSync(tsx, ['bin/app.ts'], {
      cwd: INFRA_DIR,
      encoding: 'utf8',
      env: hermeticEnv({
        EDGE_CODE_DIR: missing,
        MCP_CODE_DIR: mcpDir,
        CDK_OUTDIR: fs.mkdtempSync(path.join(tmpRoot, 'entry-fail-')),
      }),
    });
    expect(res.status).toBe(1);
    expect(res.stderr).toContain(missing);
    expect(res.stderr).toContain('npm run build:prod');
    expect(res.stderr).not.toMatch(/^\s+at /m); // a message, not a stack trace
  });

  test('exits 1 with the clear message when the bundles were built for the local Cognito', () => {
    const localEdge = fs.mkdtempSync(path.join(tmpRoot, 'local-edge-'));
    fs.cpSync(edgeDir, localEdge, { recursive: true });
    writeBuiltFor(localEdge, { mode: 'local', region: 'eu-west-2', userPoolId: 'eu-west-2_LocalDocs' });
    const res = spawnSync(tsx, ['bin/app.ts'], {
      cwd: INFRA_DIR,
      encoding: 'utf8',
      env: hermeticEnv({ EDGE_CODE_DIR: localEdge, MCP_CODE_DIR: mcpDir, CDK_OUTDIR: fs.mkdtempSync(path.join(tmpRoot, 'entry-local-')) }),
    });
    expect(res.status).toBe(1);
    expect(res.stderr).toContain(`${localEdge} was built for the local Cognito`);
    expect(res.stderr).not.toMatch(/^\s+at /m);
  });

  test('synthesizes both templates the way the CDK CLI invokes it (CDK_OUTDIR + CDK_CONTEXT_JSON)', () => {
    const outdir = fs.mkdtempSync(path.join(tmpRoot, 'entry-ok-'));
    const res = spawnSync(tsx, ['bin/app.ts'], {
      cwd: INFRA_DIR,
      encoding: 'utf8',
      env: hermeticEnv({
        CDK_OUTDIR: outdir,
        CDK_CONTEXT_JSON: JSON.stringify({ ...cdkJsonContext(), edgeCodeDir: edgeDir, mcpCodeDir: mcpDir }),
      }),
    });
    if (res.status !== 0) throw new Error(`bin/app.ts failed: ${describeFailure(res)}`);
    expect(fs.existsSync(path.join(outdir, 'DocsAuthStack.template.json'))).toBe(true);
    expect(fs.existsSync(path.join(outdir, 'DocsSiteStack.template.json'))).toBe(true);
  });
});

describe('CDK CLI', () => {
  // INFRA_TEST_CDK_BIN can point at another CLI binary; default is the repo's `npx cdk`.
  const cdkBin = process.env.INFRA_TEST_CDK_BIN;

  test('`cdk synth --quiet` works offline and writes both templates', () => {
    const outdir = fs.mkdtempSync(path.join(tmpRoot, 'cli-out-'));
    const args = [
      'synth',
      '--quiet',
      '--no-notices',
      '-c',
      `edgeCodeDir=${edgeDir}`,
      '-c',
      `mcpCodeDir=${mcpDir}`,
      '-o',
      outdir,
    ];
    const res = cdkBin
      ? spawnSync(cdkBin, args, { cwd: INFRA_DIR, encoding: 'utf8', env: hermeticEnv() })
      : spawnSync('npx', ['--no-install', 'cdk', ...args], {
          cwd: INFRA_DIR,
          encoding: 'utf8',
          env: hermeticEnv(),
        });
    if (res.status !== 0) {
      const hint = /schema version mismatch/i.test(res.stderr ?? '')
        ? '\nThe installed aws-cdk CLI cannot read assemblies from this aws-cdk-lib; ' +
          'the CLI devDependency needs upgrading (see the required version in the message above).'
        : '';
      throw new Error(`cdk synth failed: ${describeFailure(res)}${hint}`);
    }
    const templates = fs.readdirSync(outdir).filter((f) => f.endsWith('.template.json')).sort();
    expect(templates).toEqual(['DocsAuthStack.template.json', 'DocsSiteStack.template.json']);
  });

  // The site's builds take the pool's ids, so the pool's stack is deployed first, before any build.
  test('`cdk synth DocsAuthStack --exclusively` needs no build: the first deploy of the pool; the site stack still refuses a missing build', () => {
    const missing = path.join(tmpRoot, 'no-build-yet', 'edge', 'dist');
    const synth = (...stacks: string[]) => {
      const outdir = fs.mkdtempSync(path.join(tmpRoot, 'cli-first-'));
      const args = ['synth', ...stacks, '--exclusively', '--quiet', '--no-notices', '-c', `edgeCodeDir=${missing}`, '-c', `mcpCodeDir=${missing}`, '-o', outdir];
      const res = cdkBin
        ? spawnSync(cdkBin, args, { cwd: INFRA_DIR, encoding: 'utf8', env: hermeticEnv() })
        : spawnSync('npx', ['--no-install', 'cdk', ...args], { cwd: INFRA_DIR, encoding: 'utf8', env: hermeticEnv() });
      return { res, templates: fs.readdirSync(outdir).filter((f) => f.endsWith('.template.json')) };
    };
    const first = synth('DocsAuthStack');
    if (first.res.status !== 0) throw new Error(`cdk synth DocsAuthStack failed: ${describeFailure(first.res)}`);
    expect(first.templates).toEqual(['DocsAuthStack.template.json']);
    // Patterns the CLI reads with picomatch (braces, classes, paths) select the site stack too.
    for (const stacks of [['DocsSiteStack'], ['Docs*'], ['DocsAuthStack', 'DocsSiteStack'], ['{DocsAuthStack,DocsSiteStack}'], ['Docs[AS]*'], ['**/DocsSiteStack']]) {
      const site = synth(...stacks);
      expect(site.res.status).not.toBe(0);
      expect(site.res.stderr).toContain(missing);
      expect(site.res.stderr).toContain('npm run build:prod');
      expect(site.res.stderr).toContain('npx cdk deploy DocsAuthStack --exclusively');
    }
  });

  test('`cdk synth` with a SAML provider set from context adds it to the pool', () => {
    const outdir = fs.mkdtempSync(path.join(tmpRoot, 'cli-out-'));
    const context = {
      edgeCodeDir: edgeDir,
      mcpCodeDir: mcpDir,
      idpType: 'saml',
      idpName: 'CompanySSO',
      idpDomainPrefix: 'company-docs',
      idpCallbackUrls: 'https://docs.example.com/login',
      idpMetadataUrl: 'https://login.example.com/saml/metadata.xml',
    };
    const args = ['synth', '--quiet', '--no-notices', ...Object.entries(context).flatMap(([key, value]) => ['-c', `${key}=${value}`]), '-o', outdir];
    const res = cdkBin
      ? spawnSync(cdkBin, args, { cwd: INFRA_DIR, encoding: 'utf8', env: hermeticEnv() })
      : spawnSync('npx', ['--no-install', 'cdk', ...args], { cwd: INFRA_DIR, encoding: 'utf8', env: hermeticEnv() });
    if (res.status !== 0) throw new Error(`cdk synth failed: ${describeFailure(res)}`);
    const auth = fs.readFileSync(path.join(outdir, 'DocsAuthStack.template.json'), 'utf8');
    expect(auth).toContain('"ProviderName": "CompanySSO"');
    expect(auth).toContain('"custom:groups": "http://schemas.microsoft.com/ws/2008/06/identity/claims/groups"');
  });
});

describe('federation with an identity provider (off by default)', () => {
  const common = {
    name: 'CompanySSO',
    groupsAttribute: 'groups',
    domainPrefix: 'company-docs',
    callbackUrls: ['https://docs.example.com/login'],
    logoutUrls: ['https://docs.example.com/login'],
  };
  const oidc = { ...common, type: 'oidc' as const, issuerUrl: 'https://login.example.com', clientId: 'docs-client', clientSecretName: 'docs/oidc-client-secret' };
  const saml = { ...common, type: 'saml' as const, metadataUrl: 'https://login.example.com/saml/metadata.xml' };

  test('without a provider: no provider, no hosted domain, no OAuth, Cognito sign-in only', () => {
    const auth = Template.fromStack(synthStacks().auth);
    auth.resourceCountIs('AWS::Cognito::UserPoolIdentityProvider', 0);
    auth.resourceCountIs('AWS::Cognito::UserPoolDomain', 0);
    auth.hasResourceProperties('AWS::Cognito::UserPoolClient', {
      AllowedOAuthFlows: Match.absent(),
      SupportedIdentityProviders: ['COGNITO'],
    });
    auth.resourceCountIs('AWS::Cognito::UserPoolClient', 1);
    expect(Object.keys(auth.findOutputs('*'))).not.toContain('FederatedClientId');
  });

  test.each([
    ['OIDC', oidc, 'OIDC', { oidc_issuer: 'https://login.example.com', client_id: 'docs-client', authorize_scopes: 'openid email profile' }],
    ['SAML', saml, 'SAML', { MetadataURL: 'https://login.example.com/saml/metadata.xml' }],
  ] as const)('with %s: the provider maps its groups to custom:groups, the client signs in through it and returns to /login', (_label, federation, providerType, details) => {
    const auth = Template.fromStack(synthStacks({ federation }).auth);
    auth.hasResourceProperties('AWS::Cognito::UserPoolIdentityProvider', {
      ProviderName: 'CompanySSO',
      ProviderType: providerType,
      ProviderDetails: Match.objectLike(details),
      AttributeMapping: { 'custom:groups': 'groups' },
    });
    auth.hasResourceProperties('AWS::Cognito::UserPool', {
      Schema: Match.arrayWith([Match.objectLike({ Name: 'groups', AttributeDataType: 'String', Mutable: true })]),
    });
    auth.hasResourceProperties('AWS::Cognito::UserPoolDomain', { Domain: 'company-docs' });
    // Two clients: the username form's (Cognito users, SRP, no OAuth) and the provider's (the
    // hosted domain's code flow, nothing else), so the one that may write custom:groups is never
    // one a username reader can use (groups-claim.test.ts).
    auth.resourceCountIs('AWS::Cognito::UserPoolClient', 2);
    auth.hasResourceProperties('AWS::Cognito::UserPoolClient', {
      ClientName: 'docs-web',
      AllowedOAuthFlows: Match.absent(),
      SupportedIdentityProviders: ['COGNITO'],
      ExplicitAuthFlows: ['ALLOW_USER_SRP_AUTH', 'ALLOW_REFRESH_TOKEN_AUTH'],
    });
    auth.hasResourceProperties('AWS::Cognito::UserPoolClient', {
      ClientName: 'docs-federated',
      AllowedOAuthFlows: ['code'],
      AllowedOAuthFlowsUserPoolClient: true,
      CallbackURLs: ['https://docs.example.com/login'],
      LogoutURLs: ['https://docs.example.com/login'],
      SupportedIdentityProviders: ['CompanySSO'],
      ExplicitAuthFlows: ['ALLOW_REFRESH_TOKEN_AUTH'],
      GenerateSecret: false,
    });
    auth.hasOutput('HostedDomain', { Value: 'company-docs.auth.eu-west-2.amazoncognito.com' });
    auth.hasOutput('FederatedClientId', { Value: { Ref: Match.stringLikeRegexp('^UserPoolFederatedClient') } });
  });

  test("the site's CSP lets the browser reach the hosted domain, where the provider's code becomes tokens", () => {
    const site = JSON.stringify(Template.fromStack(synthStacks({ federation: saml }).site).toJSON());
    expect(site).toContain("connect-src 'self' https://cognito-idp.eu-west-2.amazonaws.com https://company-docs.auth.eu-west-2.amazoncognito.com");
    expect(JSON.stringify(Template.fromStack(synthStacks().site).toJSON())).not.toContain('amazoncognito.com');
  });

  test('the OIDC client secret stays in Secrets Manager: the template holds a dynamic reference, not the secret', () => {
    const template = JSON.stringify(Template.fromStack(synthStacks({ federation: oidc }).auth).toJSON());
    expect(template).toContain('{{resolve:secretsmanager:docs/oidc-client-secret:SecretString:::}}');
  });

  test('settings: nothing set means no provider; a partial or wrong setting names what is missing', () => {
    const config = (values: Record<string, string>) =>
      resolveInfraConfig({ infraDir: INFRA_DIR, read: (key) => values[key], env: {} }).federation;
    expect(config({})).toBeUndefined();
    expect(() => config({ idpType: 'ldap' })).toThrow('idpType is "ldap"; use "oidc" or "saml"');
    expect(() => config({ idpType: 'oidc', idpName: 'CompanySSO' })).toThrow('idpType oidc also needs idpDomainPrefix, idpCallbackUrls, idpIssuerUrl, idpClientId, idpClientSecretName');
    expect(() => config({ idpType: 'saml', idpName: 'CompanySSO', idpDomainPrefix: 'd', idpCallbackUrls: 'http://docs.example.com/', idpMetadataUrl: 'https://x' })).toThrow(
      'http://docs.example.com/ must be the site\'s https://…/login page'
    );
    expect(config({ idpType: 'saml', idpName: 'CompanySSO', idpDomainPrefix: 'd', idpCallbackUrls: 'https://docs.example.com/login', idpMetadataUrl: 'https://x' })).toEqual({
      type: 'saml',
      name: 'CompanySSO',
      groupsAttribute: 'http://schemas.microsoft.com/ws/2008/06/identity/claims/groups',
      domainPrefix: 'd',
      callbackUrls: ['https://docs.example.com/login'],
      logoutUrls: ['https://docs.example.com/login'],
      metadataUrl: 'https://x',
    });
  });
});
