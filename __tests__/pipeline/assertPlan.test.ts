/** @jest-environment node */
/**
 * The plan's own check (lib/access/planAggregates.ts assertPlan), which every build runs on its
 * plan: a plan whose file would hold a page of another rule is refused, naming both, whichever
 * kind of file it is; the planner's own plan passes.
 */
import path from 'node:path'
import { access } from '../../lib/access'
import { AggregatePlanError, assertPlan, planAggregates, type AggregatePlan } from '../../lib/access/planAggregates'
import { scanContent } from '../../pipeline/content/contentSource'

const ROUTES = scanContent(path.resolve(__dirname, '../..')).pages.map((page) => page.route)
const plan = () => structuredClone(planAggregates({ access, routes: ROUTES }))
const INTERNAL_PAGE = '/docs/internal/intro'

function leadsFile<T extends { pages: readonly string[] }>(files: T[]): T {
  const file = files.find((candidate) => candidate.pages.includes('/docs/leads/intro'))
  if (!file) throw new Error('the shipped plan has no file of the leads pages')
  return file
}

test("the planner's plan passes its check", () => {
  expect(() => assertPlan(plan(), access)).not.toThrow()
})

test.each([
  ['an llms file', (tampered: AggregatePlan) => leadsFile(tampered.llms)],
  ['a catalog', (tampered: AggregatePlan) => leadsFile(tampered.catalogs)],
  ['a search index', (tampered: AggregatePlan) => leadsFile(tampered.search)],
])('%s of the leads readers that would hold an internal page is refused', (_kind, fileOf) => {
  const tampered = plan()
  ;(fileOf(tampered).pages as string[]).push(INTERNAL_PAGE)
  expect(() => assertPlan(tampered, access)).toThrow(AggregatePlanError)
  expect(() => assertPlan(tampered, access)).toThrow(`would hold ${INTERNAL_PAGE} (prefix /docs/internal -> internalUsers)`)
})

test("a leads page's Markdown file that would hold an internal page is refused", () => {
  const tampered = plan()
  const file = tampered.markdown.find((candidate) => candidate.route === '/docs/leads/intro')
  if (!file) throw new Error('the shipped plan has no Markdown file of /docs/leads/intro')
  file.route = INTERNAL_PAGE
  expect(() => assertPlan(tampered, access)).toThrow(`${file.key} (prefix /docs/leads -> leadsUsers) would hold ${INTERNAL_PAGE}`)
})
