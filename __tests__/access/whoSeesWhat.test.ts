/** @jest-environment node */
import { compileAccess } from '../../lib/access/compileAccess'
import type { AccessConfig } from '../../lib/access/types'
import shipped from '../../access.config'
import path from 'node:path'
import { planAggregates } from '../../lib/access/planAggregates'
import { scanContent } from '../../pipeline/content/contentSource'
import { checkAgainstPool, diffAccess, reportAudiences, whoSeesWhat } from '../../scripts/access/whoSeesWhat'

const withLists = (lists: AccessConfig['lists']) => compileAccess({ ...shipped, lists: { ...shipped.lists, ...lists } })

test('every user and group a list names, against every section, as the edge decides', () => {
  const rows = whoSeesWhat(compileAccess(shipped))
  expect(rows.find((row) => row.name === 'admin')).toEqual({ kind: 'user', name: 'admin', opens: ['Leads API', 'Internal', 'Twilio support', 'Other pages'] })
  expect(rows.find((row) => row.name === 'leads3')!.opens).toEqual(['Leads API'])
  expect(rows.find((row) => row.name === 'support-team')).toEqual({ kind: 'group', name: 'support-team', opens: ['Twilio support'] })
  expect(rows.map((row) => row.name)).not.toContain('outsider')
})

test('against a pool: typos, users who can open nothing, disabled users still listed', () => {
  const access = withLists({ leadsUsers: 'leads1, leeds2, group:partnrs', internalUsers: 'internal1, gone' })
  const pool = {
    users: [
      { username: 'admin', enabled: true, groups: [] },
      { username: 'leads1', enabled: true, groups: [] },
      { username: 'internal1', enabled: true, groups: [] },
      { username: 'gone', enabled: false, groups: [] },
      { username: 'support1', enabled: true, groups: [] },
      { username: 'supportlead', enabled: true, groups: ['support-team'] },
      { username: 'outsider', enabled: true, groups: [] },
    ],
    groups: ['support-team', 'partners'],
  }
  expect(checkAgainstPool(access, pool)).toEqual({
    unknownEntries: [
      { kind: 'user', name: 'leeds2' },
      { kind: 'group', name: 'partnrs' },
    ],
    usersWithNothing: ['outsider'],
    disabledButListed: ['gone'],
  })
})

test('a diff names who gains and who loses which section', () => {
  const before = compileAccess(shipped)
  const after = withLists({ leadsUsers: 'leads1, leads2, leads3, leads4, newpartner', twilioSupportUsers: 'support1, leads5, group:support-team' })
  expect(diffAccess(before, after)).toEqual([
    { kind: 'user', name: 'leads5', gains: ['Twilio support'], loses: ['Leads API'] },
    { kind: 'user', name: 'newpartner', gains: ['Leads API'], loses: [] },
  ])
  expect(diffAccess(before, before)).toEqual([])
})

test('a rule finer than a section gets a column of its own, and its pages are listed', () => {
  const finance = '/docs/internal/to-be-refined/finance'
  const access = compileAccess({ ...shipped, lists: { ...shipped.lists, financeUsers: 'support1, group:finance' }, rules: [{ path: finance, match: 'prefix', require: 'financeUsers' }, ...shipped.rules] }, {})
  const routes = scanContent(path.resolve(__dirname, '../..')).pages.map((page) => page.route)
  const { audiences, finer } = reportAudiences(access, planAggregates({ access, routes }))
  expect(audiences.map((audience) => audience.label)).toEqual(['Leads API', 'Internal', 'Twilio support', 'Other pages', `Internal: ${finance}/…`])
  expect(finer).toEqual([{ rule: `prefix ${finance} -> financeUsers`, pages: [finance, `${finance}/quill-authentication`, `${finance}/quill-crm-api`, `${finance}/quill-money-api`] }])
  const rows = whoSeesWhat(access, audiences)
  expect(rows.find((row) => row.name === 'support1')!.opens).toEqual(['Twilio support', `Internal: ${finance}/…`])
  expect(rows.find((row) => row.name === 'finance')).toEqual({ kind: 'group', name: 'finance', opens: [`Internal: ${finance}/…`] })
  expect(rows.find((row) => row.name === 'internal1')!.opens).toEqual(['Internal'])
  // With the shipped rules, the columns are the sections and the other pages.
  expect(reportAudiences(compileAccess(shipped), planAggregates({ access: compileAccess(shipped), routes })).finer).toEqual([])
})

test("a section's column follows its own rule, not its entry page, which a finer rule may give other readers", () => {
  const access = compileAccess({ ...shipped, rules: [{ path: '/docs/leads/intro', match: 'exact', require: 'internalUsers' }, ...shipped.rules] }, {})
  const routes = scanContent(path.resolve(__dirname, '../..')).pages.map((page) => page.route)
  const { audiences } = reportAudiences(access, planAggregates({ access, routes }))
  const rows = whoSeesWhat(access, audiences)
  expect(rows.find((row) => row.name === 'leads1')!.opens).toContain('Leads API')
  expect(rows.find((row) => row.name === 'internal1')!.opens).not.toContain('Leads API')
  // Without the plan, each section is asked about at its folder.
  expect(whoSeesWhat(access).find((row) => row.name === 'leads1')!.opens).toEqual(['Leads API'])
})
