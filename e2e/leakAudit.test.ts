/**
 * The leak audit: as each role, request every file of the audit build through the real server
 * and look for the markers of sections that role may not read. Also counts page titles of
 * forbidden sections in readable files (Nextra puts titles in page maps).
 */
import fs from 'node:fs'
import path from 'node:path'
import { decide } from '../lib/access'
import { SECTIONS } from '../lib/navigation/siteNavigation'
import { listFiles } from '../scripts/build/siteFiles'
import { amplifyCookieHeader, signInIdToken } from '../scripts/audit/cognitoSession'
import type { MarkedSection } from '../scripts/audit/markers'
import { PASSWORD, siteEnv } from './siteEnv'

const ROLES = [null, 'admin', 'leads1', 'internal1', 'support1', 'outsider'] as const
type Role = (typeof ROLES)[number]

/** Titles unique to one section: a readable file that holds one tells that section's structure. */
function uniqueSectionTitles(root: string): Map<string, MarkedSection> {
  const bySection = new Map<string, Set<string>>()
  for (const section of SECTIONS) {
    const dir = path.join(root, 'content/docs', section.id)
    for (const entry of fs.readdirSync(dir, { recursive: true, withFileTypes: true })) {
      if (!entry.isFile() || !entry.name.endsWith('.mdx')) continue
      const title = /^title: (.+)$/m.exec(fs.readFileSync(path.join(entry.parentPath, entry.name), 'utf8'))?.[1]?.trim()
      if (!title) continue
      if (!bySection.has(title)) bySection.set(title, new Set())
      bySection.get(title)!.add(section.id)
    }
  }
  const unique = new Map<string, MarkedSection>()
  for (const [title, sections] of bySection) {
    // One- and two-word titles ("Environments") occur as ordinary words in other pages' text;
    // titles of three words or more are distinctive enough that finding one means a page map leaked.
    if (sections.size === 1 && title.split(/\s+/).length >= 3) unique.set(title, [...sections][0] as MarkedSection)
  }
  return unique
}

interface RoleReport {
  role: string
  allowed: number
  denied: number
  markersLeaked: string[]
  titlesLeaked: string[]
  ownMarkersSeen: Set<MarkedSection>
  /** Sections whose distinctive titles this role found in its readable files: proves the title search can find titles at all. */
  ownTitlesSeen: Set<MarkedSection>
}

describe('leak audit of the built site', () => {
  const env = siteEnv()
  const files = listFiles(env.outDir)
  const titles = uniqueSectionTitles(env.dir)
  const sections = Object.keys(env.markers.body) as MarkedSection[]
  const reports: RoleReport[] = []

  const mayRead = (role: Role, section: MarkedSection) =>
    role !== null && decide(`/docs/${section}/intro`, { username: role }) === 'allow'

  beforeAll(async () => {
    for (const role of ROLES) {
      const cookie = role === null ? undefined : amplifyCookieHeader(role, await signInIdToken(env.cognitoUrl, role, PASSWORD))
      const report: RoleReport = { role: role ?? 'anonymous', allowed: 0, denied: 0, markersLeaked: [], titlesLeaked: [], ownMarkersSeen: new Set(), ownTitlesSeen: new Set() }
      for (const key of files) {
        const response = await fetch(env.siteUrl + key, { redirect: 'manual', headers: cookie ? { cookie } : {} })
        const body = await response.text()
        if (response.status !== 200) {
          report.denied++
          continue
        }
        report.allowed++
        for (const section of sections) {
          const found = body.includes(env.markers.body[section]) || body.includes(env.markers.title[section])
          if (!found) continue
          if (mayRead(role, section)) report.ownMarkersSeen.add(section)
          else report.markersLeaked.push(`${section} in ${key}`)
        }
        for (const [title, section] of titles) {
          if (!body.includes(title)) continue
          if (mayRead(role, section)) report.ownTitlesSeen.add(section)
          else report.titlesLeaked.push(`"${title}" (${section}) in ${key}`)
        }
      }
      reports.push(report)
    }
    console.log(
      [
        `Leak audit: ${files.length} files in out/, ${titles.size} distinctive page titles`,
        'role        allowed  denied  markers leaked  titles leaked',
        ...reports.map((r) => `${r.role.padEnd(10)}  ${String(r.allowed).padStart(7)}  ${String(r.denied).padStart(6)}  ${String(r.markersLeaked.length).padStart(14)}  ${String(r.titlesLeaked.length).padStart(13)}`),
      ].join('\n')
    )
  }, 300000)

  test.each(ROLES.map((role) => [role ?? 'anonymous', role] as const))('%s receives no marker of a section it may not read', (_name, role) => {
    const report = reports.find((r) => r.role === (role ?? 'anonymous'))!
    expect(report.markersLeaked).toEqual([])
  })

  test.each(ROLES.map((role) => [role ?? 'anonymous', role] as const))('%s can read no title of a section it may not read', (_name, role) => {
    const report = reports.find((r) => r.role === (role ?? 'anonymous'))!
    expect(report.titlesLeaked).toEqual([])
  })

  test('every role receives the markers of every section it may read (an audit that blocks everything fails)', () => {
    for (const report of reports) {
      const role = report.role === 'anonymous' ? null : (report.role as Role)
      const expected = sections.filter((section) => mayRead(role, section))
      expect([...report.ownMarkersSeen].sort()).toEqual(expected.sort())
    }
    expect(reports.find((r) => r.role === 'admin')!.ownMarkersSeen.size).toBe(3)
  })

  test('the title search finds each section\'s titles where they may be read (so 0 title leaks means something)', () => {
    expect([...reports.find((r) => r.role === 'admin')!.ownTitlesSeen].sort()).toEqual([...sections].sort())
    expect([...reports.find((r) => r.role === 'leads1')!.ownTitlesSeen]).toEqual(['leads'])
  })

  test('anonymous readers get only what the sign-in page needs', () => {
    const anonymous = reports.find((r) => r.role === 'anonymous')!
    expect(anonymous.allowed).toBeGreaterThan(5)
    expect(anonymous.allowed).toBeLessThan(files.length / 4)
  })
})
