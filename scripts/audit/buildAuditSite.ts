/**
 * Builds the site in a temporary copy of the project with a unique marker planted in one page
 * (body and title) and one image of each section, for the leak audit and the browser tests. The
 * copy's access.config.ts adds the rules finer than a section of an audit profile
 * (scripts/audit/markers.ts AUDIT_PROFILES), whose pages get markers too, and the links that the
 * link check names under those rules are removed, as a writer would: so the audit proves
 * aggregates follow rules of more than one shape.
 * Never touches the working tree. Usage: tsx scripts/audit/buildAuditSite.ts <destDir> [profile]
 */
import { scanContent } from '../../pipeline/content/contentSource'
import { execFileSync } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import { copyProject } from './copyProject'
import { listEnvVar } from '../../lib/access/accessEnv'
import { compileAccess } from '../../lib/access/compileAccess'
import { checkLinks } from '../../pipeline/steps/checkLinks'
import { sitePathOf } from '../../pipeline/compile/sitePaths.mjs'
import { SHARD_PAGES_ENV } from '../../pipeline/steps/assignSearchShards'
import type { AccessConfig } from '../../lib/access/types'
import { AUDIT_PROFILES, AUDIT_PROFILE_NAMES, MARKED_ROOT_FILE, auditAccessConfig, markedFilesOf, newMarkers, withSectionWords, type AuditProfileName, type FinerMark, type MarkedFiles, type MarkedSection, type Markers } from './markers'

/** The default local Cognito port the audit build talks to; tests start their own Cognito there. */
export const AUDIT_COGNITO_PORT = 9329

/** Written beside out/: what the tests need to know about this build. */
export const AUDIT_SITE_FILE = 'audit-site.json'

/**
 * A page with every writer component, which no shipped page uses all of: the accessibility tests
 * check each as readers meet it (e2e/accessibility.test.ts). In a folder of the internal section
 * whose sidebar entry stays closed on the pages other tests record.
 */
export const WRITER_COMPONENTS_FIXTURE = 'e2e/fixtures/writerComponents.mdx'
export const WRITER_COMPONENTS_PAGE = 'content/docs/internal/product-support/writer-components.mdx'
export const WRITER_COMPONENTS_ROUTE = '/docs/internal/product-support/writer-components'

export interface AuditSite {
  cognitoPort: number
  /** The list overrides the build (and so the authorizer) saw: the audit's lists plus a marker username each. */
  accessEnv: Record<string, string>
  /** The audit profile the copy was built with. */
  profile: AuditProfileName
  /** The access configuration the copy was built with (the shipped one and the profile's finer rules). */
  accessConfig: AccessConfig
  /** The content files that hold the finer rules' markers. */
  finerMarked: Record<FinerMark, string>
  /** The files that hold each declared section's markers (./markers.ts markedFilesOf). */
  marked: Record<MarkedSection, MarkedFiles>
  /** Pages per search shard the build was given, or null for the shipped size (AuditProfile.searchShardPages). */
  searchShardPages: number | null
}

/** Every list of the audit's configuration, plus the list's marker username and marker group. */
function auditAccessEnv(config: AccessConfig, markers: Markers): Record<string, string> {
  return Object.fromEntries(Object.entries(config.lists).map(([list, entries]) => [listEnvVar(list), `${entries}, ${markers.usernames[list]}, group:${markers.groups[list]}`]))
}

/**
 * Removes `[text](target)` at a line, words and all: what a writer does with a link the link check
 * names. The words go too, since a link's text is often the other page's title.
 */
function unlink(file: string, line: number, target: string): void {
  const lines = fs.readFileSync(file, 'utf8').split('\n')
  const escaped = target.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
  const unlinked = lines[line - 1].replace(new RegExp(`\\[([^\\]]*)\\]\\(\\s*${escaped}\\s*\\)`, 'g'), '')
  if (unlinked === lines[line - 1]) throw new Error(`${file}:${line}: no Markdown link to ${target} to unlink`)
  lines[line - 1] = unlinked
  fs.writeFileSync(file, lines.join('\n'))
}

/** Plants a marker in a page's front-matter title and at the end of its body, and a writer's comment in each form a comment takes, where one is given. */
function markPage(dest: string, file: string, marker: { title: string; body: string; comment?: string }): void {
  const page = path.join(dest, file)
  const source = fs.readFileSync(page, 'utf8')
  const titled = source.replace(/^title: (.*)$/m, `title: $1 ${marker.title}`)
  if (titled === source) throw new Error(`${file} has no front-matter title to mark`)
  // Comments add no word a reader sees (the redesign's parity test compares the page's text).
  const { comment } = marker
  const inline = comment === undefined ? '' : ` {/* ${comment}\n */}`
  const blocks = comment === undefined ? '' : `\n{/* ${comment} */}\n\n[//]: # (${comment})\n`
  fs.writeFileSync(page, `${titled}\n\nAudit marker: ${marker.body}${inline}\n${blocks}`)
}

