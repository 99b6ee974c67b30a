/**
 * Invalidates CloudFront's copies of the paths a deploy changed. The client is handed in: the
 * CloudFront class of @aws-sdk/client-cloudfront (its createInvalidation), or a fake in tests.
 */
export interface CloudFrontInvalidations {
  createInvalidation(input: {
    DistributionId: string
    InvalidationBatch: { CallerReference: string; Paths: { Quantity: number; Items: string[] } }
  }): Promise<{ Invalidation?: { Id?: string } }>
  getInvalidation?(input: { DistributionId: string; Id: string }): Promise<{ Invalidation?: { Status?: string } }>
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

export class InvalidationTimeoutError extends Error {
  constructor(id: string, seconds: number) {
    super(`CloudFront's invalidation ${id} was not done after ${seconds} s; wait for it (aws cloudfront get-invalidation) before cdk deploy`)
    this.name = 'InvalidationTimeoutError'
  }
}

/** Resolves once CloudFront reports the invalidation Completed, asking every `intervalMs`; rejects after `timeoutMs`. */
export function invalidationWaiter(client: CloudFrontInvalidations, distributionId: string, intervalMs = 10_000, timeoutMs = 30 * 60_000): (id: string) => Promise<void> {
  return async (id) => {
    if (!client.getInvalidation) throw new Error('this CloudFront client cannot read an invalidation')
    for (let waited = 0; ; waited += intervalMs) {
      const { Invalidation } = await client.getInvalidation({ DistributionId: distributionId, Id: id })
      if (Invalidation?.Status === 'Completed') return
      if (waited >= timeoutMs) throw new InvalidationTimeoutError(id, timeoutMs / 1000)
      await new Promise((resolve) => setTimeout(resolve, intervalMs))
    }
  }
}

/** CloudFront's client, credentials from the usual environment; loaded only when a deploy invalidates. */
export async function loadCloudFront(): Promise<CloudFrontInvalidations> {
  const { CloudFront } = await import('@aws-sdk/client-cloudfront')
  // CloudFront's API lives in us-east-1 whatever region the rest of the account uses.
  return new CloudFront({ region: 'us-east-1' })
}
