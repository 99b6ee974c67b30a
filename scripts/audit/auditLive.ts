/**
 * `npm run audit:live -- <site-url>`: the leak audit, pointed at a deployed site. Run it after
 * every deploy.
 *
 * - `<site-url>`: the site, e.g. https://docs.example.com.
 * - `--out <dir>` (default out/) and `--routes <file>` (default .next/asset-routes.json): the
 *   build that was deployed, so the audit knows every file and whose rule governs it.
 * - AUDIT_CREDENTIALS, from the environment only (never an argument, which other users of the
 *   machine can read): a JSON object of test users, `{"leads-test": "password", ...}`.
 * - The build's auth settings (DOCS_AUTH_MODE and DOCS_COGNITO_*): the pool the users sign in to,
 *   through Amplify's own sign-in flow (SRP against a real pool).
 *
 * It requests every file as an anonymous visitor and as each test user and reports, per role:
 * files served that the rules refuse, files refused that the rules allow, usernames, foreign
 * section routes or the distinctive titles of pages the role may not open in served files (a
 * title the role's own pages also say in their Markdown excused), protected files served
 * shared-cacheable, and protected files but the site's code that a browser may keep past a sign-out.
 * Exits 1 on any finding.
 */
import fs from 'node:fs'
import path from 'node:path'
import { sitePaths } from '../../pipeline/steps/paths'
import { Amplify } from 'aws-amplify'
import { fetchAuthSession, signIn, signOut } from 'aws-amplify/auth'
import accessConfig from '../../access.config'
import { compileAccess } from '../../lib/access/compileAccess'
import { decideAccess } from '../../lib/access/decideAccess'
import { governingRoute, type AssetRoutes } from '../../lib/access/governingRoute'
import { objectKeyFor } from '../../lib/access/objectKey'
import { READER_VIEW_PATH } from '../../lib/access/readerView'
import type { AccessUser } from '../../lib/access/types'
import { amplifyCookieHeader } from '../../lib/auth/amplifyCookies'
import { readAuthSettings, type AuthEnv, type AuthSettings } from '../../lib/auth/authSettings'
import { SECTIONS } from '../../lib/navigation/siteNavigation'
import { groupsOf } from '../../edge/tokenVerifier'
import { listFiles } from '../../pipeline/files'
import { namedEntries } from '../access/whoSeesWhat'
import { routeOfHtmlFile } from '../../lib/access/pageFiles'
import { SITE_NAME } from '../../lib/siteName'
import { markdownKeyOf, SIGN_IN_PAGE } from '../../lib/pathFormats'
import { distinctiveTitles, knownPaths, noFindings, readBody, scanServed, titlesIn, type RoleFindings } from './scan'

export class AuditInputError extends Error {}

export interface RoleResult extends RoleFindings {
  role: string
  served: number
  refused: number
  servedButRefusedByRules: string[]
  refusedButAllowedByRules: string[]
  /** Distinctive titles of pages the role may not open, in what it was served (the deployed pages hold no planted markers). */
  titlesLeaked: string[]
}

export interface LiveAuditInputs {
  siteUrl: string
  outDir: string
  assetRoutes: AssetRoutes
  auth: AuthSettings
  credentials: Record<string, string>
  /** Requests in flight at once, per role. */
  concurrency?: number
}

export function readCredentials(raw: string | undefined): Record<string, string> {
  if (!raw) throw new AuditInputError('AUDIT_CREDENTIALS is not set: a JSON object of test users, {"username": "password", ...}')
  let parsed: unknown
  try {
    parsed = JSON.parse(raw)
  } catch {
    throw new AuditInputError('AUDIT_CREDENTIALS is not JSON: use {"username": "password", ...}')
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed) || Object.values(parsed).some((value) => typeof value !== 'string')) {
    throw new AuditInputError('AUDIT_CREDENTIALS must be a JSON object of username to password strings')
  }
  return parsed as Record<string, string>
}

/** Signs a test user in with Amplify's own flow and returns the ID token. */
async function signInWithAmplify(auth: AuthSettings, username: string, password: string): Promise<string> {
  // cognito-local has no SRP; a real pool gets Amplify's default (SRP), as the sign-in page does.
  const authFlowType = auth.mode === 'local' ? 'USER_PASSWORD_AUTH' : undefined
  const result = await signIn({ username, password, options: authFlowType ? { authFlowType } : undefined })
  if (!result.isSignedIn) throw new AuditInputError(`${username} did not finish signing in (next step: ${result.nextStep.signInStep})`)
  const token = (await fetchAuthSession()).tokens?.idToken?.toString()
  if (!token) throw new AuditInputError(`${username} signed in but Amplify holds no ID token`)
  await signOut()
  return token
}

/** A page's title as its HTML's `<title>` gives it, without the site's name. */
function titleOf(html: string): string | undefined {
  const title = /<title[^>]*>([^<]*)<\/title>/.exec(html)?.[1]
  return title === undefined ? undefined : decodeEntities(title).replace(` – ${SITE_NAME}`, '').trim()
}

/**
 * A page's own words: its Markdown as the build publishes it (`<route>.md`), the writer's text
 * without the site's navigation, which is what a leaked title would be found in (none: no words).
 */
