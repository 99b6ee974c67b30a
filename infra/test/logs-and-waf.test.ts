/**
 * @jest-environment node
 *
 * What cdk-nag's findings asked for: access logs of the distribution and the site bucket in a
 * dedicated log bucket; and the distribution's AWS WAF web ACL: the rate rule on AI-tool
 * registrations by default, the AWS managed common rule set when the `waf` setting turns it on.
 */
import { Match, Template } from 'aws-cdk-lib/assertions';
import * as path from 'node:path';
import { ACCESS_LOG_PREFIXES } from '../lib/access-logs';
import { resolveInfraConfig } from '../lib/config';
import { REGISTRATION_RATE } from '../../lib/aiTools/registrationLimits';
import { COUNTED_COMMON_RULES, REGISTRATION_PATH, REGISTRATION_RULE_NAME, wafRateOf } from '../lib/web-acl';
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

/** The registration rate rule as it must be in the template, with its priority. */
const registrationRule = (priority: number) => ({
  Name: REGISTRATION_RULE_NAME,
  Priority: priority,
  Action: { Block: { CustomResponse: { ResponseCode: 429, CustomResponseBodyKey: 'registration-rate' } } },
  Statement: {
    RateBasedStatement: {
      Limit: 20,
      EvaluationWindowSec: 300,
      AggregateKeyType: 'IP',
      ScopeDownStatement: {
        AndStatement: {
          Statements: [
            { ByteMatchStatement: { FieldToMatch: { Method: {} }, PositionalConstraint: 'EXACTLY', SearchString: 'POST', TextTransformations: [{ Priority: 0, Type: 'NONE' }] } },
            {
              ByteMatchStatement: {
                FieldToMatch: { UriPath: {} },
                PositionalConstraint: 'STARTS_WITH',
                SearchString: '/oauth/reg',
                TextTransformations: [
                  { Priority: 0, Type: 'URL_DECODE' },
                  { Priority: 1, Type: 'NORMALIZE_PATH' },
                  { Priority: 2, Type: 'LOWERCASE' },
                ],
              },
            },
          ],
        },
      },
    },
  },
  VisibilityConfig: { CloudWatchMetricsEnabled: true, SampledRequestsEnabled: false, MetricName: 'docs-site-ai-tool-registration-rate' },
});

const commonRuleSet = (priority: number) =>
  Match.objectLike({
    Name: 'AWSManagedRulesCommonRuleSet',
    Priority: priority,
    OverrideAction: { None: {} },
    Statement: {
      ManagedRuleGroupStatement: {
        VendorName: 'AWS',
        Name: 'AWSManagedRulesCommonRuleSet',
        RuleActionOverrides: [{ Name: 'SizeRestrictions_Cookie_HEADER', ActionToUse: { Count: {} } }],
      },
    },
  });

