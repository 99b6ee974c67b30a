import * as cdk from 'aws-cdk-lib';
import * as cognito from 'aws-cdk-lib/aws-cognito';
import { Construct } from 'constructs';
import { TOKEN_MINUTES } from '../../lib/auth/authSettings';
import { GROUPS_CLAIM } from '../../lib/access/types';
import { GROUPS_ATTRIBUTE, hostedDomainOf, type FederationConfig } from './federation';
import { GroupsClaimGuard } from './groups-claim-guard';

/** The ID-token claim that carries a federated provider's groups (access.config.ts `groupsClaim`). */
export { GROUPS_CLAIM };

/**
 * What a reader who signs in with a username may write about themselves with their own access
 * token (UpdateUserAttributes, which the SRP token's aws.cognito.signin.user.admin scope allows):
 * nothing that decides access. Access follows `cognito:username` (not an attribute), pool groups
 * (`cognito:groups`, set by administrators) and, with a provider, GROUPS_CLAIM, which only the
 * provider's attribute mapping writes, through the federated client (federatedWritableAttributes).
 * A client without a list may write every standard attribute (CDK documents every custom one too),
 * so the list is spelled out. `locale` is there only so that it is never empty (which could read as
 * no list); no code reads it.
 */
export function readerWritableAttributes(): cognito.ClientAttributes {
  return new cognito.ClientAttributes().withStandardAttributes({ locale: true });
}

/**
 * What the federated client may write: exactly the attributes the provider's mapping writes
 * (addIdentityProvider), because Cognito fails a federated sign-in through a client that cannot
 * write a mapped attribute. No token of that client can write them itself: it issues tokens only
 * from the hosted domain, with no aws.cognito.signin.user.admin scope.
 */
export function federatedWritableAttributes(): cognito.ClientAttributes {
  return new cognito.ClientAttributes().withCustomAttributes(GROUPS_ATTRIBUTE);
}

/** What both app clients share: public (a static site keeps no secret), short tokens, revocable sessions. */
const SESSION_SETTINGS = {
  preventUserExistenceErrors: true,
  enableTokenRevocation: true,
  // A disabled user or a revoked session keeps access until the ID token expires; the browser
  // renews tokens before expiry, so readers never notice the short life.
  idTokenValidity: cdk.Duration.minutes(TOKEN_MINUTES),
  accessTokenValidity: cdk.Duration.minutes(TOKEN_MINUTES),
  refreshTokenValidity: cdk.Duration.days(30),
} satisfies Partial<cognito.UserPoolClientOptions>;

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
  /** With a provider: the client of federated sign-in alone (see the constructor). */
  public readonly federatedClient?: cognito.UserPoolClient;

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
      // No email/phone on accounts: admins reset passwords (admin-set-user-password /
      // admin-reset-user-password), and the sign-in form (pages/login.tsx) tells readers so.
      accountRecovery: cognito.AccountRecovery.NONE,
      deletionProtection: true,
      removalPolicy: cdk.RemovalPolicy.RETAIN,
      // Holds a federated provider's groups (custom:groups in the ID token); unused without one.
      // Only the provider's attribute mapping sets it for readers (federatedWritableAttributes, GroupsClaimGuard).
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

    // The username form's client: SRP from the browser, Cognito's own users only. Its tokens carry
    // aws.cognito.signin.user.admin (every SRP token does), so it may write nothing that decides
    // access. Federated sign-in has its own client below: Cognito requires the client a provider's
    // user signs in through to be able to write every mapped attribute, which this one must not.
    this.userPoolClient = this.userPool.addClient('WebClient', {
      userPoolClientName: 'docs-web',
      generateSecret: false,
      authFlows: {
        userSrp: true,
        userPassword: false,
        custom: false,
        adminUserPassword: false,
      },
      disableOAuth: true,
      supportedIdentityProviders: [cognito.UserPoolClientIdentityProvider.COGNITO],
      writeAttributes: readerWritableAttributes(),
      ...SESSION_SETTINGS,
    });

    if (federation && provider) {
      // The provider's client: "Sign in with <provider>" on the sign-in page, the authorization-code
      // flow through the hosted domain, back to the site's /login. It knows only the provider (never
      // COGNITO: no username can sign in through it), has no password, SRP or custom flows (only the
      // renewal of its own sessions), and never grants aws.cognito.signin.user.admin, so none of its
      // tokens can call UpdateUserAttributes. It may write the mapped attributes because Cognito
      // writes them at each federated sign-in through it; nobody else can.
      this.federatedClient = this.userPool.addClient('FederatedClient', {
        userPoolClientName: 'docs-federated',
        generateSecret: false,
        // Every flow off: CDK then lists ALLOW_REFRESH_TOKEN_AUTH alone. (No list at all would be
        // Cognito's default, which includes SRP and custom auth.)
        authFlows: { userSrp: false, userPassword: false, custom: false, adminUserPassword: false, user: false },
        oAuth: {
          flows: { authorizationCodeGrant: true, implicitCodeGrant: false, clientCredentials: false },
          scopes: [cognito.OAuthScope.OPENID, cognito.OAuthScope.EMAIL, cognito.OAuthScope.PROFILE],
          callbackUrls: [...federation.callbackUrls],
          logoutUrls: [...federation.logoutUrls],
        },
        supportedIdentityProviders: [cognito.UserPoolClientIdentityProvider.custom(federation.name)],
        writeAttributes: federatedWritableAttributes(),
        ...SESSION_SETTINGS,
      });
      this.federatedClient.node.addDependency(provider);
      // Defence in depth, kept though no app client a username reader can use may write the claim
      // now: an administrator's AdminUpdateUserAttributes (or a client added later by mistake) could
      // still set it on a user the provider did not create; their ID tokens never carry it.
      new GroupsClaimGuard(this, 'GroupsClaimGuard', { userPool: this.userPool, claim: GROUPS_CLAIM });
    }

    new cdk.CfnOutput(this, 'UserPoolId', {
      value: this.userPool.userPoolId,
      description: 'Cognito user pool id (bake into the site and edge builds).',
    });
    new cdk.CfnOutput(this, 'UserPoolClientId', {
      value: this.userPoolClient.userPoolClientId,
      description: 'Cognito public app client id (bake into the site and edge builds).',
    });
    if (this.federatedClient) {
      new cdk.CfnOutput(this, 'FederatedClientId', {
        value: this.federatedClient.userPoolClientId,
        description: 'Set DOCS_FEDERATED_CLIENT_ID to this for the site build: the public app client of federated sign-in.',
      });
    }
    new cdk.CfnOutput(this, 'UserPoolRegion', {
      value: this.region,
      description: 'Region of the user pool.',
    });
    if (federation) {
      new cdk.CfnOutput(this, 'HostedDomain', {
        value: hostedDomainOf(federation, this.region),
        description: 'Set DOCS_COGNITO_DOMAIN to this, DOCS_FEDERATED_PROVIDER to the provider name and DOCS_FEDERATED_CLIENT_ID to FederatedClientId, for the site build.',
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
