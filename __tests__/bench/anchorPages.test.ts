/** @jest-environment node */
import { scanContent } from '../../pipeline/content/contentSource'
import { execFileSync } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { placeAnchorPages } from '../../bench/anchorPages'
import { anchorsSource } from '../../bench/docusaurusAnchor'
import { SECTIONS } from '../../lib/navigation/siteNavigation'
import { checkLinks } from '../../pipeline/steps/checkLinks'

const repo = path.resolve(__dirname, '../..')
const temp: string[] = []
const tempDir = (prefix: string) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix))
  temp.push(dir)
  return dir
}
afterAll(() => temp.forEach((dir) => fs.rmSync(dir, { recursive: true, force: true })))

/** The parts of the project the link check reads: top-level pages, content and public files. */
function projectCopy(): string {
  const root = tempDir('anchor-project-')
  fs.mkdirSync(path.join(root, 'pages'))
  for (const name of fs.readdirSync(path.join(repo, 'pages'))) {
    if (/\.mdx?$|^_meta\.ts$/.test(name)) fs.copyFileSync(path.join(repo, 'pages', name), path.join(root, 'pages', name))
  }
  fs.cpSync(path.join(repo, 'content'), path.join(root, 'content'), { recursive: true })
  fs.cpSync(path.join(repo, 'public'), path.join(root, 'public'), { recursive: true })
  return root
}

const body = (i: number, image: boolean) =>
  `---\ntitle: "Page ${i}"\ndescription: "About page ${i}"\n---\n\n# Page ${i}\n\nText.\n\n\`\`\`ts\nfetch('/api/x')\n\`\`\`\n${image ? `\n![Diagram ${i}](/img/diagram-${i}.png)\n` : ''}`

/** What `node gen-pages.mjs <dir> 5 nextra` writes, in miniature: the same layout and link forms. */
function genPagesOutput(): string {
  const dir = tempDir('anchor-gen-')
  const files: Record<string, string> = {
    'pages/docs/_meta.ts': "export default { leads: { type: 'page', title: 'Leads' } };\n",
    'pages/docs/leads/_meta.ts': 'export default {};\n',
    'pages/docs/leads/agent-batch-0.mdx': body(0, true),
    'pages/docs/internal/_meta.ts': 'export default {};\n',
    'pages/docs/internal/queue-topics/_meta.ts': 'export default {};\n',
    'pages/docs/internal/queue-topics/token-guides/_meta.ts': 'export default {};\n',
    'pages/docs/internal/cache-log-1.mdx': body(1, false),
    'pages/docs/internal/queue-topics/sms-sync-2.mdx': body(2, false),
    'pages/docs/internal/queue-topics/token-guides/voice-job-3.mdx': body(3, false),
    'pages/docs/support-twilio/_meta.ts': 'export default {};\n',
    'pages/docs/support-twilio/call-route-4.mdx': body(4, false),
    'public/img/diagram-0.png': 'png',
    'routes.txt': ['/docs/leads/agent-batch-0', '/docs/internal/cache-log-1', '/docs/internal/queue-topics/sms-sync-2', '/docs/internal/queue-topics/token-guides/voice-job-3', '/docs/support-twilio/call-route-4', ''].join('\n'),
  }
  for (const [file, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true })
    fs.writeFileSync(path.join(dir, file), text)
  }
  return dir
}

const read = (root: string, file: string) => fs.readFileSync(path.join(root, file), 'utf8')

