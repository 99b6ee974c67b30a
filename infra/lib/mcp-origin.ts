import * as cdk from 'aws-cdk-lib';
import * as cloudfront from 'aws-cdk-lib/aws-cloudfront';
import * as origins from 'aws-cdk-lib/aws-cloudfront-origins';
import * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import type * as s3 from 'aws-cdk-lib/aws-s3';
import * as secretsmanager from 'aws-cdk-lib/aws-secretsmanager';
import { Construct } from 'constructs';
import { FORWARDED_AUTHORIZATION, FORWARDED_HOST } from '../../mcp/functionUrl';
import { MCP_PATH, RESOURCE_METADATA_PATH } from '../../mcp/mcpHandler';
import { OAUTH_KEYS_SECRET_ENV, OAUTH_TABLE_ENV } from '../../mcp/oauth/lambdaSignInEnv';
import { OAUTH_TABLE_SCHEMA } from '../../mcp/oauth/store/tableSchema';
import { readBuiltFor } from '../../lib/auth/builtFor';
import { AUTHORIZATION_SERVER_METADATA_PATH, CONSENT_HEADER, ISSUER_PATH } from '../../lib/aiTools/oauthPaths';
import { MissingBuildOutputError } from './config';

/**
 * How a request for the AI tools' server reaches its function, and why this way.
 *
 * The server is a Lambda function (mcp/lambda.ts) behind a function URL with AWS_IAM auth, and
 * the only principal allowed to invoke it is CloudFront on behalf of this distribution (origin
 * access control, OAC): nobody can call the function URL directly, and every request to it has
 * passed the distribution (and its web ACL, when WAF is on). That leaves two things to solve:
 *
 * - OAC signs each origin request with SigV4 in the Authorization header, overwriting the
 *   reader's `Authorization: Bearer <ID token>`; and no origin request policy may forward
 *   Authorization anyway. So a CloudFront Function at viewer request (which sees every viewer
 *   header) moves it to FORWARDED_AUTHORIZATION, and the host the reader used to FORWARDED_HOST
 *   (for the full URLs the server answers with); /mcp's origin request policy forwards those two and
 *   the MCP headers, nothing else (no cookies: the site's sign-in cookies never reach /mcp).
 *   The function reads the token from that header only.
 * - The AI tools' sign-in (/oauth, /oauth/* and its RFC 8414 metadata) runs in the same function
 *   (mcp/oauth/lambdaSignIn.ts). Its behaviors have a policy of their own that forwards every
 *   cookie and query string: the consent API learns the reader from the site's sign-in cookies,
 *   and the library keeps each sign-in in its own cookies, which come back as Set-Cookie. Its
 *   grants, codes, tokens and clients live in a DynamoDB table, its keys derive from a Secrets
 *   Manager secret (docs/deploy.md, "The AI tools' sign-in on AWS").
 * - Lambda does not accept unsigned payloads: a POST reaches a function URL behind OAC only with
 *   the SHA-256 of its body in x-amz-content-sha256, which the MCP clients do not send. A
 *   Lambda@Edge function at origin request, with the body included, sets it (CloudFront signs
 *   after that trigger, so the signature covers it). A body Lambda@Edge sees truncated (over
 *   1 MB; the server refuses anything over 64 KB) is refused with 413 there.
 *
 * The other designs, and why not: a function URL with auth NONE and a secret header from
 * CloudFront leaves the function invocable by anyone who finds its URL (each request is an
 * invocation, refused or not) and puts a long-lived secret in the template; API Gateway has no
 * equivalent of OAC either (a REST API behind CloudFront also needs a shared secret or a WAF rule
 * on a header) and adds its own 29 s timeout and per-request cost. OAC costs a CloudFront Function
 * and a small Lambda@Edge function on /mcp only.
 *
 * These behaviors do not run the viewer-request authorizer: the function verifies the reader's
 * bearer token itself, as the authorizer verifies the cookie (the same verifier and rules, baked in
 * from the same build), and the paths serve nothing from the bucket.
 *
 * The function keeps the objects it read, and its search sessions, per warm instance, for as long
 * as the bucket holds the same deploy: a deploy of pages alone leaves the function as it is, so
 * each request asks, at most every 5 s, for the deploy's seal (mcp/deployedSite.ts), which the
 * role's GetObject on every object covers; a new one starts the instance's files afresh.
 */
