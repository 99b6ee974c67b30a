import * as cdk from 'aws-cdk-lib';
import * as acm from 'aws-cdk-lib/aws-certificatemanager';
import * as cloudfront from 'aws-cdk-lib/aws-cloudfront';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as origins from 'aws-cdk-lib/aws-cloudfront-origins';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import * as s3 from 'aws-cdk-lib/aws-s3';
import { Construct } from 'constructs';
import { AUTH_REGION, readScriptHashes } from './config';
import { ACCESS_LOG_PREFIXES, AccessLogBucket } from './access-logs';
import { DocsWebAcl } from './web-acl';
import { DocsMcpOrigin } from './mcp-origin';
import { CROSS_ORIGIN_RESOURCE_POLICY, contentSecurityPolicy as edgeContentSecurityPolicy, cognitoOriginFor } from '../../edge/securityHeaders';
import { DEPLOY_RECORD_PREFIX, SITE_STACK_OUTPUTS } from './stack-outputs';
import { readRulesFingerprint } from '../../edge/rulesFingerprint';

/**
 * CloudFront keeps no file behind the authorizer: no shared cache may hold a protected file. Every
 * object is `private` (edge/cacheHeaders.ts), which CloudFront honours with a minimum TTL of 0, so
 * each request reads the bucket. (A minimum TTL would make it cache them regardless; the authorizer
 * runs before the cache is looked at, but a copy would then outlive a change of rules or a deleted
 * page until an invalidation reached it.)
 */
export const EDGE_CACHE_MIN_TTL = cdk.Duration.seconds(0);

export interface DocsSiteStackProps extends cdk.StackProps {
  /** Folder with the built authorizer (index.js exporting `handler`). */
  readonly edgeCodeDir: string;
  /** Folder with the built AI tools' server (index.js exporting `handler`; mcp/lambda.ts). */
  readonly mcpCodeDir: string;
  /** Optional custom domain; requires certificateArn (ACM, us-east-1). */
  readonly domainName?: string;
  readonly certificateArn?: string;
  /** Region of the Cognito user pool the browser talks to (CSP connect-src). */
  readonly authRegion?: string;
  /** The pool's hosted domain, when a federated provider signs in through it (CSP connect-src). */
  readonly hostedDomain?: string;
  /** The AWS managed common rule set in the distribution's web ACL (infra/lib/web-acl.ts); default off. */
  readonly waf?: boolean;
  /** The web ACL's rate rule on AI-tool registrations (infra/lib/web-acl.ts); default on, even with `waf` off. */
  readonly wafRegistrationLimit?: boolean;
}

/**
 * CloudFront's quota for the Content-Security-Policy value of a response-headers policy (1,783
 * characters); a longer one fails the deploy, so synth fails first and says why.
 */
export const CLOUDFRONT_MAX_CSP_LENGTH = 1783;

/**
 * The site's Content-Security-Policy: the same one the authorizer sends (edge/securityHeaders.ts),
 * with the inline-script hashes of the build (the edge bundle's script-hashes.json).
 */
export function contentSecurityPolicy(scriptHashes: readonly string[], authRegion: string = AUTH_REGION, hostedDomain?: string): string {
  const policy = edgeContentSecurityPolicy({ cognitoOrigin: cognitoOriginFor(authRegion), hostedDomain, scriptHashes });
  if (policy.length > CLOUDFRONT_MAX_CSP_LENGTH) {
    throw new Error(
      `The Content-Security-Policy is ${policy.length} characters, over CloudFront's ${CLOUDFRONT_MAX_CSP_LENGTH} for a response-headers policy: ` +
        `the pages hold ${scriptHashes.length} distinct inline scripts (pipeline/steps/inlineScriptHashes.ts); make them fewer.`,
    );
  }
  return policy;
}

/**
 * Site stack (must be us-east-1 because of Lambda@Edge): private S3 bucket,
 * CloudFront distribution with origin access control, the viewer-request
 * authorizer, security headers, and the AI tools' server at /mcp (a Lambda
 * function URL behind the same distribution, infra/lib/mcp-origin.ts). It does
 * not hold the site's files: `npm run deploy` (scripts/deploy/) uploads the
 * files of out/ that changed into the bucket it names in its outputs, since a
 * copy through CloudFormation (aws-cdk-lib's BucketDeployment) unpacks the
 * whole site in one Lambda function's /tmp and cannot hold a large site.
 */
