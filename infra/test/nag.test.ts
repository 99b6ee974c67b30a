/**
 * @jest-environment node
 *
 * cdk-nag's AwsSolutions rules over both stacks, synthesized for each setting that changes them:
 * no unacknowledged error and no unacknowledged warning. Each acknowledgment sits on the construct
 * it is about, with its reason, beside that construct (infra/lib/*.ts); the list of them is spelled
 * out below, so a new one shows in review. bin/app.ts runs the same rules on every `cdk synth` and
 * `cdk deploy`.
 */
import * as cdk from 'aws-cdk-lib';
import * as s3 from 'aws-cdk-lib/aws-s3';
import { AwsSolutionsChecks } from 'cdk-nag';
import type { IConstruct } from 'constructs';
import type { InfraConfig } from '../lib/config';
import { CERTIFICATE_ARN, OIDC_PROVIDER, SAML_PROVIDER, synthFixture } from './fixtures';

jest.setTimeout(180_000);

let fixture: ReturnType<typeof synthFixture>;

beforeAll(() => {
  fixture = synthFixture();
  // Synth prints CDK's own validation warnings through console.error; the findings are asserted below.
  jest.spyOn(console, 'error').mockImplementation(() => undefined);
});

afterAll(() => {
  jest.restoreAllMocks();
  fixture?.cleanup();
});

/** Every finding the AwsSolutions pack leaves unacknowledged, one line each. */
function nagFindings(scope: IConstruct): string[] {
  const report = new AwsSolutionsChecks(undefined, { verbose: true }).validateScope(scope);
  return report.violations.flatMap((violation) =>
    violation.violatingResources.map((resource) => `${violation.severity} ${violation.ruleName} on ${resource.constructPath}: ${violation.description}`),
  );
}

interface Acknowledgment {
  path: string;
  id: string;
  reason: string;
  onStackOrApp: boolean;
}

/** Every AwsSolutions acknowledgment in the tree. */
function acknowledgments(app: cdk.App): Acknowledgment[] {
  const found: Acknowledgment[] = [];
  for (const construct of app.node.findAll()) {
    for (const entry of construct.node.metadata) {
      if (entry.type !== cdk.Validations.ACKNOWLEDGED_RULES_METADATA_KEY) continue;
      for (const [qualified, reason] of Object.entries(entry.data as Record<string, string>)) {
        const id = qualified.replace(/^annotation::/i, '');
        if (id.startsWith('AwsSolutions-')) found.push({ path: construct.node.path, id, reason, onStackOrApp: construct === app || cdk.Stack.isStack(construct) });
      }
    }
  }
  return found;
}

const SETTINGS: Array<[string, Partial<InfraConfig>]> = [
  ['the defaults (*.cloudfront.net, a web ACL with the registration rate rule alone, no identity provider)', {}],
  ['no web ACL at all (waf off and the registration rate rule off)', { wafRegistrationLimit: false }],
  ['a custom domain and certificate, WAF on and an OIDC provider', { domainName: 'docs.example.com', certificateArn: CERTIFICATE_ARN, waf: true, federation: OIDC_PROVIDER }],
  ['a SAML provider', { federation: SAML_PROVIDER }],
];

describe.each(SETTINGS)('AwsSolutions checks with %s', (_label, overrides) => {
  let app: cdk.App;
  beforeAll(() => {
    app = fixture.synth(overrides).app;
  });

  test('no unacknowledged error or warning', () => {
    expect(nagFindings(app)).toEqual([]);
  });

  test('every acknowledgment is on a resource, not a whole stack, and says why', () => {
    const found = acknowledgments(app);
    expect(found.length).toBeGreaterThan(0);
    for (const { path, id, reason, onStackOrApp } of found) {
      expect([path, id, onStackOrApp, reason.length >= 100]).toEqual([path, id, false, true]);
    }
  });
});

test('the acknowledgments, construct by construct', () => {
  const byPath = (app: cdk.App) => {
    const map: Record<string, string[]> = {};
    for (const { path, id } of acknowledgments(app)) (map[path] ??= []).push(id);
    for (const ids of Object.values(map)) ids.sort();
    return map;
  };
  const basicExecution = 'AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AWSLambdaBasicExecutionRole]';
  const defaults = byPath(fixture.synth().app);
  expect(defaults).toEqual({
    'DocsAuthStack/UserPool': ['AwsSolutions-COG1', 'AwsSolutions-COG2', 'AwsSolutions-COG8'],
    'DocsSiteStack/AccessLogs/Bucket': ['AwsSolutions-S1'],
    'DocsSiteStack/Authorizer': [basicExecution],
    // A web ACL by default (the registration rate rule), so no CFR2; CFR4 without a certificate.
    'DocsSiteStack/Distribution': ['AwsSolutions-CFR1', 'AwsSolutions-CFR4'],
    // The AI tools' server (infra/lib/mcp-origin.ts): its function reads the site bucket's objects,
    // and its body-hash Lambda@Edge function logs in every region, as the authorizer does.
    'DocsSiteStack/Mcp/Server': [basicExecution, 'AwsSolutions-IAM5[Resource::<SiteBucket397A1860.Arn>/*]'],
    'DocsSiteStack/Mcp/BodyHash': [basicExecution],
    // The AI tools' sign-in's keys secret is rotated by hand (docs/deploy.md), not on a schedule.
    'DocsSiteStack/Mcp/SignInKeys': ['AwsSolutions-SMG4'],
  });
  // With a certificate the distribution enforces TLSv1.2_2021: CFR4 goes away. With both web ACL
  // rules turned off there is no WAF: CFR2 comes back, with its reason.
  const everything = byPath(fixture.synth({ domainName: 'docs.example.com', certificateArn: CERTIFICATE_ARN, waf: true }).app);
  expect(everything['DocsSiteStack/Distribution']).toEqual(['AwsSolutions-CFR1']);
  const noWebAcl = byPath(fixture.synth({ wafRegistrationLimit: false }).app);
  expect(noWebAcl['DocsSiteStack/Distribution']).toEqual(['AwsSolutions-CFR1', 'AwsSolutions-CFR2', 'AwsSolutions-CFR4']);
  // With a provider, the pre token generation function that keeps the groups claim to the directory's
  // users (infra/lib/groups-claim-guard.ts) logs through the basic execution policy too.
  const federated = byPath(fixture.synth({ federation: OIDC_PROVIDER }).app);
  expect(federated['DocsAuthStack/GroupsClaimGuard/Function']).toEqual([basicExecution]);
});

test('the pack is live: a bucket without logging or a TLS-only policy is reported', () => {
  const app = new cdk.App({ outdir: fixture.outdir() });
  const stack = new cdk.Stack(app, 'Probe', { env: { account: '111111111111', region: 'us-east-1' } });
  new s3.Bucket(stack, 'Plain');
  app.synth();
  expect(nagFindings(app)).toEqual(
    expect.arrayContaining([expect.stringMatching(/^error AwsSolutions-S1 on Probe\/Plain\//), expect.stringMatching(/^error AwsSolutions-S10 on Probe\/Plain\//)]),
  );
});