export interface DocsMcpOriginProps {
  /** Folder with the bundled server (index.js exporting `handler`; npm run build:prod makes it). */
  readonly codeDir: string;
  /** The site's bucket, which the server reads (GetObject, and ListBucket so a missing key is a 404). */
  readonly bucket: s3.IBucket;
  /** The site's canonical origin (`https://docs.example.com`) when it has a custom domain. */
  readonly siteUrl?: string;
}

/**
 * The CloudFront Function at viewer request on the AI tools' server's paths (cloudfront-js-2.0):
 * the reader's Authorization and Host move to the headers the function reads; anything a viewer
 * sent under those names is dropped first.
 */
export const MCP_VIEWER_REQUEST_CODE = `function handler(event) {
  var request = event.request;
  var headers = request.headers;
  delete headers['${FORWARDED_AUTHORIZATION}'];
  delete headers['${FORWARDED_HOST}'];
  if (headers.authorization) {
    headers['${FORWARDED_AUTHORIZATION}'] = { value: headers.authorization.value };
    delete headers.authorization;
  }
  if (headers.host) headers['${FORWARDED_HOST}'] = { value: headers.host.value };
  return request;
}
`;

/**
 * The Lambda@Edge function at origin request on MCP_PATH (Node.js, inline): the SHA-256 of the body
 * in x-amz-content-sha256, which Lambda requires of a signed POST, PUT, PATCH or DELETE.
 */
export const MCP_BODY_HASH_CODE = `'use strict';
const crypto = require('crypto');
exports.handler = async (event) => {
  const request = event.Records[0].cf.request;
  const body = request.body;
  if (body && body.inputTruncated) {
    return {
      status: '413',
      statusDescription: 'Payload Too Large',
      headers: {
        'content-type': [{ key: 'Content-Type', value: 'text/plain; charset=utf-8' }],
        'cache-control': [{ key: 'Cache-Control', value: 'no-store' }],
      },
      body: 'Payload Too Large',
    };
  }
  const bytes = body && body.data ? Buffer.from(body.data, body.encoding === 'base64' ? 'base64' : 'utf8') : Buffer.alloc(0);
  request.headers['x-amz-content-sha256'] = [{ key: 'x-amz-content-sha256', value: crypto.createHash('sha256').update(bytes).digest('hex') }];
  return request;
};
`;

/**
 * The headers the function needs (CloudFront forwards no other; at most 10 in one policy): the MCP
 * transport's, which a 2026-07-28 request must carry (Mcp-Method, Mcp-Name); Origin, which the
 * server refuses another site's page by; and the two the viewer-request function sets. None of a
 * session's: the server is stateless, and answers GET (a stream to resume) with 405.
 */
export const MCP_FORWARDED_HEADERS = ['accept', 'content-type', 'mcp-protocol-version', 'mcp-method', 'mcp-name', 'origin', FORWARDED_AUTHORIZATION, FORWARDED_HOST];

/**
 * The headers the AI tools' sign-in needs (/oauth): the two the viewer-request function sets, the
 * body's type, the consent page's header, and what a browser-based client's CORS requests carry.
 * Its cookies (the site's sign-in, and the library's interaction and session cookies) and query
 * strings are forwarded whole by the sign-in's own policy.
 */
export const SIGN_IN_FORWARDED_HEADERS = ['accept', 'content-type', 'origin', 'access-control-request-method', 'access-control-request-headers', CONSENT_HEADER, FORWARDED_AUTHORIZATION, FORWARDED_HOST];

/** The sign-in's paths: its RFC 8414 metadata, the issuer itself, and everything under it. */
export const SIGN_IN_PATHS = { metadata: AUTHORIZATION_SERVER_METADATA_PATH, issuer: ISSUER_PATH, below: `${ISSUER_PATH}/*` } as const;

/** What the function does with the sign-in table: by key, and Query on its indexes (mcp/oauth/store/dynamoAdapter.ts). */
export const SIGN_IN_TABLE_ACTIONS = ['dynamodb:GetItem', 'dynamodb:PutItem', 'dynamodb:UpdateItem', 'dynamodb:DeleteItem', 'dynamodb:BatchWriteItem'];

