/**
 * @jest-environment node
 *
 * Groups come only from the pool (cognito:groups, set by administrators) or from the directory
 * (the identity provider's attribute mapping into custom:groups, through the federated client),
 * never from the reader. A reader who signed in with a username holds an access token with
 * aws.cognito.signin.user.admin and can call UpdateUserAttributes on any attribute their app client
 * may write; these tests read the synthesized templates, with and without a provider, for what
 * that reader could reach: no such client may write anything that decides access.
 */
import * as vm from 'node:vm';
import { Template } from 'aws-cdk-lib/assertions';
import access from '../../access.config';
import { GROUPS_CLAIM } from '../lib/auth-stack';
import type { FederationConfig } from '../lib/federation';
import { FEDERATED_USER_STATUS } from '../lib/groups-claim-guard';
import { OIDC_PROVIDER, SAML_PROVIDER, synthFixture } from './fixtures';

jest.setTimeout(180_000);

const ADMIN_SCOPE = 'aws.cognito.signin.user.admin';

let fixture: ReturnType<typeof synthFixture>;

beforeAll(() => {
  fixture = synthFixture();
  jest.spyOn(console, 'error').mockImplementation(() => undefined);
});

afterAll(() => {
  jest.restoreAllMocks();
  fixture?.cleanup();
});

type Resource = { Properties: Record<string, any> };
const clientsOf = (auth: Template) => Object.values(auth.findResources('AWS::Cognito::UserPoolClient')) as Resource[];

/** The pool's pre token generation function, loaded from its inline source as Lambda loads it. */
function preTokenGeneration(auth: Template): ((event: any) => Promise<any>) | undefined {
  const [pool] = Object.values(auth.findResources('AWS::Cognito::UserPool')) as Resource[];
  const target = pool.Properties.LambdaConfig?.PreTokenGeneration;
  if (!target) return undefined;
  const functionId: string = target['Fn::GetAtt'][0];
  const source: string = (auth.findResources('AWS::Lambda::Function')[functionId] as Resource).Properties.Code.ZipFile;
  const module = { exports: {} as Record<string, any> };
  vm.runInNewContext(source, { module, exports: module.exports });
  return module.exports.handler;
}

const tokenEvent = (userAttributes: Record<string, string>) => ({
  version: '1',
  triggerSource: 'TokenGeneration_Authentication',
  userName: 'reader',
  request: { userAttributes, groupConfiguration: { groupsToOverride: [], iamRolesToOverride: [] } },
  response: { claimsOverrideDetails: null },
});

test('the claim infra/ protects is the one access.config.ts reads groups from', () => {
  expect(access.groupsClaim).toBe(GROUPS_CLAIM);
});

describe.each<[string, FederationConfig | undefined]>([
  ['no identity provider', undefined],
  ['an OIDC provider', OIDC_PROVIDER],
  ['a SAML provider', SAML_PROVIDER],
])('with %s', (_label, federation) => {
  let auth: Template;
  beforeAll(() => {
    auth = Template.fromStack(fixture.synth({ federation }).auth);
  });

  test('every app client names what it may write (no list means every standard attribute)', () => {
    const clients = clientsOf(auth);
    expect(clients).toHaveLength(federation ? 2 : 1);
    for (const client of clients) expect(client.Properties.WriteAttributes).toEqual(expect.arrayContaining([expect.any(String)]));
  });

  test('no client a username reader can use may write the groups claim, or anything else that decides access', () => {
    for (const client of clientsOf(auth)) {
      const { SupportedIdentityProviders, ExplicitAuthFlows, WriteAttributes } = client.Properties;
      // No list of providers is Cognito's default (COGNITO); no list of flows includes SRP and custom auth.
      const cognitoUsers = SupportedIdentityProviders === undefined || SupportedIdentityProviders.includes('COGNITO');
      const signsInItself = ExplicitAuthFlows === undefined || ExplicitAuthFlows.some((flow: string) => flow !== 'ALLOW_REFRESH_TOKEN_AUTH');
      if (cognitoUsers || signsInItself) expect(WriteAttributes).toEqual(['locale']);
    }
  });

  test('the one client that may write the groups claim is the provider\'s alone, and none of its tokens may call UpdateUserAttributes', () => {
    // No list at all: Cognito's default, which CDK documents as every standard and custom attribute.
    const writers = clientsOf(auth).filter(({ Properties: { WriteAttributes } }) => WriteAttributes === undefined || WriteAttributes.includes(GROUPS_CLAIM));
    if (!federation) {
      expect(writers).toEqual([]);
      expect(preTokenGeneration(auth)).toBeUndefined();
      return;
    }
    expect(writers).toHaveLength(1);
    const [writer] = writers;
    expect(writer.Properties.WriteAttributes).toEqual([GROUPS_CLAIM]);
    expect(writer.Properties.SupportedIdentityProviders).toEqual([federation.name]);
    expect(writer.Properties.ExplicitAuthFlows).toEqual(['ALLOW_REFRESH_TOKEN_AUTH']);
    expect(writer.Properties.AllowedOAuthFlows).toEqual(['code']);
    expect(writer.Properties.AllowedOAuthScopes).not.toContain(ADMIN_SCOPE);
    expect([...writer.Properties.AllowedOAuthScopes].sort()).toEqual(['email', 'openid', 'profile']);
    // Defence in depth (an administrator's write, a client added later): the guard stays.
    expect(preTokenGeneration(auth)).toBeDefined();
  });

  if (federation) {
    test('the guard drops the claim for a reader Cognito did not create from the provider, and only for them', async () => {
      const handler = preTokenGeneration(auth)!;
      const selfWritten = await handler(tokenEvent({ sub: 's', 'cognito:user_status': 'CONFIRMED', [GROUPS_CLAIM]: 'support-team' }));
      expect(selfWritten.response.claimsOverrideDetails).toEqual({ claimsToSuppress: [GROUPS_CLAIM] });
      const noStatus = await handler(tokenEvent({ sub: 's', [GROUPS_CLAIM]: 'support-team' }));
      expect(noStatus.response.claimsOverrideDetails).toEqual({ claimsToSuppress: [GROUPS_CLAIM] });

      const fromDirectory = await handler(tokenEvent({ sub: 's', 'cognito:user_status': FEDERATED_USER_STATUS, identities: '[]', [GROUPS_CLAIM]: 'support-team' }));
      expect(fromDirectory.response.claimsOverrideDetails).toBeNull();
      const none = await handler(tokenEvent({ sub: 's', 'cognito:user_status': 'CONFIRMED' }));
      expect(none.response.claimsOverrideDetails).toBeNull();
    });

    test('the guard is a pre token generation trigger Cognito may invoke, with logs only', () => {
      auth.hasResourceProperties('AWS::Lambda::Permission', { Action: 'lambda:InvokeFunction', Principal: 'cognito-idp.amazonaws.com' });
      const roles = Object.values(auth.findResources('AWS::IAM::Role')) as Resource[];
      expect(roles).toHaveLength(1);
      expect(roles[0].Properties.Policies).toBeUndefined();
      expect(JSON.stringify(roles[0].Properties.ManagedPolicyArns)).toContain('service-role/AWSLambdaBasicExecutionRole');
    });
  }
});
