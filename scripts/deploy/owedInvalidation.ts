/**
 * The invalidation a deploy owes CloudFront (`_deploy/invalidation`): the paths whose objects it
 * changed or deleted, written before its first write and deleted once CloudFront took the
 * invalidation (and, for a withdraw, finished it). A run that stops in between (a failed
 * CloudFront call, a killed process) leaves it, and the next run with a distribution invalidates
 * those paths too. Without it, that run finds the bucket as it should be, has nothing to
 * invalidate, and CloudFront serves the old copies until they expire; after a withdraw, under the
 * new edge's rules (./withdraw.ts).
 */
import { z } from 'zod'
import { DEPLOY_RECORD_PREFIX } from '../../infra/lib/stack-outputs'
import { DeployManifestError } from './deployManifest'
import { INVALIDATE_EVERYTHING, MAX_INVALIDATION_PATHS } from './invalidationPaths'
import type { SiteBucket } from './s3Bucket'
import type { Invalidate } from './cloudFrontInvalidation'

export const OWED_KEY = `${DEPLOY_RECORD_PREFIX}invalidation`

const owedSchema = z.object({ version: z.literal(1), paths: z.array(z.string().startsWith('/')) })

/** The paths an earlier run left to invalidate; none when it finished. One that cannot be read owes everything (`/*`, one path). */
export async function readOwed(bucket: SiteBucket): Promise<string[]> {
  // Damaged, it is read as owing everything; a request that failed fails the deploy, as for any record.
  const text = await bucket.readRecord(OWED_KEY).catch((error: unknown) => {
    if (error instanceof DeployManifestError) return ''
    throw error
  })
  if (text === null) return []
  try {
    const parsed = owedSchema.safeParse(JSON.parse(text))
    if (parsed.success) return parsed.data.paths
  } catch {
    // Below.
  }
  return [...INVALIDATE_EVERYTHING]
}

/** `a` and `b` together, as one invalidation: `/*` beyond CloudFront's quota of paths. */
export function withOwed(a: readonly string[], b: readonly string[]): string[] {
  const paths = new Set([...a, ...b])
  if (paths.has(INVALIDATE_EVERYTHING[0]) || paths.size > MAX_INVALIDATION_PATHS) return [...INVALIDATE_EVERYTHING]
  return [...paths].sort()
}

/** Records `paths` as owed, before the writes that make them stale. */
export const owe = (bucket: SiteBucket, paths: readonly string[]) => bucket.writeRecord(OWED_KEY, JSON.stringify({ version: 1, paths }))

/** CloudFront took them: nothing is owed. */
export const paid = (bucket: SiteBucket) => bucket.deleteKeys([OWED_KEY])

export class InvalidationFailedError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'InvalidationFailedError'
  }
}

/**
 * Has CloudFront invalidate `paths`, owed already; a failure says what it leaves: the bucket
 * written, the paths still owed, and the command (`again`) whose next run invalidates them.
 */
export async function invalidateOwing(invalidate: Invalidate, bucket: SiteBucket, paths: readonly string[], again: string): Promise<string> {
  try {
    return await invalidate(paths)
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error)
    throw new InvalidationFailedError(`CloudFront's invalidation of ${paths.length} path${paths.length === 1 ? '' : 's'} failed (${reason}). The bucket is written; the paths stay owed (s3://${bucket.name}/${OWED_KEY}), and \`${again}\` run again invalidates them.`)
  }
}