/** The AI tools' server and what puts it behind the distribution: its function, its URL, its sign-in's table and keys, and the behaviors for its paths. */
export class DocsMcpOrigin extends Construct {
  public readonly server: lambda.Function;
  public readonly url: lambda.FunctionUrl;
  public readonly viewerRequest: cloudfront.Function;
  public readonly bodyHash: cloudfront.experimental.EdgeFunction;
  /** The sign-in's grants, codes, tokens and clients (mcp/oauth/store/tableSchema.ts). */
  public readonly signInTable: dynamodb.Table;
  /** The random strings the sign-in's keys derive from (mcp/oauth/keysSecret.ts). */
  public readonly signInKeys: secretsmanager.Secret;
  private readonly origin: cloudfront.IOrigin;
  private readonly requestPolicy: cloudfront.OriginRequestPolicy;
  private readonly signInRequestPolicy: cloudfront.OriginRequestPolicy;

  constructor(scope: Construct, id: string, props: DocsMcpOriginProps) {
    super(scope, id);
    const stack = cdk.Stack.of(this);
    const userPool = readBuiltFor(props.codeDir);
    if (!userPool) throw new MissingBuildOutputError(`Cannot synthesize the docs infrastructure:\n- The AI tools' server in ${props.codeDir} names no user pool; rebuild it with \`npm run build:prod\`.`);

    // The sign-in's table: every oidc-provider model in one table, items dying by their TTL. Kept on
    // stack deletion (it holds the readers' connections), restorable to any second of the last 35 days.
    this.signInTable = new dynamodb.Table(this, 'SignInTable', {
      partitionKey: { name: OAUTH_TABLE_SCHEMA.partitionKey, type: dynamodb.AttributeType.STRING },
      billingMode: dynamodb.BillingMode.PAY_PER_REQUEST,
      timeToLiveAttribute: OAUTH_TABLE_SCHEMA.ttlAttribute,
      encryption: dynamodb.TableEncryption.AWS_MANAGED,
      pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true },
      deletionProtection: true,
      removalPolicy: cdk.RemovalPolicy.RETAIN,
    });
    for (const index of Object.values(OAUTH_TABLE_SCHEMA.indexes)) {
      this.signInTable.addGlobalSecondaryIndex({ indexName: index.indexName, partitionKey: { name: index.partitionKey, type: dynamodb.AttributeType.STRING }, projectionType: dynamodb.ProjectionType.ALL });
    }

    // Generated by Secrets Manager when the stack creates it: no key is in the repository, the
    // bundle or the template. docs/deploy.md says how to rotate it.
    this.signInKeys = new secretsmanager.Secret(this, 'SignInKeys', {
      description: "Docs site AI tools' sign-in: the random strings its cookie and signing keys derive from (mcp/oauth/keysSecret.ts)",
      generateSecretString: { secretStringTemplate: JSON.stringify({}), generateStringKey: 'current', passwordLength: 64, excludePunctuation: true },
    });
    cdk.Validations.of(this.signInKeys).acknowledge({
      id: 'AwsSolutions-SMG4',
      reason:
        "Rotated by hand, as docs/deploy.md describes, not on a schedule: a rotation moves the current string to \"previous\" " +
        'so cookies signed before it still verify, and new instances must take it before the previous one is dropped; ' +
        'the keys sign only short-lived sign-in cookies (10 minutes), and access and refresh tokens are opaque ' +
        'records in the table, which a key rotation neither needs nor affects.',
    });

