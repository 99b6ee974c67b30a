/**
 * `npm run access:report`: who sees what, from access.config.ts, checked against a user pool.
 *
 *   npm run access:report                                   the local Cognito (npm start's, or a freshly seeded one)
 *   npm run access:report -- --pool <id> --region <region>  a real pool (AWS credentials from the environment)
 *   npm run access:report -- --no-pool                      the configuration alone
 *   npm run access:report -- --diff <git-rev>               who gains and who loses what since that revision
 *   npm run access:report -- --json                         for machines
 *
 * Exits 2 when a list names a user or group the pool lacks, or a disabled user: both are mistakes
 * an admin would want to hear of before a deploy. A pool user who can open nothing is reported only.
 * Exits 3 when the build would refuse the rules (one that matches no page, one shadowed), naming
 * each; 2 wins when both apply. 1 is a failure to run, 64 a wrong command line.
 */
import { execFileSync } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import {
  CognitoIdentityProviderClient,
  paginateListGroups,
  paginateListUsers,
  paginateListUsersInGroup,
} from '@aws-sdk/client-cognito-identity-provider'
import accessConfig from '../../access.config'
import { compileAccess, type CompiledAccess } from '../../lib/access/compileAccess'
import type { AccessConfig } from '../../lib/access/types'
import { LOCAL_COGNITO } from '../../lib/auth/authSettings'
import { startLocalCognito } from '../cognito/localCognito'
import { planAggregates } from '../../lib/access/planAggregates'
import { scanContent } from '../../pipeline/content/contentSource'
import { pageFilesProblems, ruleProblems, sectionEntryProblems, siteRoutes } from '../../pipeline/steps/checkRules'
import { checkAgainstPool, diffAccess, reportAudiences, whoSeesWhat, type AccessChange, type Audience, type FinerRule, type Pool, type PoolFindings } from './whoSeesWhat'

// The pinned SDK runs on this project's Node 20; its warning is about later SDK releases.
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true'

interface Options {
  json: boolean
  pool: { id: string; region: string; endpoint?: string } | null
  diff: string | null
}

class UsageError extends Error {}

function parseArgs(argv: string[]): Options {
  const value = (flag: string) => {
    const at = argv.indexOf(flag)
    if (at < 0) return undefined
    const next = argv[at + 1]
    if (!next || next.startsWith('--')) throw new UsageError(`${flag} needs a value`)
    return next
  }
  const known = new Set(['--json', '--no-pool', '--pool', '--region', '--endpoint', '--diff'])
  for (const arg of argv) if (arg.startsWith('--') && !known.has(arg)) throw new UsageError(`unknown option ${arg}`)
  const poolId = value('--pool')
  const region = value('--region')
  if (poolId && !region) throw new UsageError('--pool needs --region')
  const pool = argv.includes('--no-pool')
    ? null
    : poolId
      ? { id: poolId, region: region as string }
      : { id: LOCAL_COGNITO.userPoolId, region: LOCAL_COGNITO.region, endpoint: value('--endpoint') ?? LOCAL_COGNITO.endpoint }
  return { json: argv.includes('--json'), pool, diff: value('--diff') ?? null }
}

/** The pool's users, with their groups, and its groups. */
async function readPool(client: CognitoIdentityProviderClient, poolId: string): Promise<Pool> {
  const users: Pool['users'] = []
  for await (const page of paginateListUsers({ client }, { UserPoolId: poolId })) {
    for (const user of page.Users ?? []) if (user.Username) users.push({ username: user.Username, enabled: user.Enabled !== false, groups: [] })
  }
  const groups: string[] = []
  for await (const page of paginateListGroups({ client }, { UserPoolId: poolId })) {
    for (const group of page.Groups ?? []) if (group.GroupName) groups.push(group.GroupName)
  }
  const byName = new Map(users.map((user) => [user.username, user]))
  for (const group of groups) {
    for await (const page of paginateListUsersInGroup({ client }, { UserPoolId: poolId, GroupName: group })) {
      for (const member of page.Users ?? []) byName.get(member.Username ?? '')?.groups.push(group)
    }
  }
  return { users, groups }
}

async function reachable(url: string): Promise<boolean> {
  try {
    await fetch(url, { method: 'OPTIONS', signal: AbortSignal.timeout(1000) })
    return true
  } catch {
    return false
  }
}

/** Reads the pool; the local Cognito is started (seeded, in-process) when none is running. */
async function poolFor(options: NonNullable<Options['pool']>): Promise<{ pool: Pool; source: string }> {
  if (!options.endpoint) {
    const client = new CognitoIdentityProviderClient({ region: options.region })
    return { pool: await readPool(client, options.id), source: `the pool ${options.id} (${options.region})` }
  }
  const running = await reachable(options.endpoint)
  const local = running ? null : await startLocalCognito({ host: LOCAL_COGNITO.host, port: 0, quiet: true })
  const endpoint = local?.url ?? options.endpoint
  try {
    // cognito-local checks no signature; the SDK still wants credentials to sign with.
    const client = new CognitoIdentityProviderClient({ region: options.region, endpoint, credentials: { accessKeyId: 'local', secretAccessKey: 'local' } })
    const source = running ? `the local Cognito at ${endpoint}` : 'a freshly seeded local Cognito (none was running)'
    return { pool: await readPool(client, options.id), source }
  } finally {
    await local?.stop()
  }
}

