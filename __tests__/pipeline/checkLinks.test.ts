/** @jest-environment node */
import { scanContent } from '../../pipeline/content/contentSource'
import path from 'node:path'
import shipped from '../../access.config'
import { compileAccess } from '../../lib/access'
import { checkLinks } from '../../pipeline/steps/checkLinks'
import { tempSite } from '../fixtures/tempSite'

/** A tiny site on disk: the checker reads files the way the build does. */
const site = (files: Record<string, string>) => tempSite('links-', { 'pages/': '', ...files })

const page = (body: string) => `---\ntitle: T\n---\n# T\n\n${body}\n`

test('the real content has no broken link', () => {
  expect(checkLinks(scanContent(path.resolve(__dirname, '../..')))).toEqual([])
})

test('a broken link names the file, line and target', () => {
  const root = site({ 'content/docs/leads/intro.mdx': page('See [missing](/docs/leads/nope).') })
  expect(checkLinks(scanContent(root))).toEqual([{ file: 'content/docs/leads/intro.mdx', line: 6, target: '/docs/leads/nope', kind: 'broken', problem: 'broken link: no page has this route' }])
})

test('a missing image fails', () => {
  const root = site({ 'content/docs/leads/intro.mdx': page('![flow](/docs/leads/images/flow.svg)') })
  expect(checkLinks(scanContent(root))[0]).toMatchObject({ target: '/docs/leads/images/flow.svg', problem: 'missing file: public/docs/leads/images/flow.svg does not exist' })
})

test('links into a section the page\'s readers may not open fail; links within the section, home and anchors pass', () => {
  const root = site({
    'content/docs/leads/intro.mdx': page('[a](/docs/internal/intro) [b](/docs/leads/env) [c](/) [d](#top) [e](./env) [f](https://example.com)'),
    'content/docs/leads/env.mdx': page('x'),
    'content/docs/internal/intro.mdx': page('x'),
    'content/index.mdx': page('home'),
  })
  expect(checkLinks(scanContent(root))).toEqual([
    { file: 'content/docs/leads/intro.mdx', line: 6, target: '/docs/internal/intro', kind: 'forbidden', problem: 'links from a page that needs "leadsUsers" to one that needs "internalUsers"; its readers may not open it' },
  ])
})

test('links inside code blocks are not checked', () => {
  const root = site({ 'content/docs/leads/intro.mdx': page('```md\n[x](/docs/leads/nowhere)\n```') })
  expect(checkLinks(scanContent(root))).toEqual([])
})

test("a _meta link ships in every page of its section's JavaScript, so it may only lead where the section's readers may go", () => {
  const root = site({
    'content/docs/leads/intro.mdx': page('x'),
    'content/docs/internal/intro.mdx': page('x'),
    'content/docs/leads/_meta.ts': "export default {\n  intro: 'Intro',\n  deploy: { title: 'How we deploy', href: '/docs/internal/intro' },\n  status: { title: 'Status', href: 'https://status.example.com' },\n}\n",
    'content/docs/internal/_meta.ts': "export default {\n  quotes: { title: 'Quotes', href: '/docs/leads/nope' },\n}\n",
  })
  expect(checkLinks(scanContent(root))).toEqual([
    { file: 'content/docs/internal/_meta.ts', line: 2, target: '/docs/leads/nope', kind: 'broken', problem: 'broken link: no page has this route' },
    { file: 'content/docs/leads/_meta.ts', line: 3, target: '/docs/internal/intro', kind: 'forbidden', problem: 'links from a page that needs "leadsUsers" to one that needs "internalUsers"; its readers may not open it' },
  ])
})

test("an image its page's readers may not fetch fails, naming where it belongs: a restricted folder's page cannot use its section's images", () => {
  const finance = '/docs/internal/to-be-refined/finance'
  const rules = compileAccess({ ...shipped, lists: { ...shipped.lists, financeUsers: 'support1' }, rules: [{ path: finance, match: 'prefix', require: 'financeUsers' }, ...shipped.rules] }, {})
  const root = site({
    'content/docs/internal/to-be-refined/finance/quill.mdx': page(`![ledger](/docs/internal/images/ledger.svg) ![own](${finance}/images/own.svg)`),
    'content/docs/internal/intro.mdx': page('![ledger](/docs/internal/images/ledger.svg)'),
    'public/docs/internal/images/ledger.svg': '<svg xmlns="http://www.w3.org/2000/svg"/>',
    [`public${finance}/images/own.svg`]: '<svg xmlns="http://www.w3.org/2000/svg"/>',
  })
  expect(checkLinks(scanContent(root), rules)).toEqual([
    {
      file: 'content/docs/internal/to-be-refined/finance/quill.mdx',
      line: 6,
      target: '/docs/internal/images/ledger.svg',
      kind: 'forbidden',
      problem: `a page that needs "financeUsers" uses a file that needs "internalUsers"; its readers may not fetch it (move it under public${finance}/images/)`,
    },
  ])
  expect(checkLinks(scanContent(root))).toEqual([])
})
