/**
 * @jest-environment node
 *
 * The AI tools' server on AWS (infra/lib/mcp-origin.ts): a function that reads the site bucket and
 * nothing else, behind a function URL only this distribution may call (OAC), on two behaviors that
 * never cache, never run the authorizer, and hand the function the reader's token and host.
 */
import * as crypto from 'node:crypto';
import { Match, Template } from 'aws-cdk-lib/assertions';
import { FORWARDED_AUTHORIZATION, FORWARDED_HOST } from '../../mcp/functionUrl';
import { MCP_PATH, RESOURCE_METADATA_PATH } from '../../mcp/mcpHandler';
import { MCP_BODY_HASH_CODE, MCP_FORWARDED_HEADERS, MCP_VIEWER_REQUEST_CODE, SIGN_IN_FORWARDED_HEADERS, SIGN_IN_PATHS, SIGN_IN_TABLE_ACTIONS } from '../lib/mcp-origin';
import { OAUTH_TABLE_SCHEMA } from '../../mcp/oauth/store/tableSchema';
import { CONSENT_HEADER } from '../../lib/aiTools/oauthPaths';
import { CERTIFICATE_ARN, USER_POOL, synthFixture } from './fixtures';

jest.setTimeout(180_000);

/** CloudFront's managed CachingDisabled cache policy. */
const CACHING_DISABLED = '4135ea2d-6df8-44a3-9df3-4b5a84be39ad';

let fixture: ReturnType<typeof synthFixture>;
let site: Template;

beforeAll(() => {
  jest.spyOn(console, 'error').mockImplementation(() => undefined);
  fixture = synthFixture();
  site = Template.fromStack(fixture.synth().site);
});

afterAll(() => {
  jest.restoreAllMocks();
  fixture?.cleanup();
});

const logicalId = (type: string, prefix: string) => {
  const ids = Object.keys(site.findResources(type)).filter((id) => id.startsWith(prefix));
  expect(ids).toHaveLength(1);
  return ids[0];
};
const distribution = () => (Object.values(site.findResources('AWS::CloudFront::Distribution'))[0] as any).Properties.DistributionConfig;
const behavior = (pathPattern: string) => distribution().CacheBehaviors.find((b: any) => b.PathPattern === pathPattern);

test('the server: Node.js 24 on arm64 from mcp/dist, told the site bucket, and no site URL without a custom domain', () => {
  site.hasResourceProperties('AWS::Lambda::Function', {
    Runtime: 'nodejs24.x',
    Architectures: ['arm64'],
    Handler: 'index.handler',
    MemorySize: 1024,
    Timeout: 20,
    Environment: { Variables: { DOCS_SITE_BUCKET: { Ref: logicalId('AWS::S3::Bucket', 'SiteBucket') } } },
  });
  const withDomain = Template.fromStack(fixture.synth({ domainName: 'docs.example.com', certificateArn: CERTIFICATE_ARN }).site);
  withDomain.hasResourceProperties('AWS::Lambda::Function', {
    Environment: { Variables: { DOCS_SITE_BUCKET: Match.anyValue(), DOCS_SITE_URL: 'https://docs.example.com' } },
  });
});

