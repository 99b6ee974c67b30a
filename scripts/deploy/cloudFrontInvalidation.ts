/**
 * Invalidates CloudFront's copies of the paths a deploy changed. The client is handed in: the
 * CloudFront class of @aws-sdk/client-cloudfront (its createInvalidation), or a fake in tests.
 */
export interface CloudFrontInvalidations {
  createInvalidation(input: {
    DistributionId: string
    InvalidationBatch: { CallerReference: string; Paths: { Quantity: number; Items: string[] } }
  }): Promise<{ Invalidation?: { Id?: string } }>
}

/** Invalidates the distribution's copies of `paths` (invalidationPaths.ts); resolves with the invalidation's id. */
export type Invalidate = (paths: readonly string[]) => Promise<string>

export function cloudFrontInvalidator(client: CloudFrontInvalidations, distributionId: string, callerReference: () => string = () => `deploy-${Date.now()}`): Invalidate {
  return async (paths) => {
    const result = await client.createInvalidation({
      DistributionId: distributionId,
      InvalidationBatch: { CallerReference: callerReference(), Paths: { Quantity: paths.length, Items: [...paths] } },
    })
    return result.Invalidation?.Id ?? '(no id)'
  }
}

/** CloudFront's client, credentials from the usual environment; loaded only when a deploy invalidates. */
export async function loadCloudFront(): Promise<CloudFrontInvalidations> {
  const { CloudFront } = await import('@aws-sdk/client-cloudfront')
  // CloudFront's API lives in us-east-1 whatever region the rest of the account uses.
  return new CloudFront({ region: 'us-east-1' })
}