function proseOf(outDir: string, route: string): string {
  try {
    return fs.readFileSync(path.join(outDir, markdownKeyOf(route)), 'utf8')
  } catch {
    return ''
  }
}

// eslint-disable-next-line @typescript-eslint/no-require-imports
const { decodeCharacterReferences: decodeEntities } = require('../../pipeline/compile/characterReferences.cjs') as { decodeCharacterReferences: (text: string) => string }

const claimsOf = (token: string): Record<string, unknown> => JSON.parse(Buffer.from(token.split('.')[1], 'base64url').toString('utf8'))

/** A fetch's failure named with its URL and the reason Node gives (`fetch failed` alone names neither). */
function unreachable(url: string, error: unknown): AuditInputError {
  const cause = (error as { cause?: { code?: string; message?: string } }).cause
  return new AuditInputError(`${url} cannot be reached (${cause?.code ?? cause?.message ?? (error instanceof Error ? error.message : String(error))})`)
}

async function fetchFile(siteUrl: string, key: string, cookie: string | undefined) {
  const response = await fetch(siteUrl + key, { redirect: 'manual', headers: cookie ? { cookie } : {} }).catch((error: unknown) => {
    throw unreachable(siteUrl + key, error)
  })
  return { status: response.status, cacheControl: response.headers.get('cache-control'), body: readBody(Buffer.from(await response.arrayBuffer())) }
}

export async function auditLive(inputs: LiveAuditInputs): Promise<RoleResult[]> {
  const access = compileAccess(accessConfig)
  const keys = listFiles(inputs.outDir)
  const governing = (key: string) => {
    const objectKey = objectKeyFor(key)
    return objectKey === null ? null : governingRoute(objectKey, inputs.assetRoutes)
  }
  const isProtected = (key: string) => {
    const route = governing(key)
    return route === null || decideAccess(access, route, null) !== 'allow'
  }
  // Everyone a list names, and every test user: no one else may read these.
  const usernames = [...new Set([...namedEntries(access).filter((entry) => entry.kind === 'user').map((entry) => entry.name), ...Object.keys(inputs.credentials)])]

  Amplify.configure({
    Auth: {
      Cognito: {
        userPoolId: inputs.auth.userPoolId,
        userPoolClientId: inputs.auth.userPoolClientId,
        ...(inputs.auth.endpoint ? { userPoolEndpoint: inputs.auth.endpoint } : {}),
        loginWith: { username: true, email: false, phone: false },
      },
    },
  })

  const roles: Array<{ name: string; user: AccessUser; cookie?: string }> = [{ name: 'anonymous', user: null }]
  // The site first: a wrong URL is named as such, not as a sign-in's failure.
  await fetchFile(inputs.siteUrl, SIGN_IN_PAGE, undefined)
  const pool = inputs.auth.mode === 'local' ? `the local Cognito at ${inputs.auth.endpoint}` : `the user pool ${inputs.auth.userPoolId}`
  for (const [username, password] of Object.entries(inputs.credentials)) {
    const token = await signInWithAmplify(inputs.auth, username, password).catch((error: unknown) => {
      if (error instanceof AuditInputError) throw error
      const hint = inputs.auth.mode === 'local' ? '; to audit a deployed site, set DOCS_AUTH_MODE=production and its DOCS_COGNITO_* settings' : ''
      throw new AuditInputError(`signing in as ${username} at ${pool} failed: ${error instanceof Error ? error.message : String(error)}${hint}`)
    })
    const claims = claimsOf(token)
    roles.push({
      name: username,
      user: { username: String(claims['cognito:username']), groups: groupsOf(claims, access.groupsClaim) },
      cookie: amplifyCookieHeader(inputs.auth.userPoolClientId, username, token),
    })
  }

  // The site's pages, from the build's HTML files: their routes, titles and text.
  const pages = keys.flatMap((key) => {
    const route = routeOfHtmlFile(key)
    if (route === null) return []
    const html = fs.readFileSync(path.join(inputs.outDir, key), 'utf8')
    return [{ route, title: titleOf(html), text: proseOf(inputs.outDir, route) }]
  })
  const pageRoutes = pages.map((page) => page.route)
  const titles = distinctiveTitles(pages)
  const results: RoleResult[] = []
  for (const role of roles) {
    const result: RoleResult = { role: role.name, served: 0, refused: 0, servedButRefusedByRules: [], refusedButAllowedByRules: [], titlesLeaked: [], ...noFindings() }
    const mayOpen = (route: string) => decideAccess(access, route, role.user) === 'allow'
    const prose = pages.filter((page) => mayOpen(page.route)).map((page) => page.text).join('\n')
    const context = {
      role: role.user?.username ?? null,
      usernames,
      sections: SECTIONS.map((section) => section.id),
      mayKnowPath: knownPaths(pageRoutes, mayOpen),
    }
    const queue = [READER_VIEW_PATH, ...keys]
    const worker = async () => {
      for (let key = queue.shift(); key !== undefined; key = queue.shift()) {
        const served = await fetchFile(inputs.siteUrl, key, role.cookie)
        const route = key === READER_VIEW_PATH ? null : governing(key)
        const allowed = key === READER_VIEW_PATH || (route !== null && decideAccess(access, route, role.user) === 'allow')
        if (served.status === 200) result.served++
        else result.refused++
        if (served.status === 200 && !allowed) result.servedButRefusedByRules.push(key)
        if (served.status !== 200 && allowed) result.refusedButAllowedByRules.push(`${key} (${served.status})`)
        scanServed({ key, ...served, protected: key === READER_VIEW_PATH || isProtected(key) }, context, result)
        if (served.status === 200) for (const title of titlesIn(served.body, titles, { mayOpen, mayKnowPath: context.mayKnowPath, prose }).leaked) result.titlesLeaked.push(`${title} in ${key}`)
      }
    }
    await Promise.all(Array.from({ length: inputs.concurrency ?? 8 }, worker))
    results.push(result)
  }
  return results
}