test('its role reads the site bucket, uses its sign-in table and keys secret, and asks the one user pool about readers: nothing else', () => {
  const serverId = logicalId('AWS::Lambda::Function', 'McpServer');
  const roleRef = (site.findResources('AWS::Lambda::Function')[serverId] as any).Properties.Role['Fn::GetAtt'][0];
  const policies = Object.values(site.findResources('AWS::IAM::Policy')).filter((policy: any) => policy.Properties.Roles.some((role: any) => role.Ref === roleRef));
  expect(policies).toHaveLength(1);
  const bucketId = logicalId('AWS::S3::Bucket', 'SiteBucket');
  const tableId = logicalId('AWS::DynamoDB::Table', 'McpSignInTable');
  const tableArn = { 'Fn::GetAtt': [tableId, 'Arn'] };
  // Each statement's actions in order, whatever order CDK writes them in.
  const statements = ((policies[0] as any).Properties.PolicyDocument.Statement as any[]).map((statement) => ({ ...statement, Action: [statement.Action].flat().sort() }));
  const expected = [
    { Effect: 'Allow', Action: 's3:GetObject', Resource: { 'Fn::Join': ['', [{ 'Fn::GetAtt': [bucketId, 'Arn'] }, '/*']] } },
    { Effect: 'Allow', Action: 's3:ListBucket', Resource: { 'Fn::GetAtt': [bucketId, 'Arn'] } },
    { Effect: 'Allow', Action: SIGN_IN_TABLE_ACTIONS, Resource: tableArn },
    // Query on the four indexes by name, not index/*.
    {
      Effect: 'Allow',
      Action: 'dynamodb:Query',
      Resource: expect.arrayContaining(Object.values(OAUTH_TABLE_SCHEMA.indexes).map((index) => ({ 'Fn::Join': ['', [tableArn, `/index/${index.indexName}`]] }))),
    },
    { Effect: 'Allow', Action: ['secretsmanager:GetSecretValue', 'secretsmanager:DescribeSecret'], Resource: { Ref: logicalId('AWS::SecretsManager::Secret', 'McpSignInKeys') } },
    {
      Effect: 'Allow',
      Action: 'cognito-idp:AdminGetUser',
      Resource: `arn:aws:cognito-idp:${USER_POOL.region}:111111111111:userpool/${USER_POOL.userPoolId}`,
    },
  ].map((statement) => ({ ...statement, Action: [statement.Action].flat().sort() }));
  expect(statements).toHaveLength(expected.length);
  expect(statements).toEqual(expect.arrayContaining(expected));
  // Beside it, only the basic execution policy (CloudWatch Logs).
  const role = site.findResources('AWS::IAM::Role')[roleRef] as any;
  expect(JSON.stringify(role.Properties.ManagedPolicyArns)).toContain('service-role/AWSLambdaBasicExecutionRole');
  expect(role.Properties.ManagedPolicyArns).toHaveLength(1);
});

test('its URL takes only IAM-signed calls, and only CloudFront, for this distribution, may make them (OAC)', () => {
  const serverId = logicalId('AWS::Lambda::Function', 'McpServer');
  site.hasResourceProperties('AWS::Lambda::Url', { AuthType: 'AWS_IAM', InvokeMode: 'BUFFERED', TargetFunctionArn: { 'Fn::GetAtt': [serverId, 'Arn'] } });
  site.hasResourceProperties('AWS::CloudFront::OriginAccessControl', {
    OriginAccessControlConfig: { OriginAccessControlOriginType: 'lambda', SigningBehavior: 'always', SigningProtocol: 'sigv4' },
  });
  // Every permission on the function (by its ARN or its URL's): these two, nobody else.
  const urlId = logicalId('AWS::Lambda::Url', 'McpServerFunctionUrl');
  const permissions = Object.values(site.findResources('AWS::Lambda::Permission'))
    .map((p: any) => p.Properties)
    .filter((p: any) => [serverId, urlId].some((id) => JSON.stringify(p.FunctionName).includes(`"${id}"`)));
  expect(permissions.map((p: any) => p.Action).sort()).toEqual(['lambda:InvokeFunction', 'lambda:InvokeFunctionUrl']);
  expect(permissions.find((p: any) => p.Action === 'lambda:InvokeFunction').InvokedViaFunctionUrl).toBe(true);
  const distributionId = logicalId('AWS::CloudFront::Distribution', 'Distribution');
  for (const permission of permissions) {
    expect(permission.Principal).toBe('cloudfront.amazonaws.com');
    expect(JSON.stringify(permission.SourceArn)).toContain(`:distribution/`);
    expect(JSON.stringify(permission.SourceArn)).toContain(distributionId);
  }
  const origin = distribution().Origins.find((o: any) => o.Id === behavior(MCP_PATH).TargetOriginId);
  expect(origin).toMatchObject({ OriginAccessControlId: { 'Fn::GetAtt': [expect.stringMatching(/OriginAccessControl/), 'Id'] }, CustomOriginConfig: { OriginProtocolPolicy: 'https-only', OriginSSLProtocols: ['TLSv1.2'] } });
});

