/**
 * @jest-environment node
 *
 * What cdk-nag's findings asked for: access logs of the distribution and the site bucket in a
 * dedicated log bucket, and an AWS WAF web ACL when the `waf` setting turns it on.
 */
import { Match, Template } from 'aws-cdk-lib/assertions';
import * as path from 'node:path';
import { ACCESS_LOG_PREFIXES } from '../lib/access-logs';
import { resolveInfraConfig } from '../lib/config';
import { COUNTED_COMMON_RULES } from '../lib/web-acl';
import { synthFixture } from './fixtures';

jest.setTimeout(180_000);

let fixture: ReturnType<typeof synthFixture>;
let site: Template;

beforeAll(() => {
  fixture = synthFixture();
  jest.spyOn(console, 'error').mockImplementation(() => undefined);
  site = Template.fromStack(fixture.synth().site);
});

afterAll(() => {
  jest.restoreAllMocks();
  fixture?.cleanup();
});

const logicalId = (template: Template, type: string, prefix: string) => {
  const ids = Object.keys(template.findResources(type)).filter((id) => id.startsWith(prefix));
  expect(ids).toHaveLength(1);
  return ids[0];
};

describe('access logs', () => {
  test('the log bucket: private, SSE-S3, TLS only, ACLs on for CloudFront (bucket owner preferred), logs expire, retained', () => {
    const logBucket = logicalId(site, 'AWS::S3::Bucket', 'AccessLogsBucket');
    site.hasResource('AWS::S3::Bucket', {
      DeletionPolicy: 'Retain',
      Properties: {
        PublicAccessBlockConfiguration: { BlockPublicAcls: true, BlockPublicPolicy: true, IgnorePublicAcls: true, RestrictPublicBuckets: true },
        BucketEncryption: { ServerSideEncryptionConfiguration: [{ ServerSideEncryptionByDefault: { SSEAlgorithm: 'AES256' } }] },
        OwnershipControls: { Rules: [{ ObjectOwnership: 'BucketOwnerPreferred' }] },
        LifecycleConfiguration: { Rules: [Match.objectLike({ ExpirationInDays: 90, Status: 'Enabled' })] },
        LoggingConfiguration: Match.absent(),
      },
    });
    const policy = Object.values(site.findResources('AWS::S3::BucketPolicy')).find((p: any) => p.Properties.Bucket.Ref === logBucket) as any;
    const statements: any[] = policy.Properties.PolicyDocument.Statement;
    expect(statements).toContainEqual(expect.objectContaining({ Effect: 'Deny', Condition: { Bool: { 'aws:SecureTransport': 'false' } } }));
    // S3 server access logging delivers through the bucket policy, only from the site bucket, only under its prefix.
    const delivery = statements.find((s) => s.Principal?.Service === 'logging.s3.amazonaws.com');
    expect(delivery).toMatchObject({ Effect: 'Allow', Action: 's3:PutObject' });
    expect(JSON.stringify(delivery.Resource)).toContain(`/${ACCESS_LOG_PREFIXES.siteBucket}*`);
    expect(JSON.stringify(delivery.Condition)).toContain(logicalId(site, 'AWS::S3::Bucket', 'SiteBucket'));
  });

  test('the site bucket logs its access there, under s3/site-bucket/', () => {
    site.hasResourceProperties('AWS::S3::Bucket', {
      VersioningConfiguration: { Status: 'Enabled' },
      LoggingConfiguration: { DestinationBucketName: { Ref: logicalId(site, 'AWS::S3::Bucket', 'AccessLogsBucket') }, LogFilePrefix: 's3/site-bucket/' },
    });
  });

  test('the distribution logs every viewer request there, under cloudfront/, without cookies (they hold the tokens)', () => {
    site.hasResourceProperties('AWS::CloudFront::Distribution', {
      DistributionConfig: Match.objectLike({
        Logging: {
          Bucket: { 'Fn::GetAtt': [logicalId(site, 'AWS::S3::Bucket', 'AccessLogsBucket'), 'RegionalDomainName'] },
          Prefix: 'cloudfront/',
          IncludeCookies: false,
        },
      }),
    });
    site.hasOutput('AccessLogBucketName', { Value: { Ref: logicalId(site, 'AWS::S3::Bucket', 'AccessLogsBucket') } });
  });
});

describe('AWS WAF (opt-in)', () => {
  test('off by default: no web ACL, none on the distribution', () => {
    site.resourceCountIs('AWS::WAFv2::WebACL', 0);
    site.hasResourceProperties('AWS::CloudFront::Distribution', { DistributionConfig: Match.objectLike({ WebACLId: Match.absent() }) });
  });

  test('on: a CloudFront-scope web ACL with the AWS managed common rule set, its cookie-size rule counting only, on the distribution', () => {
    const withWaf = Template.fromStack(fixture.synth({ waf: true }).site);
    withWaf.resourceCountIs('AWS::WAFv2::WebACL', 1);
    withWaf.hasResourceProperties('AWS::WAFv2::WebACL', {
      Scope: 'CLOUDFRONT',
      DefaultAction: { Allow: {} },
      VisibilityConfig: Match.objectLike({ CloudWatchMetricsEnabled: true, SampledRequestsEnabled: true }),
      Rules: [
        Match.objectLike({
          OverrideAction: { None: {} },
          Statement: {
            ManagedRuleGroupStatement: {
              VendorName: 'AWS',
              Name: 'AWSManagedRulesCommonRuleSet',
              RuleActionOverrides: [{ Name: 'SizeRestrictions_Cookie_HEADER', ActionToUse: { Count: {} } }],
            },
          },
        }),
      ],
    });
    expect(COUNTED_COMMON_RULES).toEqual(['SizeRestrictions_Cookie_HEADER']);
    withWaf.hasResourceProperties('AWS::CloudFront::Distribution', {
      DistributionConfig: Match.objectLike({ WebACLId: { 'Fn::GetAtt': [logicalId(withWaf, 'AWS::WAFv2::WebACL', 'WebAcl'), 'Arn'] } }),
    });
  });

  test('the setting: -c waf=on or WAF=on (or true); off, false or unset is off; anything else names the choices', () => {
    const waf = (value: string | undefined) =>
      resolveInfraConfig({ infraDir: path.resolve(__dirname, '..'), read: (key) => (key === 'waf' ? value : undefined), env: {} }).waf;
    expect([waf('on'), waf('ON'), waf('true'), waf(' on ')]).toEqual([true, true, true, true]);
    expect([waf(undefined), waf(''), waf('off'), waf('false')]).toEqual([false, false, false, false]);
    expect(() => waf('yes')).toThrow('waf is "yes"; use "on" or "off" (default off).');
  });
});