test('generated pages replace each section, with entry stubs and images under the section, and pass the link check', () => {
  const project = projectCopy()
  const placed = placeAnchorPages(genPagesOutput(), project, SECTIONS)

  expect(placed.pages).toEqual([
    'content/docs/leads/agent-batch-0.mdx',
    'content/docs/internal/cache-log-1.mdx',
    'content/docs/internal/queue-topics/sms-sync-2.mdx',
    'content/docs/internal/queue-topics/token-guides/voice-job-3.mdx',
    'content/docs/support-twilio/call-route-4.mdx',
  ])
  expect(placed.stubs.sort()).toEqual(['content/docs/internal/intro.mdx', 'content/docs/leads/intro.mdx', 'content/docs/support-twilio/intro.mdx'])
  expect(placed.images).toBe(1)

  // Only the generated pages, the entry stubs and the docs root are left under content/docs.
  const mdx = fs.readdirSync(path.join(project, 'content/docs'), { recursive: true }).map(String).filter((name) => name.endsWith('.mdx')).sort()
  expect(mdx).toEqual(['index.mdx', ...placed.pages, ...placed.stubs].map((file) => file.replace(/^content\/docs\//, '')).sort())
  // The hand-written images went with the hand-written pages; the generated one moved under its section.
  expect(fs.readdirSync(path.join(project, 'public/docs'), { recursive: true }).map(String).sort()).toEqual(['leads', 'leads/images', 'leads/images/diagram-0.png'])
  expect(fs.existsSync(path.join(project, 'public/img'))).toBe(false)

  // The page body is unchanged but for the image's path.
  expect(read(project, 'content/docs/leads/agent-batch-0.mdx')).toBe(body(0, true).replace('/img/diagram-0.png', '/docs/leads/images/diagram-0.png'))
  expect(read(project, 'content/docs/internal/cache-log-1.mdx')).toBe(body(1, false))
  // The entry page comes first in its section; gen-pages' top-level _meta.ts is not used (pages/_meta.ts makes the tabs).
  expect(read(project, 'content/docs/leads/_meta.ts')).toBe('export default {\n  "intro": \'Introduction\',\n}\n')
  expect(read(project, 'content/docs/internal/queue-topics/_meta.ts')).toBe('export default {};\n')
  expect(fs.existsSync(path.join(project, 'content/docs/_meta.ts'))).toBe(false)
  expect(read(project, 'content/docs/leads/intro.mdx')).toContain('title: "Leads API"')

  expect(checkLinks(scanContent(project))).toEqual([])
})

test('the link check does read the generated pages: a missing image fails it', () => {
  const project = projectCopy()
  placeAnchorPages(genPagesOutput(), project, SECTIONS)
  fs.rmSync(path.join(project, 'public/docs/leads/images/diagram-0.png'))
  expect(checkLinks(scanContent(project))).toEqual([
    { file: 'content/docs/leads/agent-batch-0.mdx', line: 14, target: '/docs/leads/images/diagram-0.png', kind: 'missing', problem: 'missing file: public/docs/leads/images/diagram-0.png does not exist' },
  ])
})

test('a section the site does not declare fails the copy', () => {
  const generated = genPagesOutput()
  fs.mkdirSync(path.join(generated, 'pages/docs/sales'))
  expect(() => placeAnchorPages(generated, projectCopy(), SECTIONS)).toThrow('gen-pages wrote section(s) sales, which access.config.ts does not declare')
})

test('a missing anchors folder names DOCS_ANCHORS_SRC', () => {
  expect(() => anchorsSource(repo, { DOCS_ANCHORS_SRC: '/nonexistent/anchors' })).toThrow(/no Docusaurus anchors at \/nonexistent\/anchors: run\.sh and gen-pages\.mjs missing; from DOCS_ANCHORS_SRC=\/nonexistent\/anchors/)
})

// The real gen-pages.mjs, when the anchors folder is present (it lives outside this repository).
const anchors = (() => {
  try {
    return anchorsSource(repo)
  } catch {
    return null
  }
})()
;(anchors ? test : test.skip)('the real gen-pages output of 5 pages fits our layout and passes the link check', () => {
  const generated = tempDir('anchor-real-gen-')
  execFileSync(process.execPath, [path.join(anchors as string, 'gen-pages.mjs'), generated, '5', 'nextra'], { stdio: 'ignore' })
  const project = projectCopy()
  const placed = placeAnchorPages(generated, project, SECTIONS)
  expect(placed.pages).toHaveLength(5)
  expect(placed.images).toBe(1)
  for (const file of placed.pages) expect(read(project, file)).not.toMatch(/\]\(\/img\//)
  expect(checkLinks(scanContent(project))).toEqual([])
})