/** access.config.ts as it was at a git revision, compiled. */
async function accessAtRevision(rev: string): Promise<CompiledAccess> {
  let source: string
  try {
    source = execFileSync('git', ['show', `${rev}:access.config.ts`], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] })
  } catch {
    throw new UsageError(`git has no access.config.ts at revision "${rev}"`)
  }
  // Beside the real file, so its relative imports resolve the same way.
  const file = path.resolve(`.access.config.at-${process.pid}.ts`)
  fs.writeFileSync(file, source)
  try {
    const loaded = (await import(file)) as { default: AccessConfig | { default: AccessConfig } }
    const config = 'default' in loaded.default ? loaded.default.default : loaded.default
    return compileAccess(config)
  } finally {
    fs.rmSync(file, { force: true })
  }
}

function table(rows: string[][]): string {
  const widths = rows[0].map((_, column) => Math.max(...rows.map((row) => row[column].length)))
  return rows.map((row) => row.map((cell, column) => cell.padEnd(widths[column])).join('  ').trimEnd()).join('\n')
}

/** This project's pages and public files, scanned once. */
let scanned: ReturnType<typeof scanContent> | undefined
const source = () => (scanned ??= scanContent(process.cwd()))

/** The audiences of a configuration over this project's pages, as the build would plan them. */
function audiencesOf(access: CompiledAccess): ReturnType<typeof reportAudiences> {
  return reportAudiences(access, planAggregates({ access, routes: source().pages.map((page) => page.route) }))
}

function printText(audiences: Audience[], finer: FinerRule[], matrix: ReturnType<typeof whoSeesWhat>, findings: { source: string; found: PoolFindings } | null, changes: { rev: string; list: AccessChange[] } | null) {
  const labels = audiences.map((audience) => audience.label)
  console.log('Who sees what (access.config.ts; full-access entries open everything):\n')
  console.log(table([['entry', ...labels], ...matrix.map((row) => [`${row.kind} ${row.name}`, ...labels.map((label) => (row.opens.includes(label) ? 'yes' : '-'))])]))
  if (finer.length) {
    console.log('\nRules finer than a section, and the pages each governs:')
    for (const { rule, pages } of finer) console.log(`  ${rule}: ${pages.length} page${pages.length === 1 ? '' : 's'}\n${pages.map((page) => `    ${page}`).join('\n')}`)
  }
  if (findings) {
    const { unknownEntries, usersWithNothing, disabledButListed } = findings.found
    console.log(`\nAgainst ${findings.source}:`)
    for (const entry of unknownEntries) console.log(`  ! a list names ${entry.kind} "${entry.name}", which the pool does not have (a typo?)`)
    for (const user of disabledButListed) console.log(`  ! user "${user}" is disabled but still in a list`)
    for (const user of usersWithNothing) console.log(`  - user "${user}" can open no section`)
    if (!unknownEntries.length && !disabledButListed.length && !usersWithNothing.length) console.log('  nothing to flag')
  }
  if (changes) {
    console.log(`\nChanges since ${changes.rev}:`)
    for (const change of changes.list) {
      const parts = [...(change.gains.length ? [`gains ${change.gains.join(', ')}`] : []), ...(change.loses.length ? [`loses ${change.loses.join(', ')}`] : [])]
      console.log(`  ${change.kind} ${change.name} ${parts.join('; ')}`)
    }
    if (!changes.list.length) console.log('  nobody gains or loses anything')
  }
}

async function main() {
  const options = parseArgs(process.argv.slice(2))
  const access = compileAccess(accessConfig)
  const { audiences, finer } = audiencesOf(access)
  const matrix = whoSeesWhat(access, audiences)
  const pool = options.pool ? await poolFor(options.pool) : null
  const findings = pool ? { source: pool.source, found: checkAgainstPool(access, pool.pool, audiences) } : null
  let changes: { rev: string; list: AccessChange[] } | null = null
  if (options.diff) {
    const before = await accessAtRevision(options.diff)
    // What either configuration tells apart: an audience that only one of them has is asked about too.
    const both = [...audiences, ...audiencesOf(before).audiences.filter((old) => !audiences.some((audience) => audience.label === old.label))]
    changes = { rev: options.diff, list: diffAccess(before, access, both) }
  }
  // What the build would refuse of these rules over these pages (pipeline/steps/checkRules.ts), said here before it ships.
  const routes = siteRoutes(source())
  const refused = [...sectionEntryProblems(access, routes), ...ruleProblems(access, routes), ...pageFilesProblems(access, routes)]
  if (options.json) console.log(JSON.stringify({ audiences, finer, entries: matrix, pool: findings, changes, refused }, null, 2))
  else printText(audiences, finer, matrix, findings, changes)
  if (findings && (findings.found.unknownEntries.length || findings.found.disabledButListed.length)) process.exitCode = 2
  if (refused.length) {
    console.error(`access:report: the build refuses these sections and rules of access.config.ts:\n${refused.map((problem) => `  - ${problem}`).join('\n')}`)
    // The pool's findings' 2 stands when both apply: a caller can tell them from a failure to run (1) either way.
    process.exitCode ||= 3
  }
}

main().catch((error) => {
  console.error(`access:report: ${error instanceof Error ? error.message : error}`)
  process.exit(error instanceof UsageError ? 64 : 1)
})
