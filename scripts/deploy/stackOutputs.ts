/**
 * The bucket and distribution of the deployed stack (infra/lib/site-stack.ts's BucketName and
 * DistributionId outputs), for a deploy run without --bucket, and what the stack says of the
 * authorizer it deploys: its rules (AuthorizerRules) and whether it has settled.
 */
import { SITE_STACK_NAME, SITE_STACK_OUTPUTS, SITE_STACK_REGION } from '../../infra/lib/stack-outputs'
import { RulesChangedError } from './rulesRecord'

interface CloudFormationLike {
  describeStacks(input: { StackName: string }): Promise<{ Stacks?: Array<{ StackStatus?: string; Outputs?: Array<{ OutputKey?: string; OutputValue?: string }> }> }>
}

export class StackOutputsError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'StackOutputsError'
  }
}

export interface SiteTargets {
  bucket: string
  distribution: string | null
  /** The stack's authorizer: its rules fingerprint (null from a stack deployed before the output) and the stack's status. */
  authorizer?: { rules: string | null; status: string | null }
}

/** Reads the outputs through `client` (CloudFormation's DescribeStacks). */
export async function siteTargetsOf(client: CloudFormationLike, stackName = SITE_STACK_NAME): Promise<SiteTargets> {
  const stack = (await client.describeStacks({ StackName: stackName })).Stacks?.[0]
  const output = (key: string) => stack?.Outputs?.find((entry) => entry.OutputKey === key)?.OutputValue ?? null
  const bucket = output(SITE_STACK_OUTPUTS.bucketName)
  if (!bucket) throw new StackOutputsError(`${stackName} has no ${SITE_STACK_OUTPUTS.bucketName} output: deploy the stack first (cdk deploy ${stackName}), or pass --bucket <name>`)
  return { bucket, distribution: output(SITE_STACK_OUTPUTS.distributionId), authorizer: { rules: output(SITE_STACK_OUTPUTS.authorizerRules), status: stack?.StackStatus ?? null } }
}

/**
 * Throws unless the stack's authorizer decides with `rules`, the rules out/ was built under, and the
 * stack has settled (created or updated, not rolled back, nothing under way): files of new rules
 * uploaded in front of the old authorizer (cdk deploy skipped, failed or rolled back after the
 * withdraw) could reach readers neither set of rules admits.
 */
export function assertAuthorizerOf(targets: SiteTargets, rules: string, stackName = SITE_STACK_NAME): void {
  if (!targets.authorizer) return
  const { rules: deployed, status } = targets.authorizer
  if (status !== 'CREATE_COMPLETE' && status !== 'UPDATE_COMPLETE') {
    throw new StackOutputsError(`${stackName} is ${status ?? 'in no known state'}, so the authorizer at the edge may not be this build's: let cdk deploy ${stackName} finish (or fix what rolled it back and run it again), then npm run deploy`)
  }
  if (deployed === null) throw new StackOutputsError(`${stackName} has no ${SITE_STACK_OUTPUTS.authorizerRules} output (deployed before it): run cdk deploy ${stackName} once with this checkout, then npm run deploy`)
  if (deployed !== rules) throw new RulesChangedError(`the authorizer ${stackName} deploys decides with other rules (${deployed.slice(0, 12)}…) than out/ was built under (${rules.slice(0, 12)}…)`)
}

/** The stack's outputs, credentials from the usual environment. */
export async function deployedSiteTargets(): Promise<SiteTargets> {
  const { CloudFormation } = await import('@aws-sdk/client-cloudformation')
  return siteTargetsOf(new CloudFormation({ region: SITE_STACK_REGION }))
}

/** Whether a DescribeStacks error says the stack does not exist (CloudFormation answers ValidationError). */
export const isNoSuchStack = (error: unknown) => error instanceof Error && /does not exist/.test(error.message)
