/**
 * The site's files in its S3 bucket, for the AI tools' server on AWS (mcp/lambda.ts): the objects
 * the site build uploaded, each under its `/`-rooted key without the leading slash.
 *
 * The client is the AWS SDK for JavaScript v3 that the Lambda Node.js runtime ships, so the bundle
 * leaves @aws-sdk/client-s3 external (pipeline/steps/buildMcp.ts) and stays small; the project pins
 * the same major version for its own tools, and this file types the little of it that it uses.
 */
import { DEPLOY_SEAL_KEY } from '../infra/lib/stack-outputs'
import type { DeployedFiles } from './deployedSite'

/** The part of @aws-sdk/client-s3 used here. */
export interface S3Sdk {
  S3Client: new (config: Record<string, unknown>) => { send(command: unknown): Promise<{ Body?: { transformToByteArray(): Promise<Uint8Array> }; ETag?: string }> }
  GetObjectCommand: new (input: { Bucket: string; Key: string }) => unknown
  HeadObjectCommand: new (input: { Bucket: string; Key: string }) => unknown
}

/** The SDK in the Lambda runtime (required only when first used, so tests and local runs never need it). */
export function runtimeS3Sdk(): S3Sdk {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return require('@aws-sdk/client-s3') as S3Sdk
}

/**
 * Thrown when the bucket answers a read with anything but the object or "no such key" (denied,
 * throttled, unreachable): a broken deploy or a failing service, never "there is no such page".
 */
export class SiteBucketError extends Error {
  constructor(key: string, cause: unknown) {
    super(`reading ${key} from the site bucket failed: ${cause instanceof Error ? `${cause.name}: ${cause.message}` : String(cause)}`)
    this.name = 'SiteBucketError'
  }
}

const isMissing = (error: unknown) => error instanceof Error && (error.name === 'NoSuchKey' || error.name === 'NotFound')

/**
 * The objects of `bucket`. A missing key reads as null: the function may list the bucket, so S3
 * answers a missing key with NoSuchKey rather than AccessDenied, and a denial stays an error. The
 * deploy is the seal's ETag (null while there is none: a deploy under way, or none yet).
 */
export function s3SiteFiles(bucket: string, sdk: S3Sdk = runtimeS3Sdk()): DeployedFiles {
  const client = new sdk.S3Client({})
  return {
    async deploy() {
      try {
        return (await client.send(new sdk.HeadObjectCommand({ Bucket: bucket, Key: DEPLOY_SEAL_KEY }))).ETag ?? null
      } catch (error) {
        if (isMissing(error)) return null
        throw new SiteBucketError(DEPLOY_SEAL_KEY, error)
      }
    },
    async read(key) {
      const objectKey = key.replace(/^\/+/, '')
      try {
        const { Body } = await client.send(new sdk.GetObjectCommand({ Bucket: bucket, Key: objectKey }))
        return Body ? Buffer.from(await Body.transformToByteArray()) : Buffer.alloc(0)
      } catch (error) {
        if (isMissing(error)) return null
        throw new SiteBucketError(key, error)
      }
    },
  }
}