/** The copy's access.config.ts: the audit configuration as data, which is all access.config.ts holds. */
function writeAuditAccessConfig(dest: string, config: AccessConfig): void {
  const source = `import type { AccessConfig } from './lib/access/types'\n\n// Written by scripts/audit/buildAuditSite.ts: the shipped configuration with rules finer than a section.\nconst config: AccessConfig = ${JSON.stringify(config, null, 2)}\n\nexport default config\n`
  fs.writeFileSync(path.join(dest, 'access.config.ts'), source)
}

/** A port nobody listens on now, so concurrent test runs each get their own Cognito. */
export function freePort(): number {
  const script = "const s=require('net').createServer();s.listen(0,'127.0.0.1',()=>{process.stdout.write(String(s.address().port));s.close()})"
  return Number(execFileSync(process.execPath, ['-e', script], { encoding: 'utf8' }))
}

/** A separator titled `marker` as the first entry of the `_meta` file `file`. */
function markMeta(dest: string, file: string, marker: string): void {
  const absolute = path.join(dest, file)
  const text = fs.readFileSync(absolute, 'utf8')
  const marked = text.replace(/export default \{/, `export default {\n  '---audit': { type: 'separator', title: '${marker}' },`)
  if (marked === text) throw new Error(`${file}: no \`export default {\` to plant the audit's separator in`)
  fs.writeFileSync(absolute, marked)
}

export function buildAuditSite(root: string, dest: string, cognitoPort = AUDIT_COGNITO_PORT, profile: AuditProfileName = 'finance'): void {
  copyProject(root, dest)

  const profileConfig = auditAccessConfig(profile)
  const finerMarked = AUDIT_PROFILES[profile].marked
  // Every section the configuration declares, one an admin added too.
  const marked = markedFilesOf(compileAccess(profileConfig, { ...process.env }).sections, scanContent(dest))
  const markers = newMarkers(profileConfig, Object.keys(marked), AUDIT_PROFILES[profile].marksSectionWords)
  const config = withSectionWords(profileConfig, markers)
  for (const [section, files] of Object.entries(marked)) {
    markPage(dest, files.page, { title: markers.title[section], body: markers.body[section], comment: markers.comment[section] })
    // A section without an SVG image or a `_meta` of its own is given one to mark.
    const image = path.join(dest, files.image)
    if (!fs.existsSync(image)) {
      fs.mkdirSync(path.dirname(image), { recursive: true })
      fs.writeFileSync(image, '<svg xmlns="http://www.w3.org/2000/svg"/>\n')
    }
    fs.appendFileSync(image, `\n<!-- ${markers.image[section]} -->\n`)
    const meta = path.join(dest, files.meta)
    if (!fs.existsSync(meta)) fs.writeFileSync(meta, 'export default {\n}\n')
    markMeta(dest, files.meta, markers.meta[section])
  }
  for (const mark of Object.keys(finerMarked) as FinerMark[]) markPage(dest, finerMarked[mark], markers.finer[mark])
  fs.writeFileSync(path.join(dest, MARKED_ROOT_FILE), `${markers.rootFile}\n`)
  fs.copyFileSync(path.join(root, WRITER_COMPONENTS_FIXTURE), path.join(dest, WRITER_COMPONENTS_PAGE))
  fs.writeFileSync(path.join(dest, 'audit-markers.json'), JSON.stringify(markers, null, 2))
  const accessEnv = auditAccessEnv(config, markers)
  // A marked image the mends moved is audited where it now is, by its new path's rule.
  const moves = applyAccessConfig(dest, config, accessEnv)
  for (const files of Object.values(marked)) if (!fs.existsSync(path.join(dest, files.image))) files.image = moves.get(files.image) ?? files.image
  const { searchShardPages } = AUDIT_PROFILES[profile]
  fs.writeFileSync(path.join(dest, AUDIT_SITE_FILE), JSON.stringify({ cognitoPort, accessEnv, profile, accessConfig: config, finerMarked, marked, searchShardPages } satisfies AuditSite))
  buildCopy(dest, cognitoPort, accessEnv, 'inherit', searchShardPages)
}

/** The folder the link check tells a writer to move a page's file to (pipeline/steps/checkLinks.ts filesHint), or null. */
const hintedFolder = (problem: string) => /\(move it under (public\/[^)]+\/images\/)\)$/.exec(problem)?.[1] ?? null

