import * as cdk from 'aws-cdk-lib';
import * as cognito from 'aws-cdk-lib/aws-cognito';
import { Construct } from 'constructs';
import { TOKEN_MINUTES } from '../../lib/auth/authSettings';

export type DocsAuthStackProps = cdk.StackProps;

/**
 * Cognito user pool (eu-west-2) for the docs site.
 *
 * Accounts are created by admins only (no self sign-up), users sign in with a
 * username (no email/phone aliases), and the browser uses SRP through a public
 * app client (no client secret can be kept in a static site).
 */
export class DocsAuthStack extends cdk.Stack {
  public readonly userPool: cognito.UserPool;
  public readonly userPoolClient: cognito.UserPoolClient;

  constructor(scope: Construct, id: string, props?: DocsAuthStackProps) {
    super(scope, id, props);

    this.userPool = new cognito.UserPool(this, 'UserPool', {
      userPoolName: 'docs-users',
      signInAliases: { username: true },
      // "Alice" and "alice" are the same user.
      signInCaseSensitive: false,
      selfSignUpEnabled: false,
      mfa: cognito.Mfa.OFF,
      passwordPolicy: {
        minLength: 8,
        requireLowercase: false,
        requireUppercase: false,
        requireDigits: false,
        requireSymbols: false,
        tempPasswordValidity: cdk.Duration.days(7),
      },
      // No email/phone on accounts: admins reset passwords
      // (admin-set-user-password / admin-reset-user-password).
      accountRecovery: cognito.AccountRecovery.NONE,
      deletionProtection: true,
      removalPolicy: cdk.RemovalPolicy.RETAIN,
    });

    this.userPoolClient = this.userPool.addClient('WebClient', {
      userPoolClientName: 'docs-web',
      generateSecret: false,
      authFlows: {
        userSrp: true,
        userPassword: false,
        custom: false,
        adminUserPassword: false,
      },
      // The site signs in with SRP from the browser; no hosted UI / OAuth flows.
      disableOAuth: true,
      supportedIdentityProviders: [cognito.UserPoolClientIdentityProvider.COGNITO],
      preventUserExistenceErrors: true,
      enableTokenRevocation: true,
      // A disabled user or a revoked session keeps access until the ID token expires; the
      // browser renews tokens before expiry, so readers never notice the short life.
      idTokenValidity: cdk.Duration.minutes(TOKEN_MINUTES),
      accessTokenValidity: cdk.Duration.minutes(TOKEN_MINUTES),
      refreshTokenValidity: cdk.Duration.days(30),
    });

    new cdk.CfnOutput(this, 'UserPoolId', {
      value: this.userPool.userPoolId,
      description: 'Cognito user pool id (bake into the site and edge builds).',
    });
    new cdk.CfnOutput(this, 'UserPoolClientId', {
      value: this.userPoolClient.userPoolClientId,
      description: 'Cognito public app client id (bake into the site and edge builds).',
    });
    new cdk.CfnOutput(this, 'UserPoolRegion', {
      value: this.region,
      description: 'Region of the user pool.',
    });
  }
}