export const findingsOf = (result: RoleResult) =>
  result.servedButRefusedByRules.length + result.refusedButAllowedByRules.length + result.usernamesLeaked.length + result.routesLeaked.length + result.titlesLeaked.length + result.sharedCacheable.length + result.storedByBrowser.length

function printResults(siteUrl: string, results: RoleResult[]) {
  const columns = ['role', 'served', 'refused', 'served, rules refuse', 'refused, rules allow', 'usernames', 'foreign routes', 'foreign titles', 'shared-cacheable', 'browser-stored']
  const rows = results.map((r) => [r.role, r.served, r.refused, r.servedButRefusedByRules.length, r.refusedButAllowedByRules.length, r.usernamesLeaked.length, r.routesLeaked.length, r.titlesLeaked.length, r.sharedCacheable.length, r.storedByBrowser.length].map(String))
  const widths = columns.map((column, at) => Math.max(column.length, ...rows.map((row) => row[at].length)))
  console.log(`Live audit of ${siteUrl}`)
  for (const row of [columns, ...rows]) console.log(row.map((cell, at) => (at === 0 ? cell.padEnd(widths[at]) : cell.padStart(widths[at]))).join('  '))
  for (const result of results) {
    const details = [
      ...result.servedButRefusedByRules.map((key) => `served, but the rules refuse it: ${key}`),
      ...result.refusedButAllowedByRules.map((key) => `refused, but the rules allow it: ${key}`),
      ...result.usernamesLeaked.map((found) => `username: ${found}`),
      ...result.routesLeaked.map((found) => `foreign route: ${found}`),
      ...result.titlesLeaked.map((found) => `foreign title: ${found}`),
      ...result.sharedCacheable.map((found) => `shared-cacheable: ${found}`),
      ...result.storedByBrowser.map((found) => `kept by the browser past a sign-out: ${found}`),
    ]
    for (const detail of details.slice(0, 20)) console.log(`  ${result.role}: ${detail}`)
    if (details.length > 20) console.log(`  ${result.role}: … and ${details.length - 20} more`)
  }
}

async function main() {
  const args = process.argv.slice(2)
  const option = (flag: string, fallback: string) => {
    const at = args.indexOf(flag)
    return at >= 0 && args[at + 1] ? args[at + 1] : fallback
  }
  const siteUrl = args.find((arg, at) => !arg.startsWith('--') && !['--out', '--routes'].includes(args[at - 1]))
  if (!siteUrl || !/^https?:\/\//.test(siteUrl)) throw new AuditInputError('usage: npm run audit:live -- <site-url> [--out out] [--routes .next/asset-routes.json]')
  const origin = new URL(siteUrl)
  // Every file's key is asked for under the URL: one with a path would ask for files that are not there.
  if (origin.pathname !== '/' || origin.search || origin.hash) throw new AuditInputError(`the site's URL is its origin, like https://docs.example.com; ${siteUrl} has a path or a query`)
  const built = sitePaths()
  const outDir = path.resolve(option('--out', built.out))
  const routesFile = path.resolve(option('--routes', built.assetRoutes))
  if (!fs.existsSync(path.join(outDir, 'index.html'))) throw new AuditInputError(`${outDir} is not a built site: pass the out/ of the deployed build with --out`)
  if (!fs.existsSync(routesFile)) throw new AuditInputError(`${routesFile} is missing: pass the deployed build's asset routes with --routes (npm run dev empties .next/: build again)`)
  const results = await auditLive({
    siteUrl: siteUrl.replace(/\/$/, ''),
    outDir,
    assetRoutes: JSON.parse(fs.readFileSync(routesFile, 'utf8')),
    auth: readAuthSettings(process.env as AuthEnv),
    credentials: readCredentials(process.env.AUDIT_CREDENTIALS),
  })
  printResults(siteUrl, results)
  const total = results.reduce((sum, result) => sum + findingsOf(result), 0)
  console.log(total ? `\naudit:live: ${total} finding(s)` : '\naudit:live: no findings')
  if (total) process.exitCode = 1
}

if (require.main === module) {
  main().catch((error) => {
    console.error(`audit:live: ${error instanceof Error ? error.message : error}`)
    process.exit(2)
  })
}
