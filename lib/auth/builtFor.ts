/**
 * The user pool a bundle was built for, written beside each of the authority's bundles by the build
 * (edge/dist/ and mcp/dist/, pipeline/steps/buildEdge.ts and buildMcp.ts) from the auth settings it
 * bakes in. The CDK stack grants the AI tools' server calls on that pool alone (infra/lib/mcp-origin.ts),
 * and what ships to AWS is checked against it: a bundle built for the local Cognito trusts a signing
 * key anyone can read (cognito-local's), so `cdk synth`, `npm run deploy` and `npm run deploy:access`
 * refuse one (assertBuiltForProduction).
 */
import fs from 'node:fs'
import path from 'node:path'
import type { AuthSettings } from './authSettings'

export const BUILT_FOR_FILE = 'user-pool.json'

export interface BuiltFor {
  mode: AuthSettings['mode']
  region: string
  userPoolId: string
}

export function writeBuiltFor(dir: string, auth: Pick<AuthSettings, 'mode' | 'region' | 'userPoolId'>): void {
  fs.writeFileSync(path.join(dir, BUILT_FOR_FILE), `${JSON.stringify({ mode: auth.mode, region: auth.region, userPoolId: auth.userPoolId })}\n`)
}

/** The pool named beside the bundle in `dir`, or null when the bundle has no such file (built before it existed). */
export function readBuiltFor(dir: string): BuiltFor | null {
  const file = path.join(dir, BUILT_FOR_FILE)
  if (!fs.existsSync(file)) return null
  let read: Partial<BuiltFor>
  try {
    read = JSON.parse(fs.readFileSync(file, 'utf8')) as Partial<BuiltFor>
  } catch {
    read = {}
  }
  const { mode, region, userPoolId } = read
  if ((mode !== 'local' && mode !== 'production') || typeof region !== 'string' || !/^[a-z]{2}(-[a-z]+)+-\d$/.test(region) || typeof userPoolId !== 'string' || !userPoolId.startsWith(`${region}_`)) {
    throw new BuiltForError(`${file} does not name the user pool its bundle was built for ({"mode": "production", "region": "eu-west-2", "userPoolId": "eu-west-2_AbC123"}); build again with npm run build:prod`)
  }
  return { mode, region, userPoolId }
}

export class BuiltForError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'BuiltForError'
  }
}

/**
 * The pool the bundles in `dirs` were built for, when every one was built for the same real pool;
 * else a BuiltForError that names the bundle and the fix. `purpose` says what was refused.
 */
export function assertBuiltForProduction(dirs: readonly string[], purpose: string): BuiltFor {
  const found = dirs.map((dir) => {
    const builtFor = readBuiltFor(dir)
    if (!builtFor) throw new BuiltForError(`${purpose}: ${dir} has no ${BUILT_FOR_FILE} (it was built before the build recorded its user pool); build again with npm run build:prod`)
    if (builtFor.mode !== 'production') {
      throw new BuiltForError(
        `${purpose}: ${dir} was built for the local Cognito (npm run build), whose signing key anyone can read. ` +
          'Build for the real user pool with npm run build:prod (DOCS_COGNITO_USER_POOL_ID, DOCS_COGNITO_CLIENT_ID: docs/deploy.md), then try again.'
      )
    }
    return { dir, builtFor }
  })
  const [first, ...rest] = found
  const other = rest.find(({ builtFor }) => builtFor.userPoolId !== first.builtFor.userPoolId)
  if (other) throw new BuiltForError(`${purpose}: ${first.dir} was built for the pool ${first.builtFor.userPoolId} and ${other.dir} for ${other.builtFor.userPoolId}; build both again with npm run build:prod`)
  return first.builtFor
}

/** A pool as the build's record of out/ names it (pipeline/steps/outRecord.ts): its mode and id. */
export const poolOf = (builtFor: BuiltFor) => `${builtFor.mode} ${builtFor.userPoolId}`

/**
 * Refuses an out/ whose sign-in was built for another pool than the authorizer in `edgeDir` (an
 * edge bundle built again alone, `npm run build:edge`, for production over an out/ built for the
 * local Cognito, whose pages would send readers to sign in on this machine). `outPool` is what the
 * record of out/ names (null: none).
 */
export function assertOutBuiltFor(outDir: string, outPool: string | null, edgeDir: string): void {
  const edge = readBuiltFor(edgeDir)
  if (edge === null || outPool === poolOf(edge)) return
  const fix = 'deploy the out/ and the edge/dist of one finished build (npm run build:prod writes both)'
  if (outPool === null) throw new BuiltForError(`${outDir} has no record of the user pool its sign-in was built for: ${fix}`)
  throw new BuiltForError(`${outDir} was built for the user pool "${outPool}" and the authorizer in ${edgeDir} for "${poolOf(edge)}": ${fix}`)
}
