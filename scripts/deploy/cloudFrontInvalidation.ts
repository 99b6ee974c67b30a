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

/** The package the deploy loads CloudFront's client from; it is not a dependency of the project yet. */
export const CLOUDFRONT_PACKAGE = '@aws-sdk/client-cloudfront'

/** CloudFront's client from the usual environment, or a clear error when its package is not installed. */
export async function loadCloudFront(): Promise<CloudFrontInvalidations> {
  const loaded = await importOptional<{ CloudFront: new (config: object) => CloudFrontInvalidations }>(CLOUDFRONT_PACKAGE)
  if (!loaded) throw new MissingPackageError(CLOUDFRONT_PACKAGE, '--distribution (the CDN invalidation)', 'leave --distribution out and invalidate by hand, or install it')
  // CloudFront's API lives in us-east-1 whatever region the rest of the account uses.
  return new loaded.CloudFront({ region: 'us-east-1' })
}

export class MissingPackageError extends Error {
  constructor(pkg: string, neededFor: string, instead: string) {
    super(`${neededFor} needs the npm package ${pkg}, which is not installed: ${instead}`)
    this.name = 'MissingPackageError'
  }
}

/** A package's module, or null when it is not installed (the name is a variable, so the type checker does not look for it). */
export async function importOptional<T>(name: string): Promise<T | null> {
  try {
    return (await import(name)) as T
  } catch (error) {
    if ((error as { code?: string }).code === 'ERR_MODULE_NOT_FOUND' || (error as { code?: string }).code === 'MODULE_NOT_FOUND') return null
    throw error
  }
}
