import * as wafv2 from 'aws-cdk-lib/aws-wafv2';
import { Construct } from 'constructs';

/**
 * The rule of the AWS managed common rule set that blocks a Cookie header over 10,240 bytes. It
 * only counts here: the authorizer itself accepts up to 16 KiB of cookies and sends a reader past
 * that to /session-too-large, which explains the problem and clears the stale sign-in cookies
 * (README "Oversized cookies"). Blocked by WAF, a reader with 10 to 16 KiB of cookies (a few stale
 * Amplify sessions) would get a bare 403 and no way out.
 */
export const COUNTED_COMMON_RULES = ['SizeRestrictions_Cookie_HEADER'] as const;

/**
 * An AWS WAF web ACL for the distribution (scope CLOUDFRONT, so in us-east-1 like the site stack)
 * with the AWS managed common rule set (OWASP-style checks: bad inputs, XSS, LFI/RFI, request
 * sizes), allowing what it does not block, with CloudWatch metrics and sampled requests.
 *
 * Opt-in (`-c waf=on` or `WAF=on`, infra/lib/config.ts), because every request already passes the
 * viewer-request authorizer, which refuses anyone without a valid Cognito token before anything is
 * served; the site is static files, read with GET and HEAD only (no forms, no query strings reach
 * the origin); and a web ACL adds a monthly fee per ACL and per rule, and a fee per million
 * requests. Turn it on where a policy requires a WAF on every distribution, or to rate-limit or
 * filter traffic before it reaches the authorizer.
 */
export class DocsWebAcl extends Construct {
  public readonly webAcl: wafv2.CfnWebACL;

  constructor(scope: Construct, id: string) {
    super(scope, id);

    const metrics = (metricName: string): wafv2.CfnWebACL.VisibilityConfigProperty => ({
      cloudWatchMetricsEnabled: true,
      sampledRequestsEnabled: true,
      metricName,
    });

    this.webAcl = new wafv2.CfnWebACL(this, 'WebAcl', {
      scope: 'CLOUDFRONT',
      description: 'Docs site: AWS managed common rule set in front of the edge authorizer',
      defaultAction: { allow: {} },
      visibilityConfig: metrics('docs-site-web-acl'),
      rules: [
        {
          name: 'AWSManagedRulesCommonRuleSet',
          priority: 0,
          overrideAction: { none: {} },
          statement: {
            managedRuleGroupStatement: {
              vendorName: 'AWS',
              name: 'AWSManagedRulesCommonRuleSet',
              ruleActionOverrides: COUNTED_COMMON_RULES.map((name) => ({ name, actionToUse: { count: {} } })),
            },
          },
          visibilityConfig: metrics('docs-site-common-rule-set'),
        },
      ],
    });
  }
}
