/**
 * Builds the site in a temporary copy of the project with a unique marker planted in one page
 * (body and title) and one image of each section, for the leak audit and the browser tests.
 * Never touches the working tree. Usage: tsx scripts/audit/buildAuditSite.ts <destDir>
 */
import { execFileSync } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import { copyProject } from './copyProject'
import accessConfig from '../../access.config'
import { listEnvVar } from '../../lib/access/accessEnv'
import { MARKED_IMAGES, MARKED_PAGES, newMarkers, type MarkedSection, type Markers } from './markers'

/** The default local Cognito port the audit build talks to; tests start their own Cognito there. */
export const AUDIT_COGNITO_PORT = 9329

/** Written beside out/: what the tests need to know about this build. */
export const AUDIT_SITE_FILE = 'audit-site.json'

export interface AuditSite {
  cognitoPort: number
  /** The list overrides the build (and so the authorizer) saw: the shipped lists plus a marker username each. */
  accessEnv: Record<string, string>
}

/** Every list as shipped, plus the list's marker username. */
function auditAccessEnv(markers: Markers): Record<string, string> {
  return Object.fromEntries(Object.entries(accessConfig.lists).map(([list, entries]) => [listEnvVar(list), `${entries}, ${markers.usernames[list]}`]))
}

/** A port nobody listens on now, so concurrent test runs each get their own Cognito. */
export function freePort(): number {
  const script = "const s=require('net').createServer();s.listen(0,'127.0.0.1',()=>{process.stdout.write(String(s.address().port));s.close()})"
  return Number(execFileSync(process.execPath, ['-e', script], { encoding: 'utf8' }))
}

export function buildAuditSite(root: string, dest: string, cognitoPort = AUDIT_COGNITO_PORT): void {
  copyProject(root, dest)

  const markers = newMarkers()
  for (const section of Object.keys(MARKED_PAGES) as MarkedSection[]) {
    const page = path.join(dest, MARKED_PAGES[section])
    const source = fs.readFileSync(page, 'utf8')
    const titled = source.replace(/^title: (.*)$/m, `title: $1 ${markers.title[section]}`)
    if (titled === source) throw new Error(`${MARKED_PAGES[section]} has no front-matter title to mark`)
    fs.writeFileSync(page, `${titled}\n\nAudit marker: ${markers.body[section]}\n`)
    const image = path.join(dest, MARKED_IMAGES[section])
    fs.appendFileSync(image, `\n<!-- ${markers.body[section]} -->\n`)
  }
  fs.writeFileSync(path.join(dest, 'audit-markers.json'), JSON.stringify(markers, null, 2))
  const accessEnv = auditAccessEnv(markers)
  fs.writeFileSync(path.join(dest, AUDIT_SITE_FILE), JSON.stringify({ cognitoPort, accessEnv } satisfies AuditSite))

  execFileSync('npm', ['run', 'build', '--silent'], {
    cwd: dest,
    stdio: 'inherit',
    env: {
      ...process.env,
      NEXT_TELEMETRY_DISABLED: '1',
      NEXT_IGNORE_INCORRECT_LOCKFILE: '1',
      DOCS_AUTH_MODE: 'local',
      DOCS_COGNITO_ENDPOINT: `http://127.0.0.1:${cognitoPort}`,
      ...accessEnv,
    },
  })
}

if (require.main === module) {
  const dest = process.argv[2]
  if (!dest) {
    console.error('usage: tsx scripts/audit/buildAuditSite.ts <destDir>')
    process.exit(2)
  }
  buildAuditSite(process.cwd(), path.resolve(dest), freePort())
  console.log(`buildAuditSite: built ${path.resolve(dest, 'out')} with markers in ${path.resolve(dest, 'audit-markers.json')}`)
}
