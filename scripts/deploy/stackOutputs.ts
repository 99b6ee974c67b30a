/**
 * The bucket and distribution of the deployed stack (infra/lib/site-stack.ts's BucketName and
 * DistributionId outputs), for a deploy run without --bucket.
 */
import { SITE_STACK_NAME, SITE_STACK_OUTPUTS, SITE_STACK_REGION } from '../../infra/lib/stack-outputs'

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
export async function siteTargetsOf(client: CloudFormationLike, stackName = SITE_STACK_NAME): Promise<{ bucket: string; distribution: string | null }> {
  const stack = (await client.describeStacks({ StackName: stackName })).Stacks?.[0]
  const output = (key: string) => stack?.Outputs?.find((entry) => entry.OutputKey === key)?.OutputValue ?? null
  const bucket = output(SITE_STACK_OUTPUTS.bucketName)
  if (!bucket) throw new StackOutputsError(`${stackName} has no ${SITE_STACK_OUTPUTS.bucketName} output: deploy the stack first (cdk deploy ${stackName}), or pass --bucket <name>`)
  return { bucket, distribution: output(SITE_STACK_OUTPUTS.distributionId) }
}

/** The stack's outputs, credentials from the usual environment. */
export async function deployedSiteTargets(): Promise<{ bucket: string; distribution: string | null }> {
  const { CloudFormation } = await import('@aws-sdk/client-cloudformation')
  return siteTargetsOf(new CloudFormation({ region: SITE_STACK_REGION }))
}

/** Whether a DescribeStacks error says the stack does not exist (CloudFormation answers ValidationError). */
export const isNoSuchStack = (error: unknown) => error instanceof Error && /does not exist/.test(error.message)
