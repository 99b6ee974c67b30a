import * as cdk from 'aws-cdk-lib';
import * as cognito from 'aws-cdk-lib/aws-cognito';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import { Construct } from 'constructs';

/** The status Cognito gives a user it created from an identity provider's sign-in (no reader can set it). */
export const FEDERATED_USER_STATUS = 'EXTERNAL_PROVIDER';

/**
 * The pre token generation function (V1_0 event, which every feature plan has): it keeps `claim` out
 * of the ID token of every user Cognito did not create from the identity provider. The source is
 * what Lambda runs, as it is; infra/test/groups-claim.test.ts runs the same text.
 */
export function groupsClaimGuardSource(claim: string): string {
  return [
    '// Groups in ' + claim + ' come only from the identity provider\'s attribute mapping (infra/lib/groups-claim-guard.ts).',
    'exports.handler = async (event) => {',
    '  const attributes = (event.request && event.request.userAttributes) || {};',
    `  if (attributes['cognito:user_status'] !== ${JSON.stringify(FEDERATED_USER_STATUS)} && ${JSON.stringify(claim)} in attributes) {`,
    '    event.response = event.response || {};',
    `    event.response.claimsOverrideDetails = { claimsToSuppress: [${JSON.stringify(claim)}] };`,
    '  }',
    '  return event;',
    '};',
    '',
  ].join('\n');
}

/**
 * Why this exists, with a federated provider on (infra/lib/auth-stack.ts has the rest):
 *
 * Cognito writes the provider's groups into the mapped attribute at every federated sign-in, and
 * it requires the app client the reader signs in with to have write access to every mapped
 * attribute (UserPoolClient WriteAttributes: "If your app client allows users to sign in through
 * an IdP, this array must include all attributes that you have mapped"; without it the sign-in
 * fails). So federated sign-in has its own app client, the only one that may write the groups
 * attribute: it knows the provider alone (no username signs in through it), has no password or
 * SRP flow, and never grants aws.cognito.signin.user.admin, so none of its tokens can call
 * UpdateUserAttributes. The username form's client, whose SRP tokens do carry that scope, may
 * write `locale` only (infra/test/groups-claim.test.ts proves both).
 *
 * That leaves no reader a way to write their groups. This trigger is defence in depth for the ways
 * that do not go through a reader: an administrator's AdminUpdateUserAttributes, or an app client
 * added later without the same care. It drops the claim from the ID token, which the authorizer and
 * the AI tools' server read, for every user whose status is not EXTERNAL_PROVIDER (a status Cognito
 * sets for users it created from the provider, and nobody can write); and Cognito rewrites a
 * federated user's attribute from the directory at each of their sign-ins.
 */
export class GroupsClaimGuard extends Construct {
  public readonly function: lambda.Function;

  constructor(scope: Construct, id: string, props: { readonly userPool: cognito.UserPool; readonly claim: string }) {
    super(scope, id);
    this.function = new lambda.Function(this, 'Function', {
      description: `Docs site: keeps ${props.claim} out of the ID tokens of users who did not sign in through the identity provider`,
      runtime: lambda.Runtime.NODEJS_24_X,
      architecture: lambda.Architecture.ARM_64,
      handler: 'index.handler',
      code: lambda.Code.fromInline(groupsClaimGuardSource(props.claim)),
      // Cognito waits 5 seconds for a trigger; this one reads its event and nothing else.
      memorySize: 128,
      timeout: cdk.Duration.seconds(5),
    });
    props.userPool.addTrigger(cognito.UserPoolOperation.PRE_TOKEN_GENERATION, this.function);
    cdk.Validations.of(this.function).acknowledge({
      id: 'AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AWSLambdaBasicExecutionRole]',
      reason:
        "The groups-claim guard's role has only the AWS managed basic execution policy: CloudWatch Logs " +
        'CreateLogGroup, CreateLogStream and PutLogEvents for its own log group, nothing else; it reads only the ' +
        'event Cognito sends it and calls no AWS API.',
    });
  }
}