describe('AWS WAF: the rate rule on AI-tool registrations (on by default), the managed rules (opt-in)', () => {
  const onTheDistribution = (template: Template) =>
    template.hasResourceProperties('AWS::CloudFront::Distribution', {
      DistributionConfig: Match.objectLike({ WebACLId: { 'Fn::GetAtt': [logicalId(template, 'AWS::WAFv2::WebACL', 'WebAcl'), 'Arn'] } }),
    });

  test(`by default: a CloudFront-scope web ACL with the rate rule alone (${REGISTRATION_RATE.limit} POSTs to /oauth/reg in ${REGISTRATION_RATE.windowSeconds} s per address, then 429), allowing the rest, on the distribution`, () => {
    site.resourceCountIs('AWS::WAFv2::WebACL', 1);
    site.hasResourceProperties('AWS::WAFv2::WebACL', {
      Scope: 'CLOUDFRONT',
      DefaultAction: { Allow: {} },
      VisibilityConfig: Match.objectLike({ CloudWatchMetricsEnabled: true, SampledRequestsEnabled: false }),
      Rules: [registrationRule(0)],
      CustomResponseBodies: {
        'registration-rate': {
          ContentType: 'APPLICATION_JSON',
          Content: JSON.stringify({ error: 'too_many_requests', error_description: 'at most 20 registrations in 300 seconds from one address; try again later' }),
        },
      },
    });
    onTheDistribution(site);
    expect(REGISTRATION_PATH).toBe('/oauth/reg');
  });

  test('waf on: the rate rule first, then the AWS managed common rule set with its cookie-size rule counting only, in the one web ACL', () => {
    const withWaf = Template.fromStack(fixture.synth({ waf: true }).site);
    withWaf.resourceCountIs('AWS::WAFv2::WebACL', 1);
    withWaf.hasResourceProperties('AWS::WAFv2::WebACL', {
      Scope: 'CLOUDFRONT',
      DefaultAction: { Allow: {} },
      Rules: [registrationRule(0), commonRuleSet(1)],
    });
    expect(COUNTED_COMMON_RULES).toEqual(['SizeRestrictions_Cookie_HEADER']);
    onTheDistribution(withWaf);
  });

  test("no web ACL or rule keeps sampled requests: a sample holds every header, the readers' token cookies and the AI tools' bearer tokens among them", () => {
    for (const template of [site, Template.fromStack(fixture.synth({ waf: true }).site)]) {
      const acls = Object.values(template.findResources('AWS::WAFv2::WebACL')) as { Properties: { VisibilityConfig: object; Rules: { VisibilityConfig: object }[] } }[]
      expect(acls).toHaveLength(1)
      const configs = acls.flatMap(({ Properties }) => [Properties.VisibilityConfig, ...Properties.Rules.map((rule) => rule.VisibilityConfig)])
      expect(configs.length).toBeGreaterThan(1)
      for (const config of configs) expect(config).toMatchObject({ SampledRequestsEnabled: false })
    }
  })

  test('waf on and the rate rule off: the managed rule set alone', () => {
    const managedOnly = Template.fromStack(fixture.synth({ waf: true, wafRegistrationLimit: false }).site);
    managedOnly.hasResourceProperties('AWS::WAFv2::WebACL', { Rules: [commonRuleSet(0)], CustomResponseBodies: Match.absent() });
    onTheDistribution(managedOnly);
  });

  test('both off: no web ACL, none on the distribution', () => {
    const none = Template.fromStack(fixture.synth({ wafRegistrationLimit: false }).site);
    none.resourceCountIs('AWS::WAFv2::WebACL', 0);
    none.hasResourceProperties('AWS::CloudFront::Distribution', { DistributionConfig: Match.objectLike({ WebACLId: Match.absent() }) });
  });

  test("the figure is WAF's to take: one of its windows (60, 120, 300, 600 s) and a limit of at least 10, or synth says why", () => {
    expect(wafRateOf(REGISTRATION_RATE)).toEqual({ limit: REGISTRATION_RATE.limit, evaluationWindowSec: REGISTRATION_RATE.windowSeconds });
    expect(() => wafRateOf({ limit: 20, windowSeconds: 240 })).toThrow('A WAF rate rule counts over 60, 120, 300, 600 seconds, not 240');
    expect(() => wafRateOf({ limit: 5, windowSeconds: 300 })).toThrow("A WAF rate rule's limit is a whole number of at least 10, not 5");
  });

  const setting = (key: 'waf' | 'wafRegistrationLimit') => (value: string | undefined) =>
    resolveInfraConfig({ infraDir: path.resolve(__dirname, '..'), read: (name) => (name === key ? value : undefined), env: {} })[key];

  test('the setting waf: -c waf=on or WAF=on (or true); off, false or unset is off; anything else names the choices', () => {
    const waf = setting('waf');
    expect([waf('on'), waf('ON'), waf('true'), waf(' on ')]).toEqual([true, true, true, true]);
    expect([waf(undefined), waf(''), waf('off'), waf('false')]).toEqual([false, false, false, false]);
    expect(() => waf('yes')).toThrow('waf is "yes"; use "on" or "off" (default off).');
  });

  test('the setting wafRegistrationLimit: on unless -c wafRegistrationLimit=off or WAF_REGISTRATION_LIMIT=off (or false)', () => {
    const limit = setting('wafRegistrationLimit');
    expect([limit(undefined), limit(''), limit('on'), limit('true')]).toEqual([true, true, true, true]);
    expect([limit('off'), limit('OFF'), limit('false')]).toEqual([false, false, false]);
    expect(() => limit('no')).toThrow('wafRegistrationLimit is "no"; use "on" or "off" (default on).');
    const fromEnv = resolveInfraConfig({ infraDir: path.resolve(__dirname, '..'), read: (_key, envKey) => (envKey === 'WAF_REGISTRATION_LIMIT' ? 'off' : undefined), env: {} });
    expect(fromEnv.wafRegistrationLimit).toBe(false);
  });
});
