import * as cdk from 'aws-cdk-lib';
import * as s3 from 'aws-cdk-lib/aws-s3';
import { Construct } from 'constructs';

/** How long access logs are kept. They hold viewers' IP addresses, so not for ever. */
export const ACCESS_LOG_RETENTION = cdk.Duration.days(90);

/** Where each log goes in the log bucket. */
export const ACCESS_LOG_PREFIXES = {
  /** CloudFront standard logs: every viewer request, with the authorizer's answer. */
  cloudFront: 'cloudfront/',
  /** S3 server access logs of the site bucket: CloudFront's reads and the deploy's writes. */
  siteBucket: 's3/site-bucket/',
} as const;

/**
 * The bucket that receives the distribution's and the site bucket's access logs, and nothing else.
 *
 * - CloudFront standard logging writes through an ACL grant to its log-delivery account, so the
 *   bucket keeps ACLs on (object ownership BucketOwnerPreferred: the bucket owner owns what
 *   CloudFront writes); S3 server access logging writes through the bucket policy CDK adds
 *   (`@aws-cdk/aws-s3:serverAccessLogsUseBucketPolicy`).
 * - SSE-S3 encryption: CloudFront standard logging cannot write to an SSE-KMS bucket.
 * - Block Public Access on, TLS-only bucket policy, logs expire after ACCESS_LOG_RETENTION.
 * - Cookies are never logged (the distribution's logIncludesCookies is false): they hold the
 *   readers' Cognito tokens.
 */
export class AccessLogBucket extends Construct {
  public readonly bucket: s3.Bucket;

  constructor(scope: Construct, id: string) {
    super(scope, id);

    this.bucket = new s3.Bucket(this, 'Bucket', {
      blockPublicAccess: s3.BlockPublicAccess.BLOCK_ALL,
      objectOwnership: s3.ObjectOwnership.BUCKET_OWNER_PREFERRED,
      encryption: s3.BucketEncryption.S3_MANAGED,
      enforceSSL: true,
      lifecycleRules: [
        {
          id: 'expire-access-logs',
          expiration: ACCESS_LOG_RETENTION,
          abortIncompleteMultipartUploadAfter: cdk.Duration.days(1),
        },
      ],
      // Logs outlive a deleted stack, for whoever investigates what happened before.
      removalPolicy: cdk.RemovalPolicy.RETAIN,
    });

    cdk.Validations.of(this.bucket).acknowledge({
      id: 'AwsSolutions-S1',
      reason:
        'This bucket is the access-log destination of the site bucket and the distribution; logging its own ' +
        'access would need another log bucket (or log into itself, which S3 advises against). Only the log ' +
        'delivery services write to it and its policy denies non-TLS requests.',
    });
  }
}