export class DocsSiteStack extends cdk.Stack {
  public readonly bucket: s3.Bucket;
  public readonly distribution: cloudfront.Distribution;
  public readonly authorizer: cloudfront.experimental.EdgeFunction;
  /** The AI tools' server and its two behaviors (infra/lib/mcp-origin.ts). */
  public readonly mcp: DocsMcpOrigin;
  /** Receives the distribution's and the site bucket's access logs (infra/lib/access-logs.ts). */
  public readonly logBucket: s3.Bucket;
  public readonly webAcl?: DocsWebAcl;

  constructor(scope: Construct, id: string, props: DocsSiteStackProps) {
    super(scope, id, props);

    if (!cdk.Token.isUnresolved(this.region) && this.region !== 'us-east-1') {
      throw new Error(`DocsSiteStack must be deployed to us-east-1 (Lambda@Edge), got ${this.region}`);
    }

    this.logBucket = new AccessLogBucket(this, 'AccessLogs').bucket;

    // Private bucket: only CloudFront (via OAC) can read it. Serving `out/`
    // straight from a public bucket would bypass the authorizer entirely.
    this.bucket = new s3.Bucket(this, 'SiteBucket', {
      serverAccessLogsBucket: this.logBucket,
      serverAccessLogsPrefix: ACCESS_LOG_PREFIXES.siteBucket,
      blockPublicAccess: s3.BlockPublicAccess.BLOCK_ALL,
      objectOwnership: s3.ObjectOwnership.BUCKET_OWNER_ENFORCED,
      enforceSSL: true,
      encryption: s3.BucketEncryption.S3_MANAGED,
      versioned: true,
      // `npm run deploy` overwrites changed files and deletes removed ones (after its own grace
      // window, which it keeps in its manifest, not here). Keep the old versions for a while for
      // rollback, then expire them, and the delete markers they leave, so the bucket does not grow
      // forever. No rule touches a current version: a live file is never expired.
      lifecycleRules: [
        {
          id: 'expire-old-versions',
          noncurrentVersionExpiration: cdk.Duration.days(30),
          expiredObjectDeleteMarker: true,
          abortIncompleteMultipartUploadAfter: cdk.Duration.days(7),
        },
      ],
      removalPolicy: cdk.RemovalPolicy.RETAIN,
    });
    // The deploy's record of what is deployed lives in this bucket and names every section's
    // files; CloudFront (every visitor's way in) may never read it, whatever the rules say of its path.
    this.bucket.addToResourcePolicy(
      new iam.PolicyStatement({
        sid: 'DeployRecordNeverServed',
        effect: iam.Effect.DENY,
        principals: [new iam.ServicePrincipal('cloudfront.amazonaws.com')],
        actions: ['s3:GetObject'],
        resources: [this.bucket.arnForObjects(`${DEPLOY_RECORD_PREFIX}*`)],
      }),
    );

    // Viewer-request authorizer. Lambda@Edge has no environment variables, so
    // the pool id / client id / region / access rules are baked into
    // edge/dist by `npm run build:edge`. Viewer-request limits: 128 MB, 5 s.
    this.authorizer = new cloudfront.experimental.EdgeFunction(this, 'Authorizer', {
      description: 'Docs site viewer-request authorizer (Cognito ID token cookie)',
      // The newest Node.js runtime: Lambda@Edge runs the current Lambda Node.js runtimes, and an
      // older one is deprecated (no more security patches, then no more updates).
      runtime: lambda.Runtime.NODEJS_24_X,
      handler: 'index.handler',
      code: lambda.Code.fromAsset(props.edgeCodeDir),
      memorySize: 128,
      timeout: cdk.Duration.seconds(5),
    });
    cdk.Validations.of(this.authorizer).acknowledge({
      id: 'AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AWSLambdaBasicExecutionRole]',
      reason:
        'The authorizer\'s role has only the AWS managed basic execution policy: CloudWatch Logs CreateLogGroup, ' +
        'CreateLogStream and PutLogEvents, nothing else. Lambda@Edge writes its logs in the region of each edge ' +
        'location that runs it (/aws/lambda/us-east-1.<function> in every region), so a policy scoped to named ' +
        'log groups would have to list every region anyway; the function reads nothing and calls no AWS API.',
    });

    const securityHeaders = new cloudfront.ResponseHeadersPolicy(this, 'SecurityHeaders', {
      comment: 'Docs site security headers',
      securityHeadersBehavior: {
        strictTransportSecurity: {
          accessControlMaxAge: cdk.Duration.days(730),
          includeSubdomains: true,
          preload: true,
          override: true,
        },
        contentTypeOptions: { override: true },
        referrerPolicy: {
          referrerPolicy: cloudfront.HeadersReferrerPolicy.STRICT_ORIGIN_WHEN_CROSS_ORIGIN,
          override: true,
        },
        frameOptions: { frameOption: cloudfront.HeadersFrameOption.DENY, override: true },
        contentSecurityPolicy: {
          // The inline-script hashes of the build the authorizer was made from (edge/dist/script-hashes.json).
          contentSecurityPolicy: contentSecurityPolicy(readScriptHashes(props.edgeCodeDir), props.authRegion ?? AUTH_REGION, props.hostedDomain),
          override: true,
        },
      },
      // As edge/securityHeaders.ts: no page of another site (a sibling subdomain, whose requests carry the reader's cookie) may load a file of this one.
      customHeadersBehavior: {
        customHeaders: [{ header: 'Cross-Origin-Resource-Policy', value: CROSS_ORIGIN_RESOURCE_POLICY, override: true }],
      },
    });

    // Every behavior that serves the bucket must run the authorizer; keep this in
    // one place so any behavior added later gets it too. The AI tools' server's
    // behaviors (below) are the exception: they serve nothing from the bucket,
    // and the function verifies the reader's bearer token itself.
    const edgeLambdas: cloudfront.EdgeLambda[] = [
      {
        functionVersion: this.authorizer.currentVersion,
        eventType: cloudfront.LambdaEdgeEventType.VIEWER_REQUEST,
      },
    ];

    const certificate = props.certificateArn
      ? acm.Certificate.fromCertificateArn(this, 'Certificate', props.certificateArn)
      : undefined;

    // The rate rule on AI-tool registrations ships by default, in a web ACL of its own when the
    // managed rules are off (opt-in: infra/lib/web-acl.ts says why); no web ACL only when both are off.
    const webAclRules = { managedRules: props.waf ?? false, registrationLimit: props.wafRegistrationLimit ?? true };
    this.webAcl = webAclRules.managedRules || webAclRules.registrationLimit ? new DocsWebAcl(this, 'WebAcl', webAclRules) : undefined;

    this.mcp = new DocsMcpOrigin(this, 'Mcp', {
      codeDir: props.mcpCodeDir,
      bucket: this.bucket,
      siteUrl: props.domainName ? `https://${props.domainName}` : undefined,
    });

    this.distribution = new cloudfront.Distribution(this, 'Distribution', {
      comment: 'Access-controlled docs site',
      defaultRootObject: 'index.html',
      priceClass: cloudfront.PriceClass.PRICE_CLASS_100,
      httpVersion: cloudfront.HttpVersion.HTTP2_AND_3,
      domainNames: props.domainName ? [props.domainName] : undefined,
      certificate,
      // Only meaningful with a custom certificate (the *.cloudfront.net
      // default certificate has a fixed policy).
      minimumProtocolVersion: certificate ? cloudfront.SecurityPolicyProtocol.TLS_V1_2_2021 : undefined,
      // Standard logs of every viewer request (the authorizer's refusals included) to the log
      // bucket. Never the cookies: they carry the readers' Cognito tokens.
      enableLogging: true,
      logBucket: this.logBucket,
      logFilePrefix: ACCESS_LOG_PREFIXES.cloudFront,
      logIncludesCookies: false,
      webAclId: this.webAcl?.webAcl.attrArn,
      defaultBehavior: {
        // OAC (SigV4-signed origin requests). READ + LIST: with ListBucket, S3
        // answers 404 (not 403) for missing keys, so "not found" maps to
        // /404.html below while real 403s (authorizer denials) stay visible.
        origin: origins.S3BucketOrigin.withOriginAccessControl(this.bucket, {
          originAccessLevels: [cloudfront.AccessLevel.READ, cloudfront.AccessLevel.LIST],
        }),
        viewerProtocolPolicy: cloudfront.ViewerProtocolPolicy.REDIRECT_TO_HTTPS,
        allowedMethods: cloudfront.AllowedMethods.ALLOW_GET_HEAD,
        cachedMethods: cloudfront.CachedMethods.CACHE_GET_HEAD,
        compress: true,
        // Nothing is cached (EDGE_CACHE_MIN_TTL): every object is `private`. The authorizer runs at
        // VIEWER-request, on every request, before the cache would be looked at; no cookie is in the
        // key, as none needs to be when nothing is kept.
        cachePolicy: new cloudfront.CachePolicy(this, 'BehindAuthorizer', {
          comment: 'Docs site: private objects behind the viewer-request authorizer, kept by no cache',
          minTtl: EDGE_CACHE_MIN_TTL,
          defaultTtl: EDGE_CACHE_MIN_TTL,
          maxTtl: cdk.Duration.days(365),
          cookieBehavior: cloudfront.CacheCookieBehavior.none(),
          headerBehavior: cloudfront.CacheHeaderBehavior.none(),
          queryStringBehavior: cloudfront.CacheQueryStringBehavior.none(),
          enableAcceptEncodingGzip: true,
          enableAcceptEncodingBrotli: true,
        }),
        responseHeadersPolicy: securityHeaders,
        edgeLambdas,
      },
      // /mcp and its resource metadata, to the function URL (the web ACL covers them too).
      additionalBehaviors: this.mcp.behaviors(securityHeaders),
      // Deliberately NO 403 -> index.html mapping: that SPA trick would turn
      // the authorizer's denials into 200 pages. Only real misses map to 404,
      // and no edge keeps one (ttl 0): a cached miss would outlive the deploy
      // that uploads the file, and the mapping covers the AI tools' function too.
      errorResponses: [
        {
          httpStatus: 404,
          responseHttpStatus: 404,
          responsePagePath: '/404.html',
          ttl: cdk.Duration.seconds(0),
        },
      ],
    });

    // LIST is safe here: defaultRootObject rewrites "/" (the only path that
    // would map to a bucket listing), the cache policy forwards no query
    // strings (so no ?list-type=2), and the authorizer runs first anyway.
    cdk.Annotations.of(this.distribution).acknowledgeWarning(
      '@aws-cdk/aws-cloudfront-origins:listBucketSecurityRisk',
      'defaultRootObject is set and no query strings reach the origin',
    );

    cdk.Validations.of(this.distribution).acknowledge({
      id: 'AwsSolutions-CFR1',
      reason:
        'No geo restriction: the readers are staff and partners, who may sign in from any country, and every ' +
        'request must carry a valid Cognito token for a reader the access rules name (the viewer-request ' +
        'authorizer); a country block would refuse legitimate readers and protect nothing the authorizer does not.',
    });
    if (!this.webAcl) {
      cdk.Validations.of(this.distribution).acknowledge({
        id: 'AwsSolutions-CFR2',
        reason:
          'No web ACL, only when both of its rules are turned off (infra/lib/web-acl.ts): the managed rule set is ' +
          'opt-in (-c waf=on), and the rate rule on AI tool registrations, on by default, was turned off ' +
          '(-c wafRegistrationLimit=off) by an operator who accepts unbounded registrations (each a small record that ' +
          'expires within a day unless its reader allows it) to save the fee. Every request for a file passes the ' +
          'viewer-request authorizer before anything is served, and the bucket is read with GET and HEAD only, with ' +
          "no query strings, cookies or headers forwarded; the AI tools' server at /mcp verifies the reader's bearer " +
          'token on every request before it reads anything, takes bodies of 64 KB at most and is forwarded only its ' +
          'own headers.',
      });
    }
    if (!certificate) {
      cdk.Validations.of(this.distribution).acknowledge({
        id: 'AwsSolutions-CFR4',
        reason:
          'Without a custom domain the distribution serves the default *.cloudfront.net certificate, for which ' +
          'CloudFront fixes the security policy (TLSv1) and ignores MinimumProtocolVersion. Setting domainName and ' +
          'certificateArn (README "Deploy") gives an SNI certificate with TLSv1.2_2021, which this rule accepts.',
      });
    }

    new cdk.CfnOutput(this, 'DistributionDomainName', {
      value: this.distribution.distributionDomainName,
      description: 'CloudFront domain of the docs site',
    });
    // What `npm run deploy` reads when it is not told the bucket (infra/lib/stack-outputs.ts).
    new cdk.CfnOutput(this, SITE_STACK_OUTPUTS.distributionId, {
      value: this.distribution.distributionId,
      description: 'CloudFront distribution id (npm run deploy invalidates its changed paths)',
    });
    new cdk.CfnOutput(this, SITE_STACK_OUTPUTS.bucketName, {
      value: this.bucket.bucketName,
      description: 'Private S3 bucket holding the static export (npm run deploy uploads to it)',
    });
    new cdk.CfnOutput(this, SITE_STACK_OUTPUTS.authorizerRules, {
      value: readRulesFingerprint(props.edgeCodeDir),
      description: "The rules fingerprint of the authorizer this stack deploys (npm run deploy uploads only a build of these rules)",
    });
    if (props.domainName) {
      new cdk.CfnOutput(this, 'SiteUrl', { value: `https://${props.domainName}` });
    }
    new cdk.CfnOutput(this, 'AccessLogBucketName', {
      value: this.logBucket.bucketName,
      description: `Access logs: CloudFront under ${ACCESS_LOG_PREFIXES.cloudFront}, the site bucket under ${ACCESS_LOG_PREFIXES.siteBucket}`,
    });
  }
}
