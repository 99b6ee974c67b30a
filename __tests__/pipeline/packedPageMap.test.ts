/** @jest-environment node */
/**
 * A page's props carry its part of the page map with the routes that follow from their folder
 * left out (lib/navigation/packedPageMap.ts); the docs route puts them back. Checked on every page
 * of the real site, as the page step trims it, and on routes that do not follow.
 */
import path from 'node:path'
import { access } from '../../lib/access'
import { packPageMap, unpackPageMap } from '../../lib/navigation/packedPageMap'
import type { RawItem } from '../../lib/navigation/shapePageMap'
import { trimPageMap } from '../../lib/navigation/trimPageMap'
import { audienceIdOf } from '../../lib/access/planAggregates'
import { scanContent } from '../../pipeline/content/contentSource'
import { audiencePageMap, pageMapInputs } from '../../pipeline/pageMaps'
import { planFor } from '../../pipeline/steps/contentSteps'

const ROOT = path.resolve(__dirname, '../..')
const throughProps = (items: RawItem[]) => unpackPageMap(JSON.parse(JSON.stringify(packPageMap(items))))

test("every page of the site gets back the page map the page step trimmed for it, from fewer bytes", () => {
  const source = scanContent(ROOT)
  const plan = planFor(source.pages)
  const inputs = pageMapInputs(source)
  const maps = new Map<string, RawItem[]>()
  let packed = 0
  let whole = 0
  for (const { route } of source.pages) {
    const scope = audienceIdOf(access, route)
    if (!maps.has(scope)) maps.set(scope, audiencePageMap(source.pageMap(), scope, inputs, plan))
    const trimmed = trimPageMap(maps.get(scope)!, route)
    expect(throughProps(trimmed)).toEqual(trimmed)
    packed += JSON.stringify(packPageMap(trimmed)).length
    whole += JSON.stringify(trimmed).length
  }
  expect(source.pages.length).toBeGreaterThan(50)
  expect(packed).toBeLessThan(whole * 0.85)
})

test('a route that does not follow from its folder and name stays written; one that does is left out', () => {
  const items: RawItem[] = [
    { data: { leads: { title: 'Leads', type: 'page' } } },
    { name: 'index', route: '/', frontMatter: { title: 'Home' } },
    // A section lifted to the top level keeps its route under /docs.
    { name: 'leads', route: '/docs/leads', children: [{ name: 'intro', route: '/docs/leads/intro' }, { name: 'moved', route: '/elsewhere/moved' }] },
  ]
  const packed = JSON.stringify(packPageMap(items))
  expect(packed).toContain('"route":"/docs/leads"')
  expect(packed).toContain('"route":"/elsewhere/moved"')
  expect(packed).not.toContain('"/docs/leads/intro"')
  expect(packed).not.toContain('"route":"/"')
  expect(throughProps(items)).toEqual(items)
})
