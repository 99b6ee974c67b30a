/** @jest-environment node */
import { scanContent } from '../../pipeline/content/contentSource'
import path from 'node:path'
import shipped from '../../access.config'
import { compileAccess } from '../../lib/access'
import { checkLinks } from '../../pipeline/steps/checkLinks'
import { tempSite } from '../fixtures/tempSite'
import { compilePages } from '../../pipeline/compile/compilePages'
import { PageStore } from '../../pipeline/store/pageStore'

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

test("a link to this site's own address (copied from the address bar) is judged as the page its path names: a review's full https address to an internal page passed in a page, a card and a _meta", () => {
  const root = site({
    'content/docs/leads/intro.mdx': page('[plan](https://docs.example.com/docs/internal/intro) [env](https://docs.example.com/docs/leads/env) [other](https://other.example.com/docs/elsewhere)\n\n<Cards.Card title="Full" href="https://docs.example.com/docs/internal/intro.md" />'),
    'content/docs/leads/env.mdx': page('x'),
    'content/docs/internal/intro.mdx': page('x'),
    'content/docs/leads/_meta.ts': "export default {\n  intro: 'Intro',\n  secret: { title: 'Internal plan', href: 'https://docs.example.com/docs/internal/intro' },\n}\n",
  })
  const problem = 'an address whose path is this site\'s page /docs/internal/intro, which needs "internalUsers": this page\'s readers (who need "leadsUsers") may not open it, and the link names it to them; link this site\'s pages as site paths (/docs/…)'
  expect(checkLinks(scanContent(root))).toEqual([
    { file: 'content/docs/leads/intro.mdx', line: 6, target: 'https://docs.example.com/docs/internal/intro', kind: 'forbidden', problem },
    { file: 'content/docs/leads/intro.mdx', line: 8, target: 'https://docs.example.com/docs/internal/intro.md', kind: 'forbidden', problem },
    { file: 'content/docs/leads/_meta.ts', line: 3, target: 'https://docs.example.com/docs/internal/intro', kind: 'forbidden', problem },
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

test("a _meta link without a scheme (//host) fails as a page's does: the sidebar went out with it as a broken site path", () => {
  const root = site({
    'content/docs/leads/intro.mdx': page('x'),
    'content/docs/leads/_meta.ts': "export default {\n  intro: 'Intro',\n  away: { title: 'Away', href: '//evil.example/x' },\n  back: { title: 'Back', href: '/\\\\evil.example' },\n}\n",
  })
  expect(checkLinks(scanContent(root)).map(({ target, kind, problem }) => [target, kind, problem])).toEqual([
    ['//evil.example/x', 'broken', 'leaves the site without a scheme: write the full https:// address'],
    ['/\\evil.example', 'broken', 'leaves the site without a scheme: write the full https:// address'],
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

test('links the text spells in ways the scan does not read are found in the compiled documents: a reference link, link text over two lines, attributes written as code', async () => {
  const root = site({
    'next.config.ts': 'export default {}\n',
    'content/docs/leads/intro.mdx': page(
      [
        'Reference link to [the internal intro][int] here.',
        'A link whose text wraps [over two',
        'lines](/docs/leads/nowhere) in prose.',
        "<a href={'/docs/internal/intro'}>jsx</a>",
        '<Cards><Cards.Card title="Env" href="/docs/leads/intro" icon="📄" /></Cards>',
        '<a',
        '  href = "/docs/leads/gone">spaced</a>',
        '',
        '[int]: /docs/internal/intro',
      ].join('\n')
    ),
    'content/docs/internal/intro.mdx': page('x'),
  })
  const source = scanContent(root)
  expect(checkLinks(source)).toEqual([])
  const store = new PageStore(null)
  expect(await compilePages(source, store, { workers: 1 })).toMatchObject({ problems: [] })
  expect(checkLinks(source, undefined, store.pages)).toEqual([
    { file: 'content/docs/leads/intro.mdx', line: 9, target: '/docs/internal/intro', kind: 'forbidden', problem: 'links from a page that needs "leadsUsers" to one that needs "internalUsers"; its readers may not open it' },
    { file: 'content/docs/leads/intro.mdx', line: 8, target: '/docs/leads/nowhere', kind: 'broken', problem: 'broken link: no page has this route' },
    { file: 'content/docs/leads/intro.mdx', line: 12, target: '/docs/leads/gone', kind: 'broken', problem: 'broken link: no page has this route' },
  ])
})

test('a code block in a list item, indented, is a code block: a link in it is not checked', () => {
  const root = site({ 'content/docs/leads/intro.mdx': page('1. Install\n\n    ```html\n    <a href="/docs/internal/intro">x</a>\n    ```\n\nSee [missing](/docs/leads/nope).') })
  expect(checkLinks(scanContent(root)).map((problem) => problem.target)).toEqual(['/docs/leads/nope'])
})

test('a line that starts with inline code of three backticks opens no code block: the links after it are checked', () => {
  const root = site({ 'content/docs/leads/intro.mdx': page('```npm run build``` builds the site.\n\nSee [missing](/docs/leads/nope).') })
  expect(checkLinks(scanContent(root))).toEqual([{ file: 'content/docs/leads/intro.mdx', line: 8, target: '/docs/leads/nope', kind: 'broken', problem: 'broken link: no page has this route' }])
})

test("a _meta file's links are read from its data: a quoted `href` key and a menu's items are checked, and a URL of another scheme is refused", () => {
  const root = site({
    'content/docs/leads/intro.mdx': page('x'),
    'content/docs/internal/intro.mdx': page('x'),
    'content/docs/leads/_meta.ts': [
      'export default {',
      "  intro: 'Intro',",
      "  broken: { title: 'Broken', \"href\": '/docs/leads/gone' },",
      "  more: { title: 'More', type: 'menu', items: { a: { title: 'Internal intro', 'href': '/docs/internal/intro' } } },",
      "  js: { title: 'Click me', 'href': 'javascript:alert(document.cookie)' },",
      '}',
      '',
    ].join('\n'),
  })
  expect(checkLinks(scanContent(root))).toEqual([
    { file: 'content/docs/leads/_meta.ts', line: 3, target: '/docs/leads/gone', kind: 'broken', problem: 'broken link: no page has this route' },
    { file: 'content/docs/leads/_meta.ts', line: 4, target: '/docs/internal/intro', kind: 'forbidden', problem: 'links from a page that needs "leadsUsers" to one that needs "internalUsers"; its readers may not open it' },
    { file: 'content/docs/leads/_meta.ts', line: 5, target: 'javascript:alert(document.cookie)', kind: 'broken', problem: 'a `javascript:` URL: links are site paths (/docs/…), https://, http://, mailto: or tel: addresses' },
  ])
})

test("a _meta link is named at its own line however its value is spelt: with escapes, empty, or the same as an earlier one, past a comment that names a link", () => {
  const root = site({
    'content/docs/leads/intro.mdx': page('x'),
    'content/docs/leads/_meta.ts': [
      'export default {',
      "  intro: 'Intro',",
      "  // href: '/docs/leads/old', before it moved",
      "  first: { title: 'First', href: '/docs/leads/gone' },",
      "  escaped: { title: 'Escaped', href: '\\t//evil.example' },",
      "  empty: { title: 'Empty', href: '' },",
      "  again: { title: 'Again', href: '/docs/leads/gone' },",
      '}',
      '',
    ].join('\n'),
  })
  expect(checkLinks(scanContent(root)).map(({ line, target }) => [line, target])).toEqual([
    [4, '/docs/leads/gone'],
    [5, '\t//evil.example'],
    [6, ''],
    [7, '/docs/leads/gone'],
  ])
})

test("a link to a docs page on the reader's own machine (a preview's address) is refused, in a page or a _meta: it named a route to every reader and went nowhere; another local address is a service's", () => {
  const root = site({
    'content/docs/leads/intro.mdx': page('See [the plan](http://127.0.0.1:3000/docs/internal/intro), [mine](http://localhost/docs/leads/intro) and [theirs](https://127.0.0.1.example.com/docs). A local service is text: open http://localhost:8080/health or [the console](http://127.0.0.1:9000/).'),
    'content/docs/leads/_meta.ts': "export default {\n  intro: 'Intro',\n  plan: { title: 'Plan', href: 'HTTP://[::1]:3100/docs/internal/intro' },\n}\n",
  })
  const problem = "points at the reader's own machine (copied from a preview?): link a page as a site path (/docs/…)"
  expect(checkLinks(scanContent(root)).map(({ file, target, kind, problem: what }) => [file, target, kind, what])).toEqual([
    ['content/docs/leads/intro.mdx', 'http://127.0.0.1:3000/docs/internal/intro', 'broken', problem],
    ['content/docs/leads/intro.mdx', 'http://localhost/docs/leads/intro', 'broken', problem],
    ['content/docs/leads/_meta.ts', 'HTTP://[::1]:3100/docs/internal/intro', 'broken', problem],
  ])
})

test('an http(s) URL without its // is refused: a browser reads it as a path of this site, past the check of another site\'s links', () => {
  const root = site({ 'content/docs/leads/intro.mdx': page('See [the plan](https:/docs/internal/intro) and [ours](https://example.com/docs/internal/intro).') })
  expect(checkLinks(scanContent(root))).toEqual([
    { file: 'content/docs/leads/intro.mdx', line: 6, target: 'https:/docs/internal/intro', kind: 'broken', problem: 'a `https:` URL: links are site paths (/docs/…), https://, http://, mailto: or tel: addresses' },
  ])
})

test('a link with a % that starts no escape names its file and line', () => {
  const root = site({ 'content/docs/leads/intro.mdx': page('Download the [rate card](/docs/leads/files/rate-card-100%.pdf).') })
  expect(checkLinks(scanContent(root))).toEqual([{ file: 'content/docs/leads/intro.mdx', line: 6, target: '/docs/leads/files/rate-card-100%.pdf', kind: 'broken', problem: 'a % that starts no escape: write it as %25' }])
})

test('a link written twice is named at each line, so one build names every line to fix', () => {
  const root = site({ 'content/docs/leads/intro.mdx': page('See [missing](/docs/leads/nope).\n\nAgain, [missing](/docs/leads/nope).') })
  expect(checkLinks(scanContent(root)).map((problem) => [problem.line, problem.target])).toEqual([
    [6, '/docs/leads/nope'],
    [8, '/docs/leads/nope'],
  ])
})

test("a path that names a folder and climbs back out of it is refused (it would ship the name); dot segments that name nothing resolve as a browser resolves them, and a query's are no path", () => {
  const svg = '<svg xmlns="http://www.w3.org/2000/svg"/>'
  const climbs = 'climbs back out of a folder it names (…/name/..): the page would ship that name; write the path without it'
  const root = site({
    'content/docs/leads/intro.mdx': page(
      '![dotted](/docs/leads/images/./flow.svg) ![up](../leads/images/flow.svg) [q](intro?next=../../internal/intro) ![sub](/docs/leads/images/sub/../flow.svg) [theirs](/docs/internal/secret-plan/../../leads/intro) ![encoded](/docs/leads/%2e%2e/internal/images/dlq.svg)'
    ),
    'public/docs/leads/images/flow.svg': svg,
    'public/docs/internal/images/dlq.svg': svg,
  })
  expect(checkLinks(scanContent(root)).map(({ target, problem }) => [target, problem])).toEqual([
    ['/docs/leads/images/sub/../flow.svg', climbs],
    ['/docs/internal/secret-plan/../../leads/intro', climbs],
    ['/docs/leads/%2e%2e/internal/images/dlq.svg', climbs],
  ])
})

test("every spelling of this machine a browser reads as 127.0.0.1 is the reader's own machine: 127.1, 0x7f000001, localhost.", () => {
  const root = site({ 'content/docs/leads/intro.mdx': page('[a](http://127.1:3000/docs/internal/intro) [b](http://0x7f000001:3000/docs/internal/intro) [c](https://localhost./docs/leads/intro) [d](http://docs.localhost/docs) [e](http://127.1:9000/health) [f](http://[::ffff:127.0.0.1]:3000/docs/internal)') })
  expect(checkLinks(scanContent(root)).map(({ target, kind }) => [target, kind])).toEqual([
    ['http://127.1:3000/docs/internal/intro', 'broken'],
    ['http://0x7f000001:3000/docs/internal/intro', 'broken'],
    ['https://localhost./docs/leads/intro', 'broken'],
    ['http://docs.localhost/docs', 'broken'],
    ['http://[::ffff:127.0.0.1]:3000/docs/internal', 'broken'],
  ])
})

test("the compiled document's copy of a link the scan read, however it spells it, is not named a second time", () => {
  const root = site({ 'content/docs/leads/intro.mdx': page('[a](https:evil.example) [b](http://127.0.0.1:3000/docs/leads/intro) [c](\\\\evil.example/x)') })
  const source = scanContent(root)
  const compiled = { '/docs/leads/intro': { links: [[1, 'https:evil.example'], [1, 'http://127.0.0.1:3000/docs/leads/intro'], [1, '%5C%5Cevil.example/x']] as [number, string][] } }
  expect(checkLinks(source, undefined, compiled).map(({ line, target }) => [line, target])).toEqual([
    [6, 'https:evil.example'],
    [6, 'http://127.0.0.1:3000/docs/leads/intro'],
    [6, '\\\\evil.example/x'],
  ])
})

test("a link to a heading that is not there (renamed) is a broken link, on another page and on its own; one to a heading that is, with or without the ids' prefix, passes", async () => {
  const root = site({
    'next.config.ts': 'export default {}\n',
    'content/docs/leads/intro.mdx': page(['See [the part](/docs/leads/other#the-part), [renamed](/docs/leads/other#the-old-part), [relative](other#the-part).', '', 'And [here](#own-heading), [gone](#gone-heading), [top](#top), [a phrase](#:~:text=some%20text), [in a part](/docs/leads/other#the-part:~:text=Text).', '', '## Own heading', '', 'Text.'].join('\n')),
    'content/docs/leads/other.mdx': page('## The part\n\nText.'),
  })
  const source = scanContent(root)
  const store = new PageStore(null)
  expect(await compilePages(source, store, { workers: 1 })).toMatchObject({ problems: [] })
  expect(checkLinks(source, undefined, store.pages).map(({ line, target, problem }) => [line, target, problem])).toEqual([
    [6, '/docs/leads/other#the-old-part', 'broken link: /docs/leads/other has no heading or element with the id "the-old-part" (a heading renamed?)'],
    [8, '#gone-heading', 'broken link: /docs/leads/intro has no heading or element with the id "gone-heading" (a heading renamed?)'],
  ])
})

test('a relative link only the compile finds (a reference, link text over two lines) is named as the writer spelt it, at its line, though the page holds its site path', async () => {
  const root = site({
    'next.config.ts': 'export default {}\n',
    'content/docs/leads/a/intro.mdx': page(['See [gone][r] and [multi', 'line](../nope3).', '', '[r]: ../nope'].join('\n')),
  })
  const source = scanContent(root)
  const store = new PageStore(null)
  expect(await compilePages(source, store, { workers: 1 })).toMatchObject({ problems: [] })
  expect(checkLinks(source, undefined, store.pages).map(({ line, target }) => [line, target])).toEqual([
    [9, '../nope'],
    [7, '../nope3'],
  ])
})

test("a link that is only a query (`?tab=2`, `?tab=2#setup`) leads to its own page, as a browser reads it, not to the page's folder", () => {
  const root = site({ 'content/docs/leads/guides/setup.mdx': page('[tab](?tab=2) [heading](?tab=2#t)') })
  expect(checkLinks(scanContent(root))).toEqual([])
})

test("a _meta link whose value is also a key of the file (`setup: 'Setup'` above `href: 'setup'`) is named at its href's line, not the key's", () => {
  const root = site({
    'content/docs/leads/guides/setup.mdx': page('x'),
    'content/docs/leads/guides/_meta.ts': ['export default {', "  setup: 'Setup',", "  'back': { title: 'Back', \"href\" : \"setup\" },", "  again: { title: 'Again', href: `setup` },", '}', ''].join('\n'),
  })
  expect(checkLinks(scanContent(root)).map(({ line, target }) => [line, target])).toEqual([
    [3, 'setup'],
    [4, 'setup'],
  ])
})
