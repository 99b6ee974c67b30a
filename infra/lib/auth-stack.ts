import * as cdk from 'aws-cdk-lib';
import * as cognito from 'aws-cdk-lib/aws-cognito';
import { Construct } from 'constructs';
import { TOKEN_MINUTES } from '../../lib/auth/authSettings';
import { GROUPS_ATTRIBUTE, hostedDomainOf, type FederationConfig } from './federation';
import { GroupsClaimGuard } from './groups-claim-guard';

/** The ID-token claim that carries a federated provider's groups (access.config.ts `groupsClaim`). */
export const GROUPS_CLAIM = `custom:${GROUPS_ATTRIBUTE}`;

/**
 * What a reader may write about themselves with their own access token (UpdateUserAttributes):
 * nothing that decides access. Access follows `cognito:username` (not an attribute), pool groups
 * (`cognito:groups`, set by administrators) and, with a provider, GROUPS_CLAIM. A client without a
 * list may write every standard attribute (CDK documents every custom one too), so the list is
 * spelled out. `locale` is there only so that it is never empty (which could read as no list); no
 * code reads it. With a provider, GROUPS_CLAIM must be writable too: Cognito fails a federated
 * sign-in through a client that cannot write a mapped attribute (infra/lib/groups-claim-guard.ts
 * says why that is safe here, and what else must hold).
 */
export function readerWritableAttributes(federated: boolean): cognito.ClientAttributes {
  const attributes = new cognito.ClientAttributes().withStandardAttributes({ locale: true });
  return federated ? attributes.withCustomAttributes(GROUPS_ATTRIBUTE) : attributes;
}

export interface DocsAuthStackProps extends cdk.StackProps {
  /** An OIDC or SAML identity provider (infra/lib/federation.ts); none by default. */
  readonly federation?: FederationConfig;
}

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
      // Holds a federated provider's groups (custom:groups in the ID token); unused without one.
      // Only the provider's attribute mapping sets it for readers (readerWritableAttributes, GroupsClaimGuard).
      ...(props?.federation ? { customAttributes: { [GROUPS_ATTRIBUTE]: new cognito.StringAttribute({ mutable: true, maxLen: 2048 }) } } : {}),
    });

    const pool = cdk.Validations.of(this.userPool);
    pool.acknowledge({
      id: 'AwsSolutions-COG1',
      reason:
        'Length, not composition: passwords need at least 8 characters and no character classes, as NIST SP ' +
        '800-63B advises (composition rules lead to predictable passwords). Self sign-up is off: administrators ' +
        'create every account with a temporary password the user must replace, and Cognito throttles repeated ' +
        'failed sign-ins.',
    });
    pool.acknowledge({
      id: 'AwsSolutions-COG2',
      reason:
        'MFA is off by design (README "Deploy"): the site is read-only internal documentation, accounts are ' +
        'issued by administrators, and ID and access tokens live 15 minutes. Where MFA is required, staff sign ' +
        'in through the company directory (idpType oidc or saml), which applies its own MFA.',
    });
    pool.acknowledge({
      id: 'AwsSolutions-COG8',
      reason:
        'The Plus feature plan (threat protection: adaptive authentication, compromised-credential checks) is ' +
        'billed per monthly active user; this pool has no self sign-up, a small administrator-managed set of ' +
        'accounts, and 15-minute tokens. Staff who sign in through a federated provider get that directory\'s ' +
        'own risk checks.',
    });

    const federation = props?.federation;
    const provider = federation ? this.addIdentityProvider(federation) : undefined;
    if (federation) {
      this.userPool.addDomain('HostedDomain', { cognitoDomain: { domainPrefix: federation.domainPrefix } });
    }

    this.userPoolClient = this.userPool.addClient('WebClient', {
      userPoolClientName: 'docs-web',
      generateSecret: false,
      authFlows: {
        userSrp: true,
        userPassword: false,
        custom: false,
        adminUserPassword: false,
      },
      // Username sign-in is SRP from the browser. With a federated provider, the sign-in page also
      // offers "Sign in with <provider>": the authorization-code flow through the hosted domain,
      // back to the site's /login.
      ...(federation
        ? {
            oAuth: {
              flows: { authorizationCodeGrant: true },
              // Never aws.cognito.signin.user.admin: a token from the hosted domain cannot call
              // UpdateUserAttributes, so a federated reader cannot write their own groups.
              scopes: [cognito.OAuthScope.OPENID, cognito.OAuthScope.EMAIL, cognito.OAuthScope.PROFILE],
              callbackUrls: [...federation.callbackUrls],
              logoutUrls: [...federation.logoutUrls],
            },
          }
        : { disableOAuth: true }),
      supportedIdentityProviders: [
        cognito.UserPoolClientIdentityProvider.COGNITO,
        ...(federation ? [cognito.UserPoolClientIdentityProvider.custom(federation.name)] : []),
      ],
      // Never a claim that decides access (readerWritableAttributes says why it holds what it does).
      writeAttributes: readerWritableAttributes(federation !== undefined),
      preventUserExistenceErrors: true,
      enableTokenRevocation: true,
      // A disabled user or a revoked session keeps access until the ID token expires; the
      // browser renews tokens before expiry, so readers never notice the short life.
      idTokenValidity: cdk.Duration.minutes(TOKEN_MINUTES),
      accessTokenValidity: cdk.Duration.minutes(TOKEN_MINUTES),
      refreshTokenValidity: cdk.Duration.days(30),
    });

    if (provider) this.userPoolClient.node.addDependency(provider);
    // The web client may write GROUPS_CLAIM (Cognito's rule for mapped attributes), and a reader
    // signed in with a username holds a token that could: their ID tokens never carry it.
    if (federation) new GroupsClaimGuard(this, 'GroupsClaimGuard', { userPool: this.userPool, claim: GROUPS_CLAIM });

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
    if (federation) {
      new cdk.CfnOutput(this, 'HostedDomain', {
        value: hostedDomainOf(federation, this.region),
        description: 'Set DOCS_COGNITO_DOMAIN to this, and DOCS_FEDERATED_PROVIDER to the provider name, for the site build.',
      });
    }
  }

  /** The provider, with its groups attribute mapped to custom:groups. */
  private addIdentityProvider(federation: FederationConfig): cognito.IUserPoolIdentityProvider {
    const attributeMapping: cognito.AttributeMapping = {
      custom: { [GROUPS_CLAIM]: cognito.ProviderAttribute.other(federation.groupsAttribute) },
    };
    if (federation.type === 'oidc') {
      return new cognito.UserPoolIdentityProviderOidc(this, 'OidcProvider', {
        userPool: this.userPool,
        name: federation.name,
        issuerUrl: federation.issuerUrl,
        clientId: federation.clientId,
        // A dynamic reference: CloudFormation reads the secret at deploy time; the template holds only its name.
        clientSecret: cdk.SecretValue.secretsManager(federation.clientSecretName).unsafeUnwrap(),
        scopes: ['openid', 'email', 'profile'],
        attributeRequestMethod: cognito.OidcAttributeRequestMethod.GET,
        attributeMapping,
      });
    }
    return new cognito.UserPoolIdentityProviderSaml(this, 'SamlProvider', {
      userPool: this.userPool,
      name: federation.name,
      metadata: cognito.UserPoolIdentityProviderSamlMetadata.url(federation.metadataUrl),
      attributeMapping,
    });
  }
}