test('/mcp: every method, never cached, HTTPS only, no authorizer; the token moved at viewer request and the body hashed at origin request', () => {
  const mcp = behavior(MCP_PATH);
  expect(mcp).toMatchObject({
    AllowedMethods: ['GET', 'HEAD', 'OPTIONS', 'PUT', 'PATCH', 'POST', 'DELETE'],
    CachePolicyId: CACHING_DISABLED,
    ViewerProtocolPolicy: 'https-only',
    OriginRequestPolicyId: { Ref: logicalId('AWS::CloudFront::OriginRequestPolicy', 'McpRequestPolicy') },
    ResponseHeadersPolicyId: { Ref: logicalId('AWS::CloudFront::ResponseHeadersPolicy', 'SecurityHeaders') },
    FunctionAssociations: [{ EventType: 'viewer-request', FunctionARN: { 'Fn::GetAtt': [logicalId('AWS::CloudFront::Function', 'McpViewerRequest'), 'FunctionARN'] } }],
  });
  const bodyHashVersion = logicalId('AWS::Lambda::Version', 'McpBodyHash');
  expect(mcp.LambdaFunctionAssociations).toEqual([{ EventType: 'origin-request', IncludeBody: true, LambdaFunctionARN: { Ref: bodyHashVersion } }]);
});

test('the resource metadata: GET, HEAD and OPTIONS, never cached, to the same function, no authorizer and no Lambda@Edge', () => {
  const metadata = behavior(RESOURCE_METADATA_PATH);
  expect(metadata).toMatchObject({
    AllowedMethods: ['GET', 'HEAD', 'OPTIONS'],
    CachePolicyId: CACHING_DISABLED,
    ViewerProtocolPolicy: 'https-only',
    TargetOriginId: behavior(MCP_PATH).TargetOriginId,
    FunctionAssociations: [expect.objectContaining({ EventType: 'viewer-request' })],
  });
  expect(metadata.LambdaFunctionAssociations).toBeUndefined();
});

test("/mcp's origin request policy forwards the MCP headers and the two moved ones: no cookie, no query, no Authorization", () => {
  site.hasResourceProperties('AWS::CloudFront::OriginRequestPolicy', {
    OriginRequestPolicyConfig: {
      HeadersConfig: { HeaderBehavior: 'whitelist', Headers: MCP_FORWARDED_HEADERS },
      CookiesConfig: { CookieBehavior: 'none' },
      QueryStringsConfig: { QueryStringBehavior: 'none' },
    },
  });
  expect(MCP_FORWARDED_HEADERS).toEqual(expect.arrayContaining([FORWARDED_AUTHORIZATION, FORWARDED_HOST, 'mcp-protocol-version', 'mcp-method', 'mcp-name', 'origin', 'content-type', 'accept']));
  // CloudFront's quota of headers in one origin request policy.
  expect(MCP_FORWARDED_HEADERS.length).toBeLessThanOrEqual(10);
  expect(MCP_FORWARDED_HEADERS.map((name) => name.toLowerCase())).not.toContain('authorization');
  expect(MCP_FORWARDED_HEADERS.map((name) => name.toLowerCase())).not.toContain('cookie');
});

