import * as wafv2 from 'aws-cdk-lib/aws-wafv2';
import { Construct } from 'constructs';
import { REGISTRATION_PATH } from '../../lib/aiTools/oauthPaths';
import { REGISTRATION_RATE } from '../../lib/aiTools/registrationLimits';

export { REGISTRATION_PATH };

/** The windows AWS WAF's rate-based rules count over, and their smallest limit. */
const WAF_RATE_WINDOWS = [60, 120, 300, 600];
const WAF_RATE_MIN_LIMIT = 10;

/**
 * REGISTRATION_RATE as a WAF rate-based rule takes it: one of WAF's windows and a limit it accepts,
 * or synth fails saying which, rather than a deploy that CloudFormation rejects.
 */
export function wafRateOf(rate: { readonly limit: number; readonly windowSeconds: number }): { limit: number; evaluationWindowSec: number } {
  if (!WAF_RATE_WINDOWS.includes(rate.windowSeconds)) {
    throw new Error(`A WAF rate rule counts over ${WAF_RATE_WINDOWS.join(', ')} seconds, not ${rate.windowSeconds} (lib/aiTools/registrationLimits.ts)`);
  }
  if (!Number.isInteger(rate.limit) || rate.limit < WAF_RATE_MIN_LIMIT) {
    throw new Error(`A WAF rate rule's limit is a whole number of at least ${WAF_RATE_MIN_LIMIT}, not ${rate.limit} (lib/aiTools/registrationLimits.ts)`);
  }
  return { limit: rate.limit, evaluationWindowSec: rate.windowSeconds };
}

/** The rate rule's name (metrics and sampled requests show it). */
export const REGISTRATION_RULE_NAME = 'AiToolRegistrationRate';

/**
 * The rule of the AWS managed common rule set that blocks a Cookie header over 10,240 bytes. It
 * only counts here: the authorizer itself accepts up to 16 KiB of cookies and sends a reader past
 * that to /session-too-large, which explains the problem and clears the stale sign-in cookies
 * (README "Oversized cookies"). Blocked by WAF, a reader with 10 to 16 KiB of cookies (a few stale
 * Amplify sessions) would get a bare 403 and no way out.
 */
export const COUNTED_COMMON_RULES = ['SizeRestrictions_Cookie_HEADER'] as const;

export interface DocsWebAclProps {
  /** The AWS managed common rule set (the `waf` setting, off by default). */
  readonly managedRules: boolean;
  /** The rate rule on AI-tool registrations (the `wafRegistrationLimit` setting, on by default). */
  readonly registrationLimit: boolean;
}

/**
 * An AWS WAF web ACL for the distribution (scope CLOUDFRONT, so in us-east-1 like the site stack),
 * allowing what its rules do not block, with CloudWatch metrics and sampled requests. Two rules,
 * each behind its own setting (infra/lib/config.ts):
 *
 * - The rate rule on AI-tool registrations, on by default: at most REGISTRATION_RATE's POSTs to
 *   /oauth/reg from one address in its window, past which WAF answers 429. Registration is the one
 *   request anyone may make without a sign-in that writes to the sign-in's table (a client record);
 *   a real tool registers once per install. The local server enforces the same figure itself.
 * - The AWS managed common rule set (OWASP-style checks: bad inputs, XSS, LFI/RFI, request sizes),
 *   opt-in (`-c waf=on` or `WAF=on`), because every request already passes the viewer-request
 *   authorizer, which refuses anyone without a valid Cognito token before anything is served; the
 *   site is static files, read with GET and HEAD only (no forms, no query strings reach the origin);
 *   and each rule adds a monthly fee. Turn it on where a policy requires a WAF on every
 *   distribution, or to filter traffic before it reaches the authorizer.
 *
 * A web ACL costs a monthly fee, one per rule, and a fee per million requests it inspects (every
 * request to the distribution, not only the ones a rule matches): docs/deploy.md has the figures.
 */
export class DocsWebAcl extends Construct {
  public readonly webAcl: wafv2.CfnWebACL;

  constructor(scope: Construct, id: string, props: DocsWebAclProps) {
    super(scope, id);

    // Metrics only: a sampled request keeps every header, the readers' token cookies and the AI
    // tools' bearer tokens among them, for anyone in the account who may read samples.
    const metrics = (metricName: string): wafv2.CfnWebACL.VisibilityConfigProperty => ({
      cloudWatchMetricsEnabled: true,
      sampledRequestsEnabled: false,
      metricName,
    });

    const rules: wafv2.CfnWebACL.RuleProperty[] = [];
    if (props.registrationLimit) {
      rules.push({
        name: REGISTRATION_RULE_NAME,
        priority: rules.length,
        action: { block: { customResponse: { responseCode: 429, customResponseBodyKey: 'registration-rate' } } },
        statement: {
          rateBasedStatement: {
            ...wafRateOf(REGISTRATION_RATE),
            aggregateKeyType: 'IP',
            // Only POSTs to the registration path count. The path is decoded, normalised and
            // lowercased first, so /oauth/REG, /oauth//reg or /oauth/%72eg (which CloudFront still
            // sends to the /oauth/* behavior) count too; a starting match also counts /oauth/reg/.
            scopeDownStatement: {
              andStatement: {
                statements: [
                  {
                    byteMatchStatement: {
                      fieldToMatch: { method: {} },
                      positionalConstraint: 'EXACTLY',
                      searchString: 'POST',
                      textTransformations: [{ priority: 0, type: 'NONE' }],
                    },
                  },
                  {
                    byteMatchStatement: {
                      fieldToMatch: { uriPath: {} },
                      positionalConstraint: 'STARTS_WITH',
                      searchString: REGISTRATION_PATH,
                      textTransformations: [
                        { priority: 0, type: 'URL_DECODE' },
                        { priority: 1, type: 'NORMALIZE_PATH' },
                        { priority: 2, type: 'LOWERCASE' },
                      ],
                    },
                  },
                ],
              },
            },
          },
        },
        visibilityConfig: metrics('docs-site-ai-tool-registration-rate'),
      });
    }
    if (props.managedRules) {
      rules.push({
        name: 'AWSManagedRulesCommonRuleSet',
        priority: rules.length,
        overrideAction: { none: {} },
        statement: {
          managedRuleGroupStatement: {
            vendorName: 'AWS',
            name: 'AWSManagedRulesCommonRuleSet',
            ruleActionOverrides: COUNTED_COMMON_RULES.map((name) => ({ name, actionToUse: { count: {} } })),
          },
        },
        visibilityConfig: metrics('docs-site-common-rule-set'),
      });
    }
    if (rules.length === 0) throw new Error('DocsWebAcl: no rule is on; create no web ACL instead');

    this.webAcl = new wafv2.CfnWebACL(this, 'WebAcl', {
      scope: 'CLOUDFRONT',
      description: `Docs site: ${[
        ...(props.registrationLimit ? ['rate limit on AI tool registrations'] : []),
        ...(props.managedRules ? ['AWS managed common rule set'] : []),
      ].join(' and ')} in front of the edge authorizer`,
      defaultAction: { allow: {} },
      visibilityConfig: metrics('docs-site-web-acl'),
      rules,
      ...(props.registrationLimit
        ? {
            customResponseBodies: {
              'registration-rate': {
                contentType: 'APPLICATION_JSON',
                content: JSON.stringify({
                  error: 'too_many_requests',
                  error_description: `at most ${REGISTRATION_RATE.limit} registrations in ${REGISTRATION_RATE.windowSeconds} seconds from one address; try again later`,
                }),
              },
            },
          }
        : {}),
    });
  }
}
