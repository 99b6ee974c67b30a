/** @jest-environment node */
/**
 * An audience's full text in parts (lib/aiTools/fullTextParts.ts), as the plan cuts it and the
 * Markdown step writes it: on a site of generated pages whose one section's text is many times the
 * bound, each part stays within the bound, the index lists every part, and an edit of one page
 * rewrites that page's Markdown and its one part, leaving every other file of out/ as it was.
 */
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { access } from '../../lib/access'
import { planAggregates, type AggregatePlan } from '../../lib/access/planAggregates'
import { cutFullText } from '../../lib/aiTools/fullTextParts'
import { routeBucket } from '../../lib/routeBucket'
import { scanContent } from '../../pipeline/content/contentSource'
import { writeMarkdown } from '../../pipeline/steps/buildMarkdown'
import type { PageStore } from '../../pipeline/store/pageStore'

const BOUND = 20_000
const PAGES = 60

let site: string
let out: string
beforeEach(() => {
  site = fs.mkdtempSync(path.join(os.tmpdir(), 'full-text-parts-'))
  out = path.join(site, 'out')
  fs.mkdirSync(out)
  const write = (file: string, text: string) => {
    fs.mkdirSync(path.dirname(path.join(site, file)), { recursive: true })
    fs.writeFileSync(path.join(site, file), text)
  }
  write('content/index.mdx', '# Home\n')
  // About 2.5 kB a page: the section's text is some 150 kB, several times the bound.
  for (let at = 0; at < PAGES; at++) write(`content/docs/leads/p${String(at).padStart(2, '0')}.mdx`, `# Page ${at}\n\n${`Words of page ${at}. `.repeat(120)}\n`)
})
afterEach(() => fs.rmSync(site, { recursive: true, force: true }))

/** The plan, the Markdown step's inputs, and a run of the step, as the build makes them. */
async function build(): Promise<AggregatePlan> {
  const source = scanContent(site)
  const plan = planAggregates({ access, routes: source.pages.map((page) => page.route), bodyBytes: (route) => Buffer.byteLength(source.byRoute(route)!.body), fullTextPartBytes: BOUND })
  const records = Object.fromEntries(source.pages.map((page) => [page.route, { file: page.file, title: page.route, description: null }])) as unknown as PageStore['pages']
  const pageMaps = new Map(plan.audiences.map((audience) => [audience.rule, { items: [], order: {} }]))
  await writeMarkdown({ root: site, out }, source, records, plan, { pageMaps, lastUpdated: {} })
  return plan
}

const leadsParts = (plan: AggregatePlan) => plan.llms.filter((file) => file.full && file.key.startsWith('/docs/leads/'))

test('an audience larger than the bound is cut into parts each within it, which together hold each of its pages once', async () => {
  const plan = await build()
  const parts = leadsParts(plan)
  expect(parts.length).toBeGreaterThan(1)
  const held: string[] = []
  for (const part of parts) {
    const text = fs.readFileSync(path.join(out, part.key), 'utf8')
    expect([part.key, Buffer.byteLength(text) <= BOUND]).toEqual([part.key, true])
    const routes = [...text.matchAll(/^<!-- (\/[^ ]+) -->$/gm)].map((match) => match[1])
    expect(routes).toEqual(part.pages)
    held.push(...routes)
  }
  const leads = plan.audiences.find((audience) => audience.section === 'leads')!
  expect(held.sort()).toEqual(leads.pages)
  // Several parts take numbered names; no llms-full.txt beside them to be taken for the whole.
  expect(parts.every((part) => /\/llms-full-[0-9]+\.txt$/.test(part.key))).toBe(true)
  expect(fs.existsSync(path.join(out, 'docs/leads/llms-full.txt'))).toBe(false)
})

test("the audience's llms.txt lists every part of its full text, and each part written is one it lists", async () => {
  const plan = await build()
  const index = fs.readFileSync(path.join(out, 'docs/leads/llms.txt'), 'utf8')
  const listed = [...index.split('## Full text')[1].matchAll(/\]\(([^)]+)\)/g)].map((match) => match[1])
  const written = fs.readdirSync(path.join(out, 'docs/leads')).filter((name) => name.startsWith('llms-full')).map((name) => `/docs/leads/${name}`)
  expect(listed).toEqual(leadsParts(plan).map((part) => part.key))
  expect(listed.slice().sort()).toEqual(written.sort())
})

test('an edit of one page rewrites its Markdown and its one part; every other file of out/ keeps its bytes, time and inode', async () => {
  const before = await build()
  const stats = (dir: string) =>
    new Map(
      fs
        .readdirSync(dir, { recursive: true, withFileTypes: true })
        .filter((entry) => entry.isFile())
        .map((entry) => {
          const file = path.join(entry.parentPath, entry.name)
          const stat = fs.statSync(file)
          return [path.relative(dir, file), { ino: stat.ino, mtimeMs: stat.mtimeMs, bytes: fs.readFileSync(file, 'utf8') }]
        })
    )
  const first = stats(out)
  // As the build does: `next build` empties out/ before the Markdown step writes it again.
  fs.rmSync(out, { recursive: true })
  fs.mkdirSync(out)
  fs.appendFileSync(path.join(site, 'content/docs/leads/p07.mdx'), '\nOne more line.\n')
  const after = await build()
  expect(after.llms.map((file) => file.key)).toEqual(before.llms.map((file) => file.key))
  const second = stats(out)
  expect([...second.keys()].sort()).toEqual([...first.keys()].sort())
  const changed = [...second].filter(([file, stat]) => first.get(file)!.ino !== stat.ino).map(([file]) => file)
  const part = leadsParts(after).find((file) => file.pages.includes('/docs/leads/p07'))!
  expect(changed.sort()).toEqual(['docs/leads/p07.md', part.key.slice(1)].sort())
  for (const [file, stat] of second) if (!changed.includes(file)) expect([file, stat]).toEqual([file, first.get(file)])
  expect(second.get(part.key.slice(1))!.bytes).toContain('One more line.')
})

test("a page's part depends on its route and the part count alone: pages added elsewhere do not move it", () => {
  const pages = Array.from({ length: 400 }, (_, at) => ({ route: `/docs/x/p${at}`, bytes: 3_000 }))
  const header = () => 100
  const cut = cutFullText(pages, header, 500_000)
  const grown = cutFullText([...pages, { route: '/docs/x/added', bytes: 3_000 }], header, 500_000)
  expect(grown.count).toBe(cut.count)
  const partOfIn = (result: typeof cut, route: string) => result.parts.find((part) => part.routes.includes(route))!.part
  for (const { route } of pages) expect(partOfIn(grown, route)).toBe(partOfIn(cut, route))
  for (const { route } of pages) expect(partOfIn(cut, route)).toBe(routeBucket(route, cut.count))
  // One part while the whole fits the bound; a single page over the bound stays whole, alone.
  expect(cutFullText(pages.slice(0, 10), header, 500_000)).toEqual({ count: 1, parts: [{ part: 0, routes: pages.slice(0, 10).map((page) => page.route) }] })
  expect(cutFullText([{ route: '/docs/x/huge', bytes: 900_000 }], header, 500_000).count).toBe(1)
})
