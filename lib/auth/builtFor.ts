/**
 * The user pool the AI tools' server asks about readers (mcp/oauth/readerCheck.ts), written beside
 * its bundle by the build (pipeline/steps/buildMcp.ts) from the same auth settings it bakes in, so
 * the CDK stack grants the function those calls on that pool alone (infra/lib/mcp-origin.ts): the
 * pool lives in another stack and region, whose ids reach the site only through the build.
 */
import fs from 'node:fs'
import path from 'node:path'

export const USER_POOL_FILE = 'user-pool.json'

export interface UserPoolRef {
  region: string
  userPoolId: string
}

export function writeUserPoolFile(dir: string, pool: UserPoolRef): void {
  fs.writeFileSync(path.join(dir, USER_POOL_FILE), `${JSON.stringify({ region: pool.region, userPoolId: pool.userPoolId })}\n`)
}

/** The pool named beside the bundle in `dir`, or null when the bundle has no such file (built before it existed). */
export function readUserPoolFile(dir: string): UserPoolRef | null {
  const file = path.join(dir, USER_POOL_FILE)
  if (!fs.existsSync(file)) return null
  const { region, userPoolId } = JSON.parse(fs.readFileSync(file, 'utf8')) as Partial<UserPoolRef>
  if (typeof region !== 'string' || !/^[a-z]{2}(-[a-z]+)+-\d$/.test(region) || typeof userPoolId !== 'string' || !userPoolId.startsWith(`${region}_`)) {
    throw new Error(`${file} does not name a user pool ({"region": "eu-west-2", "userPoolId": "eu-west-2_AbC123"}); rebuild with npm run build`)
  }
  return { region, userPoolId }
}