    this.server = new lambda.Function(this, 'Server', {
      description: "Docs site AI tools' server (MCP at /mcp) and their sign-in (/oauth), behind CloudFront only",
      runtime: lambda.Runtime.NODEJS_24_X,
      architecture: lambda.Architecture.ARM_64,
      handler: 'index.handler',
      code: lambda.Code.fromAsset(props.codeDir),
      // Search runs Pagefind's WebAssembly in the function; CPU grows with memory, and the first
      // search of a warm instance loads an index.
      memorySize: 1024,
      timeout: cdk.Duration.seconds(20),
      environment: {
        DOCS_SITE_BUCKET: props.bucket.bucketName,
        ...(props.siteUrl ? { DOCS_SITE_URL: props.siteUrl } : {}),
        [OAUTH_TABLE_ENV]: this.signInTable.tableName,
        [OAUTH_KEYS_SECRET_ENV]: this.signInKeys.secretArn,
      },
      // The AWS Parameters and Secrets Lambda Extension: the function reads the keys secret with
      // an HTTP call on localhost, so its bundle needs no Secrets Manager client.
      paramsAndSecrets: lambda.ParamsAndSecretsLayerVersion.fromVersion(lambda.ParamsAndSecretsVersions.V1_0_103),
    });
    // The sign-in's table by key, and Query on its four indexes by name: nothing else, on nothing else.
    this.server.addToRolePolicy(new iam.PolicyStatement({ actions: SIGN_IN_TABLE_ACTIONS, resources: [this.signInTable.tableArn] }));
    this.server.addToRolePolicy(
      new iam.PolicyStatement({
        actions: ['dynamodb:Query'],
        resources: Object.values(OAUTH_TABLE_SCHEMA.indexes).map((index) => `${this.signInTable.tableArn}/index/${index.indexName}`),
      }),
    );
    this.signInKeys.grantRead(this.server);
    // At consent and every refresh of a tool's token the sign-in asks the user pool about the reader
    // (mcp/oauth/readerCheck.ts): AdminGetUser for the user's status; the session kept with the grant
    // is renewed with InitiateAuth on the site's public web client, which needs no IAM, and the
    // groups come from the ID token that renewal returns.
    this.server.addToRolePolicy(
      new iam.PolicyStatement({
        actions: ['cognito-idp:AdminGetUser'],
        resources: [`arn:${stack.partition}:cognito-idp:${userPool.region}:${stack.account}:userpool/${userPool.userPoolId}`],
      }),
    );
    // Read only, and only objects: GetObject on the site's keys, and ListBucket so that S3 answers a
    // missing key with 404 (NoSuchKey), not 403, and a real denial stays an error. grantRead would
    // add GetObject*, GetBucket* and List* (ACLs, tags, versions, bucket policy), which the server never reads.
    this.server.addToRolePolicy(new iam.PolicyStatement({ actions: ['s3:GetObject'], resources: [props.bucket.arnForObjects('*')] }));
    this.server.addToRolePolicy(new iam.PolicyStatement({ actions: ['s3:ListBucket'], resources: [props.bucket.bucketArn] }));
    const validations = cdk.Validations.of(this.server);
    validations.acknowledge({
      id: 'AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AWSLambdaBasicExecutionRole]',
      reason:
        "The AI tools' server's role has the AWS managed basic execution policy (CloudWatch Logs CreateLogGroup, " +
        'CreateLogStream and PutLogEvents, where the access log goes) and, beside it, s3:GetObject on the site ' +
        "bucket's objects and s3:ListBucket on that bucket only, its sign-in table's item actions and Query on its " +
        'named indexes, GetSecretValue on its keys secret, and AdminGetUser on the one user pool.',
    });
    validations.acknowledge({
      id: `AwsSolutions-IAM5[Resource::<${stack.getLogicalId(props.bucket.node.defaultChild as cdk.CfnElement)}.Arn>/*]`,
      reason:
        "The AI tools' server reads the site's files by key (page catalogs, Markdown, search indexes), each decided " +
        'by the access rules first: s3:GetObject on every object of the site bucket, and no other action, on no ' +
        'other bucket. The keys change with every build, so no narrower resource can be named.',
    });

    this.url = this.server.addFunctionUrl({ authType: lambda.FunctionUrlAuthType.AWS_IAM, invokeMode: lambda.InvokeMode.BUFFERED });
    // OAC: CloudFront signs every origin request, and only this distribution may invoke the URL.
    this.origin = origins.FunctionUrlOrigin.withOriginAccessControl(this.url, { readTimeout: cdk.Duration.seconds(30) });

    this.viewerRequest = new cloudfront.Function(this, 'ViewerRequest', {
      comment: "Docs AI tools' server: the reader's Authorization and Host to the headers the function reads",
      runtime: cloudfront.FunctionRuntime.JS_2_0,
      code: cloudfront.FunctionCode.fromInline(MCP_VIEWER_REQUEST_CODE),
    });

