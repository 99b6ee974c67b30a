import fs from 'node:fs'
import path from 'node:path'
import { compileAccess } from '../lib/access/compileAccess'
import { decideAccess, describeRule, governingRuleOf } from '../lib/access/decideAccess'
import { inSection } from '../lib/access/sectionPaths'
import { scanContent } from '../pipeline/content/contentSource'
import { readAudiencesFile } from '../pipeline/steps/audiencesFile'
import { sitePaths } from '../pipeline/steps/paths'
import type { AccessUser } from '../lib/access/types'
import { AUDIT_SITE_FILE, type AuditSite } from '../scripts/audit/buildAuditSite'
import type { Markers } from '../scripts/audit/markers'

/** The audit build and the servers that e2e/globalSetup.ts started for this run. */
export function siteEnv() {
  const dir = process.env.AUDIT_SITE_DIR
  const siteUrl = process.env.E2E_SITE_URL
  const cognitoUrl = process.env.E2E_COGNITO_URL
  if (!dir || !siteUrl || !cognitoUrl) throw new Error('run browser and audit tests through `npm test` (e2e/globalSetup.ts sets AUDIT_SITE_DIR and the server URLs)')
  const site = JSON.parse(fs.readFileSync(path.join(dir, AUDIT_SITE_FILE), 'utf8')) as AuditSite
  // The rules and lists the audit build was made with, as the server applies them.
  const access = compileAccess(site.accessConfig, { ...process.env, ...site.accessEnv })
  const audiences = readAudiencesFile(sitePaths(dir).audiences, access)
  const source = scanContent(dir)
  const pages = source.pages
  const homeRule = describeRule(governingRuleOf(access, '/'))
  return {
    access,
    /** The build's audiences (the pages one rule governs), each with its search index. */
    audiences,
    /** The home page's search index, which every signed-in reader's view names first (its audience's: a rule on `/`, or the fallback's). */
    homeIndex: audiences.find((audience) => describeRule(governingRuleOf(access, audience.governedBy)) === homeRule)?.search ?? null,
    decide: (route: string, user: AccessUser | null) => decideAccess(access, route, user),
    dir,
    outDir: path.join(dir, 'out'),
    siteUrl,
    cognitoUrl,
    markers: JSON.parse(fs.readFileSync(path.join(dir, 'audit-markers.json'), 'utf8')) as Markers,
    /** The audit profile the build was made with (scripts/audit/markers.ts AUDIT_PROFILES). */
    profile: site.profile,
    /** Pages per search shard the build was given, or null for the shipped size. */
    searchShardPages: site.searchShardPages,
    /** The content files that hold the finer rules' markers. */
    finerMarked: site.finerMarked,
    /** The files that hold each declared section's markers: its page, image and `_meta`. */
    marked: site.marked,
    /** The audit build's pages, each with its content file. */
    pages,
    /** The writers' files under public/, by their keys in out/ (`/docs/leads/images/flow.svg`). */
    publicKeys: source.publicFiles.map((file) => file.key),
    /** The route of a content file of the audit build. */
    routeOfFile: (file: string) => {
      const page = pages.find((candidate) => candidate.file === file)
      if (!page) throw new Error(`the audit build has no page ${file}`)
      return page.route
    },
    /** The declared section a route belongs to. */
    sectionOf: (route: string) => {
      const section = access.sections.find((candidate) => inSection(route, candidate.id))
      if (!section) throw new Error(`${route} is in no section`)
      return section
    },
  }
}

/** Every seeded demo user's password. */
export { SEEDED_PASSWORD as PASSWORD } from '../scripts/cognito/seed'