describe("the AI tools' sign-in", () => {
  test('its table: one key, the four indexes projecting everything, on-demand, TTL on expiresAt, encrypted with the AWS managed KMS key, point-in-time recovery, retained', () => {
    const tableId = logicalId('AWS::DynamoDB::Table', 'McpSignInTable');
    site.hasResource('AWS::DynamoDB::Table', { DeletionPolicy: 'Retain', UpdateReplacePolicy: 'Retain' });
    const table = (site.findResources('AWS::DynamoDB::Table')[tableId] as any).Properties;
    expect(table).toMatchObject({
      KeySchema: [{ AttributeName: 'pk', KeyType: 'HASH' }],
      BillingMode: 'PAY_PER_REQUEST',
      TimeToLiveSpecification: { AttributeName: OAUTH_TABLE_SCHEMA.ttlAttribute, Enabled: true },
      // Enabled with no key named: KMS with the AWS managed key (aws/dynamodb).
      SSESpecification: { SSEEnabled: true },
      PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: true },
      DeletionProtectionEnabled: true,
    });
    expect(table.GlobalSecondaryIndexes.map((index: any) => [index.IndexName, index.KeySchema, index.Projection]).sort()).toEqual(
      Object.values(OAUTH_TABLE_SCHEMA.indexes)
        .map((index) => [index.indexName, [{ AttributeName: index.partitionKey, KeyType: 'HASH' }], { ProjectionType: 'ALL' }])
        .sort(),
    );
  });

  test('its keys: a secret Secrets Manager generates (nothing of it in the template), named to the function with the table', () => {
    site.hasResourceProperties('AWS::SecretsManager::Secret', {
      GenerateSecretString: { SecretStringTemplate: '{}', GenerateStringKey: 'current', PasswordLength: 64, ExcludePunctuation: true },
    });
    const secret = Object.values(site.findResources('AWS::SecretsManager::Secret'))[0] as any;
    expect(secret.Properties.SecretString).toBeUndefined();
    const server = site.findResources('AWS::Lambda::Function')[logicalId('AWS::Lambda::Function', 'McpServer')] as any;
    expect(server.Properties.Environment.Variables).toMatchObject({
      DOCS_OAUTH_TABLE: { Ref: logicalId('AWS::DynamoDB::Table', 'McpSignInTable') },
      DOCS_OAUTH_KEYS_SECRET: { Ref: logicalId('AWS::SecretsManager::Secret', 'McpSignInKeys') },
    });
    // The Parameters and Secrets extension, through which the function reads the secret.
    expect(JSON.stringify(server.Properties.Layers)).toContain('AWS-Parameters-and-Secrets-Lambda-Extension-Arm64');
  });

  test('/oauth, /oauth/* and its metadata: the same function, never cached, HTTPS only, no authorizer, cookies and query strings forwarded', () => {
    const signInPolicy = { Ref: logicalId('AWS::CloudFront::OriginRequestPolicy', 'McpSignInRequestPolicy') };
    for (const path of [SIGN_IN_PATHS.issuer, SIGN_IN_PATHS.below, SIGN_IN_PATHS.metadata]) {
      const signIn = behavior(path);
      expect(signIn).toMatchObject({
        TargetOriginId: behavior(MCP_PATH).TargetOriginId,
        CachePolicyId: CACHING_DISABLED,
        ViewerProtocolPolicy: 'https-only',
        OriginRequestPolicyId: signInPolicy,
        FunctionAssociations: [{ EventType: 'viewer-request', FunctionARN: { 'Fn::GetAtt': [logicalId('AWS::CloudFront::Function', 'McpViewerRequest'), 'FunctionARN'] } }],
      });
      // No authorizer: only the body hash, and only where bodies are taken.
      expect((signIn.LambdaFunctionAssociations ?? []).map((association: any) => association.EventType)).toEqual(path === SIGN_IN_PATHS.metadata ? [] : ['origin-request']);
    }
    expect(behavior(SIGN_IN_PATHS.below).AllowedMethods).toEqual(['GET', 'HEAD', 'OPTIONS', 'PUT', 'PATCH', 'POST', 'DELETE']);
    expect(behavior(SIGN_IN_PATHS.metadata).AllowedMethods).toEqual(['GET', 'HEAD', 'OPTIONS']);
    site.hasResourceProperties('AWS::CloudFront::OriginRequestPolicy', {
      OriginRequestPolicyConfig: {
        HeadersConfig: { HeaderBehavior: 'whitelist', Headers: SIGN_IN_FORWARDED_HEADERS },
        CookiesConfig: { CookieBehavior: 'all' },
        QueryStringsConfig: { QueryStringBehavior: 'all' },
      },
    });
    expect(SIGN_IN_FORWARDED_HEADERS).toEqual(expect.arrayContaining([FORWARDED_AUTHORIZATION, FORWARDED_HOST, CONSENT_HEADER, 'content-type']));
    expect(SIGN_IN_FORWARDED_HEADERS.map((name) => name.toLowerCase())).not.toContain('authorization');
    // /mcp still gets no cookie.
    expect(behavior(MCP_PATH).OriginRequestPolicyId).toEqual({ Ref: logicalId('AWS::CloudFront::OriginRequestPolicy', 'McpRequestPolicy') });
  });
});