    this.bodyHash = new cloudfront.experimental.EdgeFunction(this, 'BodyHash', {
      description: "Docs AI tools' server: x-amz-content-sha256 of the body, for the function URL behind OAC",
      runtime: lambda.Runtime.NODEJS_24_X,
      handler: 'index.handler',
      code: lambda.Code.fromInline(MCP_BODY_HASH_CODE),
      memorySize: 128,
      timeout: cdk.Duration.seconds(5),
    });
    cdk.Validations.of(this.bodyHash).acknowledge({
      id: 'AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AWSLambdaBasicExecutionRole]',
      reason:
        "The body-hash function's role has only the AWS managed basic execution policy: CloudWatch Logs " +
        'CreateLogGroup, CreateLogStream and PutLogEvents, nothing else. Lambda@Edge writes its logs in the region ' +
        'of each edge location that runs it, so a policy scoped to named log groups would have to list every ' +
        'region anyway; the function reads nothing and calls no AWS API.',
    });

    this.requestPolicy = new cloudfront.OriginRequestPolicy(this, 'RequestPolicy', {
      comment: "Docs AI tools' server: the MCP headers and the reader's token, no cookies",
      headerBehavior: cloudfront.OriginRequestHeaderBehavior.allowList(...MCP_FORWARDED_HEADERS),
      cookieBehavior: cloudfront.OriginRequestCookieBehavior.none(),
      queryStringBehavior: cloudfront.OriginRequestQueryStringBehavior.none(),
    });
    // The sign-in reads the reader from the site's sign-in cookies and keeps its interaction in its
    // own cookies, and its endpoints take query strings (the authorization request).
    this.signInRequestPolicy = new cloudfront.OriginRequestPolicy(this, 'SignInRequestPolicy', {
      comment: "Docs AI tools' sign-in: every cookie and query string, the moved headers, CORS and the consent header",
      headerBehavior: cloudfront.OriginRequestHeaderBehavior.allowList(...SIGN_IN_FORWARDED_HEADERS),
      cookieBehavior: cloudfront.OriginRequestCookieBehavior.all(),
      queryStringBehavior: cloudfront.OriginRequestQueryStringBehavior.all(),
    });
  }

  /** The distribution's behaviors for MCP_PATH, RESOURCE_METADATA_PATH and the sign-in's paths: never cached, no authorizer. */
  public behaviors(responseHeadersPolicy: cloudfront.IResponseHeadersPolicy): Record<string, cloudfront.BehaviorOptions> {
    const common = {
      origin: this.origin,
      viewerProtocolPolicy: cloudfront.ViewerProtocolPolicy.HTTPS_ONLY,
      cachePolicy: cloudfront.CachePolicy.CACHING_DISABLED,
      originRequestPolicy: this.requestPolicy,
      responseHeadersPolicy,
      compress: false,
      functionAssociations: [{ function: this.viewerRequest, eventType: cloudfront.FunctionEventType.VIEWER_REQUEST }],
    };
    const hashBody = [{ functionVersion: this.bodyHash.currentVersion, eventType: cloudfront.LambdaEdgeEventType.ORIGIN_REQUEST, includeBody: true }];
    const signIn = { originRequestPolicy: this.signInRequestPolicy };
    return {
      [MCP_PATH]: { ...common, allowedMethods: cloudfront.AllowedMethods.ALLOW_ALL, edgeLambdas: hashBody },
      // GET only (OPTIONS for a browser client's preflight): no body, so nothing to hash.
      [RESOURCE_METADATA_PATH]: { ...common, allowedMethods: cloudfront.AllowedMethods.ALLOW_GET_HEAD_OPTIONS },
      // The sign-in: its cookies and query strings forwarded (and its Set-Cookie back), bodies hashed as /mcp's are.
      [SIGN_IN_PATHS.below]: { ...common, ...signIn, allowedMethods: cloudfront.AllowedMethods.ALLOW_ALL, edgeLambdas: hashBody },
      [SIGN_IN_PATHS.issuer]: { ...common, ...signIn, allowedMethods: cloudfront.AllowedMethods.ALLOW_ALL, edgeLambdas: hashBody },
      [SIGN_IN_PATHS.metadata]: { ...common, ...signIn, allowedMethods: cloudfront.AllowedMethods.ALLOW_GET_HEAD_OPTIONS },
    };
  }
}
