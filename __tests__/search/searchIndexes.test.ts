/** @jest-environment node */
import path from 'node:path'
import { access, decide } from '../../lib/access'
import { governingRoute } from '../../lib/access/governingRoute'
import { objectKeyFor } from '../../lib/access/objectKey'
import { planAggregates } from '../../lib/access/planAggregates'
import { assetRoutesOf } from '../pipeline/helpers/assetRoutes'
import { scanContent } from '../../pipeline/content/contentSource'

const plan = planAggregates({ access, routes: scanContent(path.resolve(__dirname, '../..')).pages.map((page) => page.route) })
const index = (page: string) => plan.search.find((spec) => spec.pages.includes(page))!
const readable = (username: string | null) =>
  username === null ? [] : plan.search.filter((spec) => decide(spec.governedBy, { username }) === 'allow').map((spec) => spec.id)

test('one index per audience: each section under its own path, the home page and the /docs root in folders of their own', () => {
  expect(index('/docs/leads/intro').basePath).toBe('/docs/leads/_pagefind/')
  expect(index('/docs/internal/data-lake').basePath).toBe('/docs/internal/_pagefind/')
  expect(index('/docs/support-twilio/sql-queries').basePath).toBe('/docs/support-twilio/_pagefind/')
  expect(index('/').pages).toEqual(['/'])
  expect(index('/').basePath).toMatch(/^\/_audiences\/a[0-9a-f]{10}\/_pagefind\/$/)
  expect(index('/docs').pages).toEqual(['/docs'])
  expect(plan.search.map((spec) => spec.id)).toEqual([index('/').id, 'leads', 'internal', 'support-twilio', index('/docs').id])
})

test("the indexes outside their rule's folders are governed by their audience's folder, whatever their files are named; a section index needs no entry", () => {
  const home = index('/')
  const files = [`${home.basePath}pagefind.js`, `${home.basePath}shards.json`, `${home.basePath}0/pagefind-entry.json`, `${home.basePath}0/fragment/en_1.pf_fragment`, '/docs/leads/_pagefind/pagefind.js']
  const routes = assetRoutesOf(access, { files, plannedRoutes: plan.routes })
  expect(Object.keys(routes).filter((key) => key.includes('_pagefind'))).toEqual([])
  expect(governingRoute(`${home.basePath}shards.json`, routes)).toBe('/')
  expect(governingRoute(`${home.basePath}0/fragment/en_1.pf_fragment`, routes)).toBe('/')
  expect(governingRoute(`${home.basePath}3/fragment/en_7c0ffee.pf_fragment`, routes)).toBe('/')
  expect(governingRoute('/docs/leads/_pagefind/pagefind.js', routes)).toBe('/docs/leads/_pagefind/pagefind.js')
})

test('each index is governed, as the edge sees its files, by the route the reader view checks', () => {
  const routes = plan.routes
  for (const spec of plan.search) {
    for (const file of ['pagefind.js', 'shards.json', '0/pagefind-entry.json', '1/fragment/en_1.pf_fragment']) {
      const route = governingRoute(objectKeyFor(spec.basePath + file) as string, routes)
      for (const username of ['admin', 'leads1', 'internal1', 'support1', 'outsider']) {
        expect([spec.id, username, decide(route as string, { username })]).toEqual([spec.id, username, decide(spec.governedBy, { username })])
      }
    }
  }
})

test.each([
  ['admin', ['home', 'leads', 'internal', 'support-twilio', 'docs root']],
  ['leads1', ['home', 'leads']],
  ['leads5', ['home', 'leads']],
  ['internal1', ['home', 'internal']],
  ['support1', ['home', 'support-twilio']],
  ['outsider', ['home']],
  [null, []],
])('%s may load the indexes %j', (username, expected) => {
  const names: Record<string, string> = { [index('/').id]: 'home', [index('/docs').id]: 'docs root' }
  expect(readable(username).map((id) => names[id] ?? id)).toEqual(expected)
})
