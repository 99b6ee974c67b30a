/** The command line of `npm run deploy` (scripts/deploy/deploySite.ts), checked. */
import { parseArgs } from 'node:util'
import path from 'node:path'
import { sitePaths } from '../../pipeline/steps/paths'

export interface DeployArgs {
  bucket: string | null
  distribution: string | null
  endpoint: string | null
  graceHours: number
  outDir: string
  /** The edge bundle built with out/, whose rules fingerprint the deploy checks (edge/rulesFingerprint.ts). */
  edgeDir: string
  /** The first deploy of a change of rules (./withdraw.ts) instead of the upload. */
  withdraw: boolean
  /** List the whole bucket instead of trusting its record (after the bucket was changed by hand). */
  list: boolean
}

export const DEFAULT_GRACE_HOURS = 48

export class DeployArgsError extends Error {
  constructor(message: string) {
    super(`${message} (usage: npm run deploy -- [--bucket <name>] [--distribution <id>] [--endpoint <url>] [--grace-hours <n>] [--out <dir>] [--edge <dir>] [--withdraw] [--list])`)
    this.name = 'DeployArgsError'
  }
}

export function parseDeployArgs(argv: readonly string[]): DeployArgs {
  let values
  try {
    ;({ values } = parseArgs({
      args: [...argv],
      options: {
        bucket: { type: 'string' },
        distribution: { type: 'string' },
        endpoint: { type: 'string' },
        'grace-hours': { type: 'string' },
        out: { type: 'string' },
        edge: { type: 'string' },
        withdraw: { type: 'boolean' },
        list: { type: 'boolean' },
      },
      strict: true,
      allowPositionals: false,
    }))
  } catch (error) {
    throw new DeployArgsError(error instanceof Error ? error.message : String(error))
  }
  // An unset variable in a pipeline's `--distribution "$ID"` would otherwise mean no invalidation, or 0 hours of grace.
  for (const [option, value] of Object.entries(values)) {
    if (typeof value === 'string' && value.trim() === '') throw new DeployArgsError(`--${option} is empty; give it a value or leave it out`)
  }
  // What a withdraw does not do: taken without a word, they would seem to have been done.
  if (values.withdraw) for (const option of ['list', 'grace-hours'] as const) if (values[option] !== undefined) throw new DeployArgsError(`--${option} is for the upload, not --withdraw; run the withdraw without it`)
  const graceHours = values['grace-hours'] === undefined ? DEFAULT_GRACE_HOURS : Number(values['grace-hours'])
  if (!Number.isFinite(graceHours) || graceHours < 0) throw new DeployArgsError(`--grace-hours must be a number of hours, 0 or more; got "${values['grace-hours']}"`)
  if (values.endpoint !== undefined && !/^https?:\/\/[^/]+/.test(values.endpoint)) throw new DeployArgsError(`--endpoint must be an http(s) URL; got "${values.endpoint}"`)
  if (values.bucket !== undefined && !/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/.test(values.bucket)) throw new DeployArgsError(`--bucket must be an S3 bucket name; got "${values.bucket}"`)
  return {
    bucket: values.bucket ?? null,
    distribution: values.distribution ?? null,
    endpoint: values.endpoint ?? null,
    graceHours,
    outDir: path.resolve(values.out ?? sitePaths().out),
    edgeDir: path.resolve(values.edge ?? sitePaths().edgeDist),
    withdraw: values.withdraw ?? false,
    list: values.list ?? false,
  }
}
