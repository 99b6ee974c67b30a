/**
 * The bucket and distribution of the deployed stack (infra/lib/site-stack.ts's BucketName and
 * DistributionId outputs), for a deploy run without --bucket.
 */
import { importOptional, MissingPackageError } from './cloudFrontInvalidation'

export const STACK_NAME = 'DocsSiteStack'
const CLOUDFORMATION_PACKAGE = '@aws-sdk/client-cloudformation'

interface CloudFormationLike {
  describeStacks(input: { StackName: string }): Promise<{ Stacks?: Array<{ Outputs?: Array<{ OutputKey?: string; OutputValue?: string }> }> }>
}

export class StackOutputsError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'StackOutputsError'
  }
}

/** Reads the outputs through `client` (CloudFormation's DescribeStacks). */
export async function siteTargetsOf(client: CloudFormationLike, stackName = STACK_NAME): Promise<{ bucket: string; distribution: string | null }> {
  const stack = (await client.describeStacks({ StackName: stackName })).Stacks?.[0]
  const output = (key: string) => stack?.Outputs?.find((entry) => entry.OutputKey === key)?.OutputValue ?? null
  const bucket = output('BucketName')
  if (!bucket) throw new StackOutputsError(`${stackName} has no BucketName output: deploy the stack first (cdk deploy ${stackName}), or pass --bucket <name>`)
  return { bucket, distribution: output('DistributionId') }
}

/** The stack's outputs from the usual environment, or a clear error when CloudFormation's client is not installed. */
export async function deployedSiteTargets(): Promise<{ bucket: string; distribution: string | null }> {
  const loaded = await importOptional<{ CloudFormation: new (config: object) => CloudFormationLike }>(CLOUDFORMATION_PACKAGE)
  if (!loaded) throw new MissingPackageError(CLOUDFORMATION_PACKAGE, `reading ${STACK_NAME}'s outputs (a deploy without --bucket)`, 'pass --bucket <name> and, to invalidate the CDN, --distribution <id> (cdk deploy prints both)')
  // The site stack lives in us-east-1, as Lambda@Edge requires (infra/bin).
  return siteTargetsOf(new loaded.CloudFormation({ region: 'us-east-1' }))
}