test('WAF, when on, covers the whole distribution, /mcp included', () => {
  const withWaf = Template.fromStack(fixture.synth({ waf: true }).site);
  const config = (Object.values(withWaf.findResources('AWS::CloudFront::Distribution'))[0] as any).Properties.DistributionConfig;
  expect(config.WebACLId).toBeDefined();
  expect(config.CacheBehaviors.map((b: any) => b.PathPattern)).toEqual(expect.arrayContaining([MCP_PATH, RESOURCE_METADATA_PATH]));
});

describe('the viewer-request function', () => {
  // cloudfront-js-2.0 runs plain functions; this runs the same source.
  const run = new Function(`${MCP_VIEWER_REQUEST_CODE}; return handler;`)() as (event: unknown) => { headers: Record<string, { value: string }> };
  const request = (headers: Record<string, string>) => ({ request: { method: 'POST', uri: '/mcp', headers: Object.fromEntries(Object.entries(headers).map(([name, value]) => [name, { value }])) } });

  test("moves the reader's Authorization and Host to the headers the function reads", () => {
    const { headers } = run(request({ authorization: 'Bearer eyJ.reader', host: 'docs.example.com', 'content-type': 'application/json' }));
    expect(headers).toEqual({ [FORWARDED_AUTHORIZATION]: { value: 'Bearer eyJ.reader' }, [FORWARDED_HOST]: { value: 'docs.example.com' }, host: { value: 'docs.example.com' }, 'content-type': { value: 'application/json' } });
  });

  test('drops what a viewer sent under those names itself', () => {
    const { headers } = run(request({ [FORWARDED_AUTHORIZATION]: 'Bearer forged', [FORWARDED_HOST]: 'evil.example.com', host: 'docs.example.com' }));
    expect(headers[FORWARDED_AUTHORIZATION]).toBeUndefined();
    expect(headers[FORWARDED_HOST]).toEqual({ value: 'docs.example.com' });
  });
});

describe('the origin-request body hash', () => {
  const exports: { handler?: (event: unknown) => Promise<any> } = {};
  new Function('exports', 'require', MCP_BODY_HASH_CODE)(exports, require);
  const event = (body?: { data: string; encoding: string; inputTruncated: boolean }) => ({ Records: [{ cf: { request: { method: 'POST', uri: '/mcp', headers: {}, ...(body ? { body } : {}) } } }] });
  const sha256 = (bytes: Buffer | string) => crypto.createHash('sha256').update(bytes).digest('hex');

  test('sets x-amz-content-sha256 to the SHA-256 of the body (the empty body\'s when there is none)', async () => {
    const body = '{"jsonrpc":"2.0","id":1,"method":"tools/list"}';
    const hashed = await exports.handler!(event({ data: Buffer.from(body).toString('base64'), encoding: 'base64', inputTruncated: false }));
    expect(hashed.headers['x-amz-content-sha256']).toEqual([{ key: 'x-amz-content-sha256', value: sha256(body) }]);
    const empty = await exports.handler!(event());
    expect(empty.headers['x-amz-content-sha256'][0].value).toBe(sha256(''));
  });

  test('refuses a body Lambda@Edge saw truncated with 413, never signing a part of it', async () => {
    const refused = await exports.handler!(event({ data: 'AAAA', encoding: 'base64', inputTruncated: true }));
    expect(refused).toMatchObject({ status: '413', body: 'Payload Too Large' });
  });
});