/**
 * Moves the file the page `file` (at `route`) uses into `folder` (its copy, where other pages still
 * use it), and points the page's link at line `line` there: what a writer does with a file the link check says the
 * page's readers may not fetch. Returns the file's old and new paths, relative to the project.
 */
function moveFile(dest: string, route: string, file: string, line: number, target: string, folder: string): { from: string; to: string } {
  const from = `public${decodeURIComponent(sitePathOf(route, target))}`
  const to = `${folder}${path.posix.basename(from)}`
  fs.mkdirSync(path.join(dest, folder), { recursive: true })
  if (!fs.existsSync(path.join(dest, to))) fs.copyFileSync(path.join(dest, from), path.join(dest, to))
  const page = path.join(dest, file)
  const lines = fs.readFileSync(page, 'utf8').split('\n')
  const moved = lines[line - 1].split(`(${target})`).join(`(${to.slice('public'.length)})`)
  if (moved === lines[line - 1]) throw new Error(`${file}:${line}: no link to ${target} to move`)
  lines[line - 1] = moved
  fs.writeFileSync(page, lines.join('\n'))
  return { from, to }
}

/**
 * Gives a copy of the project the access configuration `config` (with the lists of `accessEnv`),
 * and mends the links that the link check names under it, as a writer would: a file the page's
 * readers may not fetch is moved where the check says (and removed from its old place once no page
 * uses it), any other link removed. Returns the files moved, by their old paths.
 */
export function applyAccessConfig(dest: string, config: AccessConfig, accessEnv: Record<string, string>): Map<string, string> {
  writeAuditAccessConfig(dest, config)
  const access = compileAccess(config, accessEnv)
  const source = scanContent(dest)
  const routeOf = new Map(source.pages.map((page) => [page.file, page.route]))
  const moves = new Map<string, string>()
  for (const problem of checkLinks(source, access)) {
    if (problem.kind !== 'forbidden') throw new Error(`${problem.file}:${problem.line}: ${problem.target}: ${problem.problem}`)
    const folder = hintedFolder(problem.problem)
    if (folder === null) unlink(path.join(dest, problem.file), problem.line, problem.target)
    else {
      const { from, to } = moveFile(dest, routeOf.get(problem.file) ?? '', problem.file, problem.line, problem.target, folder)
      moves.set(from, to)
    }
  }
  // The mends change pages' text, never which pages there are.
  const pageTexts = source.pages.map((page) => fs.readFileSync(path.join(dest, page.file), 'utf8'))
  for (const from of moves.keys()) if (!pageTexts.some((text) => text.includes(from.slice('public'.length)))) fs.rmSync(path.join(dest, from))
  const left = checkLinks(scanContent(dest), access)
  if (left.length > 0) throw new Error(`the audit's mended links still fail the link check: ${left.map((problem) => `${problem.file}:${problem.line}: ${problem.target}: ${problem.problem}`).join('; ')}`)
  return moves
}

/** Runs the build in a copy of the project, against a local Cognito at `cognitoPort`, with the lists of `accessEnv`. */
export function buildCopy(dest: string, cognitoPort: number, accessEnv: Record<string, string>, stdio: 'inherit' | 'pipe' = 'inherit', searchShardPages: number | null = null): void {
  execFileSync('npm', ['run', 'build', '--silent'], {
    cwd: dest,
    stdio,
    env: {
      ...process.env,
      NEXT_TELEMETRY_DISABLED: '1',
      NEXT_IGNORE_INCORRECT_LOCKFILE: '1',
      DOCS_AUTH_MODE: 'local',
      DOCS_COGNITO_ENDPOINT: `http://127.0.0.1:${cognitoPort}`,
      ...(searchShardPages === null ? {} : { [SHARD_PAGES_ENV]: String(searchShardPages) }),
      ...accessEnv,
    },
  })
}

if (require.main === module) {
  const [dest, profile = 'finance'] = process.argv.slice(2)
  if (!dest || !AUDIT_PROFILE_NAMES.includes(profile as AuditProfileName)) {
    console.error(`usage: tsx scripts/audit/buildAuditSite.ts <destDir> [${AUDIT_PROFILE_NAMES.join('|')}]`)
    process.exit(2)
  }
  buildAuditSite(process.cwd(), path.resolve(dest), freePort(), profile as AuditProfileName)
  console.log(`buildAuditSite: built ${path.resolve(dest, 'out')} with markers in ${path.resolve(dest, 'audit-markers.json')}`)
}
