/**
 * @jest-environment node
 *
 * A page holds text, Markdown, the tags and attributes of an allowlist and the site's components:
 * nothing that runs in a reader's browser. A writer of one section must not be able to run script
 * in the session of whoever opens their page (an admin included), so the content step refuses,
 * at the construct's line and column and with the fix, every way of writing one that a writer
 * might try; and a page that holds one does not build.
 */
import { scanContent } from '../../pipeline/content/contentSource'
import { spawnSync } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { compilePages } from '../../pipeline/compile/compilePages'
import { copyProject } from '../../scripts/audit/copyProject'
import type { PageDocument, TreeNode } from '../../lib/render/pageDocument'
import { compileWithWorker, project } from './helpers/compileDocs'

jest.setTimeout(180_000)

const roots: string[] = []
afterAll(() => roots.forEach((root) => fs.rmSync(root, { recursive: true, force: true })))

/** Front matter on lines 1-3, a blank line, the heading on line 5, a blank line: the body starts on line 7. */
const page = (body: string) => `---\ntitle: T\n---\n\n# T\n\n${body}\n`

/** Compiles one page per case; for each case, the problem its page was refused with (or 'ok'). */
async function verdicts(cases: Record<string, string>, pageOf: (body: string) => string = page): Promise<Record<string, string>> {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'page-sanitizer-'))
  roots.push(root)
  const names = Object.keys(cases)
  names.forEach((name, at) => {
    fs.mkdirSync(path.join(root, 'content'), { recursive: true })
    fs.writeFileSync(path.join(root, `content/p${at}.mdx`), pageOf(cases[name]))
  })
  const report = await compilePages(scanContent(root))
  return Object.fromEntries(
    names.map((name, at) => {
      const problem = report.problems.find((each) => each.message.startsWith(`content/p${at}.mdx:`))
      return [name, problem ? problem.message.slice(`content/p${at}.mdx:`.length) : 'ok']
    })
  )
}

test('tags that run, load or embed code are refused by name, where they start', async () => {
  const tags = ['script', 'style', 'iframe', 'object', 'embed', 'base', 'meta', 'link', 'form', 'svg', 'template', 'noscript']
  const found = await verdicts(Object.fromEntries(tags.map((tag) => [tag, `Text.\n\n<${tag}>x</${tag}>`])))
  for (const tag of tags) expect(found[tag]).toMatch(new RegExp(`^9:1: \`<${tag}>\` .+; pages hold text, Markdown and the site's components, nothing that runs or loads$`))
  // Inline, in a paragraph: the column is the tag's.
  expect(await verdicts({ inline: 'Some text <script>alert(1)</script> here.' })).toEqual({ inline: expect.stringMatching(/^7:11: `<script>` runs code/) })
})

test('tags outside the allowlist are refused, and the message lists the ones that pass', async () => {
  const found = await verdicts({ video: '<video src="/docs/leads/a.mp4" />', input: '<input type="text" />', ok: '<details open>\n<summary>More</summary>\n\nPress <kbd>Ctrl</kbd>, H<sub>2</sub>O <img src="/docs/leads/images/a.png" alt="A" width={20} />\n\n</details>' })
  expect(found.video).toMatch(/^7:1: `<video>` is not a tag pages can use; use Markdown or one of a, b, blockquote, /)
  expect(found.input).toBe('7:8: `<input type="text">` is not an attribute pages can use on <input>')
  expect(found.ok).toBe('ok')
})

test("an <input> is a task list's disabled checkbox or nothing: a bare one was a field readers could type into (a review's password prompt)", async () => {
  const found = await verdicts({
    bare: 'Type your password to continue: <input />',
    enabled: '<input type="checkbox" />',
    named: '<input name="password" maxLength={40} />',
    box: '<input type="checkbox" disabled /> Done',
    checked: '<input type="checkbox" disabled checked /> Done',
    task: '- [ ] To do\n- [x] Done',
  })
  const message = "`<input>` must be written `<input disabled type=\"checkbox\" />` (a task list's box; Markdown's `- [ ]` makes one): a page holds no field a reader could type into"
  expect(found).toEqual({ bare: `7:33: ${message}`, enabled: `7:1: ${message}`, named: `7:1: ${message}`, box: 'ok', checked: 'ok', task: 'ok' })
})

test("a role is the content's, and the tab order and the keyboard's keys are the site's: a review's alert, banner and search landmarks, tabIndex=\"1\" and accessKey posed as site chrome to screen readers and keyboards", async () => {
  const found = await verdicts({
    alert: '<div role="alert">Your session has expired. Sign in again.</div>',
    banner: '<div role="banner" aria-label="Platform Docs">x</div>',
    search: '<div role="search">x</div>',
    tab: '<a href="https://example.com" tabIndex="1">first</a>',
    key: '<a href="https://example.com" accessKey="s">key</a>',
    note: '<div role="note">A note.</div> <span role="img" aria-label="warning">!</span> <div tabIndex="0">scrollable</div> <div tabIndex={-1}>x</div>',
  })
  expect(found.alert).toMatch(/^7:6: `<div role="alert">`: a page's roles are its content's \(note, img, .*\); an alert, a landmark or a control would pose as the site's own to a screen reader$/)
  expect(found.banner).toMatch(/^7:6: `<div role="banner">`/)
  expect(found.search).toMatch(/^7:6: `<div role="search">`/)
  expect(found.tab).toBe('7:31: `<a tabIndex="1">` puts the element ahead of the site\'s own (skip link, sign-out, search) in the tab order: write 0 or -1')
  expect(found.key).toBe("7:31: `<a accessKey>` binds a key of the reader's keyboard, which is the site's to bind")
  expect(found.note).toBe('ok')
})

test("a Tabs.Tab outside Tabs is refused where it starts: a review's orphan tab failed the render after the compile, naming neither file nor line", async () => {
  const found = await verdicts({
    orphan: '<Tabs.Tab>orphan tab</Tabs.Tab>',
    inDiv: '<div>\n<Tabs.Tab>in a div</Tabs.Tab>\n</div>',
    nested: "<Tabs items={['a', 'b']}>\n<Tabs.Tab>one</Tabs.Tab>\n<Tabs.Tab>\n<div>two</div>\n</Tabs.Tab>\n</Tabs>",
    aliased: "import { Tabs as T } from 'nextra/components'\n\n<T items={['a']}>\n<T.Tab>one</T.Tab>\n</T>",
  })
  expect(found.orphan).toBe('7:1: `<Tabs.Tab>` is drawn only inside `<Tabs>`: put it in one (<Tabs items={[…]}>…</Tabs>)')
  expect(found.inDiv).toMatch(/^8:1: `<Tabs.Tab>` is drawn only inside `<Tabs>`/)
  expect(found.nested).toBe('ok')
  expect(found.aliased).toBe('ok')
})

test('event handlers, dangerouslySetInnerHTML and srcDoc are refused on any tag and any component', async () => {
  const found = await verdicts({
    review: '<div dangerouslySetInnerHTML={{__html: "<script>window.injectedRan=1</script>"}} />',
    handler: '<img src="/docs/leads/images/a.png" onError="alert(1)" />',
    upper: '<p ONCLICK="go()">x</p>',
    srcdoc: '<div srcDoc="<script>x</script>">x</div>',
    component: '<Callout type="info" dangerouslySetInnerHTML={{__html: "<img src=x onerror=alert(1)>"}}>x</Callout>',
    componentHandler: '<Cards.Card title="A" href="/docs/leads/a" onMouseOver="go()" />',
  })
  expect(found.review).toBe('7:6: `<div dangerouslySetInnerHTML>` puts raw HTML into the page, which the site cannot check; write the content as Markdown or JSX')
  expect(found.handler).toBe("7:37: `<img onError>`: event handlers run code in the reader's browser; pages cannot hold them")
  expect(found.upper).toBe("7:4: `<p ONCLICK>`: event handlers run code in the reader's browser; pages cannot hold them")
  expect(found.srcdoc).toBe('7:6: `<div srcDoc>` puts raw HTML into the page, which the site cannot check; write the content as Markdown or JSX')
  expect(found.component).toBe('7:22: `<Callout dangerouslySetInnerHTML>` puts raw HTML into the page, which the site cannot check; write the content as Markdown or JSX')
  expect(found.componentHandler).toBe("7:44: `<Cards.Card onMouseOver>`: event handlers run code in the reader's browser; pages cannot hold them")
})

test("a class or a data attribute is refused: the site's style sheets give them meaning, which could cover the window", async () => {
  const found = await verdicts({
    overlay: `<div className="_fixed _inset-0 medium-zoom-overlay">Your session has expired.</div>`,
    modal: '<div data-amplify-authenticator data-variation="modal">Sign in again</div>',
    code: '<code className="language-js _fixed _inset-0 _z-50 _bg-white">Your session has expired</code>',
  })
  expect(found.overlay).toBe("7:6: `<div className>` is not an attribute pages can use: the site's style sheets give classes meaning; style an element with `style`")
  expect(found.code).toBe("7:7: `<code className>` is not an attribute pages can use: the site's style sheets give classes meaning; style an element with `style`")
  expect(found.modal).toBe('7:6: `<div data-amplify-authenticator>` is not an attribute pages can use on <div>')
})

test('a component takes only its own props (the rest would reach an HTML element)', async () => {
  const found = await verdicts({ extra: '<Callout type="info" className="x">y</Callout>', ok: '<Callout type="warning" emoji="!">y</Callout>\n\n<Cards num={2}><Cards.Card title="A" href="/docs/leads/a" arrow /></Cards>' })
  expect(found.extra).toBe('7:22: `<Callout className>`: Callout takes `type`, `emoji`')
  expect(found.ok).toBe('ok')
})

test("a component's props hold what the component expects: Cards' columns, Tabs' titles, index and storage name", async () => {
  const found = await verdicts({
    num: '<Cards num="1;background-image:url(/docs/internal/images/dlq-flow.svg)"><Cards.Card title="A" href="/docs/leads/a" /></Cards>',
    numZero: '<Cards num={0}><Cards.Card title="A" href="/docs/leads/a" /></Cards>',
    items: '<Tabs items="ab"><Tabs.Tab>x</Tabs.Tab></Tabs>',
    itemObjects: '<Tabs items={[{ label: { a: 1 } }]}><Tabs.Tab>x</Tabs.Tab></Tabs>',
    siteKey: "<Tabs items={['A', 'B']} storageKey=\"theme\"><Tabs.Tab>a</Tabs.Tab><Tabs.Tab>b</Tabs.Tab></Tabs>",
    index: "<Tabs items={['A', 'B']} defaultIndex=\"1\"><Tabs.Tab>a</Tabs.Tab><Tabs.Tab>b</Tabs.Tab></Tabs>",
    ok: "<Cards num={3}><Cards.Card title=\"A\" href=\"/docs/leads/a\" /></Cards>\n\n<Tabs items={['npm', 'yarn', 2]} defaultIndex={1} storageKey=\"tabs-package-manager\"><Tabs.Tab>a</Tabs.Tab><Tabs.Tab>b</Tabs.Tab><Tabs.Tab>c</Tabs.Tab></Tabs>",
  })
  expect(found.num).toBe('7:8: `<Cards num>` is the number of columns, a whole number from 1 to 12, written num={2}')
  expect(found.numZero).toMatch(/`<Cards num>` is the number of columns/)
  expect(found.items).toBe("7:7: `<Tabs items>` is the tabs' titles, a list of text: items={['First', 'Second']}")
  expect(found.itemObjects).toMatch(/`<Tabs items>` is the tabs' titles/)
  expect(found.siteKey).toMatch(/`<Tabs storageKey>` is the name tabs that change together share, "tabs-" and lowercase letters/)
  expect(found.index).toMatch(/`<Tabs defaultIndex>` is the index of a tab/)
  expect(found.ok).toBe('ok')
})

test("a component's text and switch props hold text and true or false: an object there failed the render on another page, naming neither file nor line", async () => {
  const found = await verdicts({
    emoji: "<Callout type=\"info\" emoji={{ icon: 'x' }}>Callout body.</Callout>",
    calloutType: '<Callout type="constructor">Callout body.</Callout>',
    cardWithoutLink: '<Cards><Cards.Card title="A" /></Cards>',
    tabsWithoutTitles: '<Tabs><Tabs.Tab>a</Tabs.Tab></Tabs>',
    cardTitle: '<Cards><Cards.Card title={{ t: 1 }} href="/docs/leads/intro" /></Cards>',
    folderName: '<FileTree><FileTree.Folder name={{ n: 1 }} /></FileTree>',
    open: '<FileTree><FileTree.Folder name="a" open="yes" /></FileTree>',
    ok: '<Callout type="info" emoji="!">y</Callout>\n\n<FileTree><FileTree.Folder name="content" defaultOpen><FileTree.File name="index.mdx" active /></FileTree.Folder></FileTree>',
  })
  expect(found.emoji).toBe('7:22: `<Callout emoji>` is text, written in quotes ("…"), or null for none')
  expect(found.calloutType).toBe('7:10: `<Callout type>` is one of "default", "info", "warning", "error" (another drew a callout of no colour)')
  expect(found.cardWithoutLink).toBe('7:8: `<Cards.Card>` needs `href`: a link, written in quotes (href="/docs/leads/intro")')
  expect(found.tabsWithoutTitles).toMatch(/^7:1: `<Tabs>` needs `items`: the tabs' titles/)
  expect(found.cardTitle).toMatch(/`<Cards.Card title>` is text/)
  expect(found.folderName).toMatch(/`<FileTree.Folder name>` is text/)
  expect(found.open).toMatch(/`<FileTree.Folder open>` is true or false/)
  expect(found.ok).toBe('ok')
})

test('URLs: only site paths, https, http and mailto, however the scheme is spelt', async () => {
  const bad = {
    plain: '<a href="javascript:alert(1)">x</a>',
    mixedCase: '<a href="JaVaScRiPt:alert(1)">x</a>',
    numericReference: '<a href="java&#115;cript:alert(1)">x</a>',
    hexReference: '<a href="&#x6A;avascript:alert(1)">x</a>',
    namedColon: '<a href="javascript&colon;alert(1)">x</a>',
    spaced: '<a href="  javascript:alert(1)">x</a>',
    tabbed: '<a href={"java\\tscript:alert(1)"}>x</a>',
    data: '<img src="data:image/svg+xml,<svg onload=alert(1)>" alt="x" />',
    vbscript: '<a href="vbscript:msgbox(1)">x</a>',
    protocolRelative: '<a href="//evil.example/steal">x</a>',
    backslashes: '<a href="\\\\evil.example/steal">x</a>',
    srcSet: '<picture><source srcSet="/docs/leads/images/a.png 1x, javascript:alert(1) 2x" /></picture>',
    markdownLink: 'A [link](javascript:alert(1)) here.',
    markdownImage: '![chart](data:image/png;base64,AAAA)',
    markdownReference: 'A [link][r] here.\n\n[r]: javascript:alert(1)',
    component: '<Cards><Cards.Card title="A" href="javascript:alert(1)" /></Cards>',
  }
  const found = await verdicts(bad)
  for (const [name, verdict] of Object.entries(found)) {
    expect([name, verdict]).toEqual([name, expect.stringMatching(/^\d+:\d+: `<[A-Za-z.]+>`: `(href|src|srcSet)=".*` (is a .+ URL: a page's links and images are site paths \(\/docs\/…\), https:\/\/, http:\/\/ or mailto: addresses|leaves the site without a scheme: write the full https:\/\/ address)$|: an image is embedded by its path on this site/)])
  }
  expect(found.markdownLink).toMatch(/^7:3: `<a>`: `href="javascript:alert\(1\)"` is a `javascript:` URL/)
  expect(found.numericReference).toMatch(/`javascript:` URL/)
  const good = await verdicts({
    links: '[a](/docs/leads/a) [b](./b) [c](#c) [d](?q=1) [e](https://example.com/x) [f](http://example.com) [g](mailto:docs@example.com) [h](../x/y)',
    tags: '<a href="https://example.com" target="_blank" rel="noopener noreferrer">x</a> <img src="/docs/leads/images/a.png" alt="A" />',
    colonInPath: '<a href="/docs/leads/a:b">x</a>',
  })
  expect(good).toEqual({ links: 'ok', tags: 'ok', colonInPath: 'ok' })
  // An image by an address: another site's the policy never loads; this site's own would skip the check of who may fetch it.
  const addressed = await verdicts({
    markdown: '![Overview](http://127.0.0.1:3000/docs/internal/images/data-lake-overview.svg)',
    tag: '<img src="https://docs.example.com/docs/internal/images/a.png" alt="A" />',
    srcSet: '<picture><source srcSet="/docs/leads/images/a.png 1x, https://docs.example.com/docs/internal/b.png 2x" /></picture>',
  })
  for (const verdict of Object.values(addressed)) expect(verdict).toMatch(/an image is embedded by its path on this site \(\/docs\/<section>\/images\/…\), never by an address$/)
})

test('inline styles hold values, never a file to load or escaped characters', async () => {
  const found = await verdicts({
    url: '<div style={{ backgroundColor: "url(https://evil.example/x.png)" }}>x</div>',
    escaped: '<div style={{ color: "u\\\\72l(x)" }}>x</div>',
    // `background` takes url(): only `backgroundColor` is on the list.
    shorthand: '<div style={{ background: "red" }}>x</div>',
    ok: '<div style={{ color: "red", marginTop: 4, width: "calc(100% - 2px)" }}>x</div>',
  })
  expect(found.url).toMatch(/^7:6: `<div style>`: the style `backgroundColor: url\(https:\/\/evil\.example\/x\.png\)` loads a file, escapes characters or ends its declaration/)
  expect(found.escaped).toMatch(/^7:6: `<div style>`: the style `color: /)
  expect(found.shorthand).toMatch(/^7:6: `<div style>`: the style `background` can take content out of its place or is not one pages use/)
  expect(found.ok).toBe('ok')
})

/** The documents the worker makes of `cases`, one page each. */
async function documents(cases: Record<string, string>): Promise<Record<string, PageDocument>> {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'page-sanitizer-docs-'))
  roots.push(root)
  fs.mkdirSync(path.join(root, 'content'))
  const names = Object.keys(cases)
  names.forEach((name, at) => fs.writeFileSync(path.join(root, `content/p${at}.mdx`), page(cases[name])))
  const compiled = await compileWithWorker(root, names.map((_, at) => `content/p${at}.mdx`))
  return Object.fromEntries(
    names.map((name, at) => {
      const message = compiled[`content/p${at}.mdx`]
      if (!message.ok) throw new Error(`${name}: ${message.error.reason}`)
      return [name, message.output]
    })
  )
}

/** Each element's [tag, property, value] for the properties named. */
function propertiesOf(nodes: readonly TreeNode[], names: string[]): [string, string, unknown][] {
  return nodes.flatMap((node) =>
    node.type === 'element' ? [...names.filter((name) => name in node.properties).map((name): [string, string, unknown] => [node.tagName, name, node.properties[name]]), ...propertiesOf(node.children, names)] : []
  )
}

test("no id or name of a page can be one of the site's: each carries the clobber prefix, headings' and the table of contents' included", async () => {
  const docs = await documents({
    nextData: '<div id="__NEXT_DATA__" hidden>\\{"page":"/evil"\\}</div>',
    name: '<a name="__next" href="/docs/leads/a">x</a>',
    expression: '<div id={"__next"}>x</div>',
    aria: '<span id="hint">h</span> <span aria-describedby="hint">x</span>',
    headings: '## __next\n\n## Intro [#next-data]',
  })
  expect(propertiesOf(docs.nextData.tree, ['id'])).toEqual([['div', 'id', 'user-content-__NEXT_DATA__']])
  expect(propertiesOf(docs.name.tree, ['name'])).toEqual([['a', 'name', 'user-content-__next']])
  expect(propertiesOf(docs.expression.tree, ['id'])).toEqual([['div', 'id', 'user-content-__next']])
  expect(propertiesOf(docs.aria.tree, ['id', 'aria-describedby'])).toEqual([
    ['span', 'id', 'user-content-hint'],
    ['span', 'aria-describedby', 'user-content-hint'],
  ])
  // Heading ids are the writer's too (their text, or `[#id]`, which Nextra slugs): prefixed, and the TOC with them.
  expect(propertiesOf(docs.headings.tree, ['id'])).toEqual([
    ['h2', 'id', 'user-content-__next'],
    ['h2', 'id', 'user-content-next-data'],
  ])
  expect(docs.headings.toc.map((entry) => entry.id)).toEqual(['user-content-__next', 'user-content-next-data'])
  // Search results link to the heading's own id.
  expect(Object.keys(docs.headings.structurizedData ?? {}).filter(Boolean)).toEqual(['user-content-__next#__next', 'user-content-next-data#Intro'])
})

test('an attribute written {null} is refused: React writes none, and the page would have held an id `user-content-null` its writer never wrote', async () => {
  const found = await verdicts({ id: '<div id={null}>x</div>', aria: '<span aria-describedby={null}>x</span>', title: '<q title={null}>x</q>', text: '<div id={"intro"}>x</div>' })
  expect(found).toEqual({
    id: '7:6: `<div id={null}>` writes no attribute: leave it out',
    aria: '7:7: `<span aria-describedby={null}>` writes no attribute: leave it out',
    title: '7:4: `<q title={null}>` writes no attribute: leave it out',
    text: 'ok',
  })
})

test('a link cannot hand the docs tab to the page it opens: rel="opener" is refused, and a target needs rel="noopener noreferrer"', async () => {
  const found = await verdicts({
    opener: '<a href="https://example.com" target="_blank" rel="opener">x</a>',
    openerAlone: 'See <a href="https://example.com" rel="noopener opener">x</a>.',
    noRel: '<a href="https://example.com" target="_blank">x</a>',
    halfRel: '<a href="https://example.com" rel="noreferrer" target="docs">x</a>',
    ok: '<a href="https://example.com" target="_blank" rel="noopener noreferrer">x</a> <a href="/docs/leads/a" target="_self">y</a>',
  })
  expect(found.opener).toBe('7:47: `<a rel="opener">` lets the page the link opens take over the docs tab (window.opener); write rel="noopener noreferrer"')
  expect(found.openerAlone).toMatch(/^7:35: `<a rel="opener">` lets the page the link opens take over the docs tab/)
  expect(found.noRel).toBe('7:31: `<a target="_blank">` needs rel="noopener noreferrer", so the page it opens cannot reach back to the docs tab')
  expect(found.halfRel).toBe('7:48: `<a target="docs">` needs rel="noopener noreferrer", so the page it opens cannot reach back to the docs tab')
  expect(found.ok).toBe('ok')
})

test("a style cannot take content out of its place: no position, z-index, offsets or transforms, no negative margins, no declaration of its own", async () => {
  const found = await verdicts({
    overlay: '<div style={{ position: "fixed", top: 0, left: 0, width: "100vw", height: "100vh", zIndex: 2147483647, backgroundColor: "white" }}>Your session expired. Sign in again.</div>',
    sticky: '<div style={{ position: "sticky", top: 0 }}>x</div>',
    zIndex: '<div style={{ zIndex: 10 }}>x</div>',
    transform: '<div style={{ transform: "translateY(-500px)" }}>x</div>',
    negativeMargin: '<div style={{ marginTop: -400 }}>x</div>',
    computedMargin: '<div style={{ marginTop: "calc(0px - 400px)" }}>x</div>',
    // React writes a value into the HTML as it is: `;` would start a declaration of the writer's.
    injected: '<div style={{ color: "red;position:fixed;inset:0" }}>x</div>',
    ok: '<div style={{ color: "red", backgroundColor: "#eee", marginTop: "1rem", padding: 8, textAlign: "center" }}>x</div>',
    // Set as an object's prototype, its styles were dropped without a word (a writers' probe).
    proto: '<div style={{ color: "red", __proto__: { position: "fixed", top: "0" } }}>x</div>',
    quotedProto: '<div style={{ "__proto__": { zIndex: "999" } }}>x</div>',
  })
  expect(found.proto).toMatch(/^7:29: `<div style=\{…\}>` holds the key `__proto__`, which a page cannot compute/)
  expect(found.quotedProto).toMatch(/`<div style=\{…\}>` holds the key `__proto__`/)
  expect(found.overlay).toMatch(/^7:6: `<div style>`: the style `position` can take content out of its place or is not one pages use; a page's styles are `color`/)
  expect(found.sticky).toMatch(/^7:6: `<div style>`: the style `position` can take content out of its place/)
  expect(found.zIndex).toMatch(/^7:6: `<div style>`: the style `zIndex` can take content out of its place/)
  expect(found.transform).toMatch(/^7:6: `<div style>`: the style `transform` can take content out of its place/)
  expect(found.negativeMargin).toBe('7:6: `<div style>`: the style `marginTop: -400` moves the element out of its place: margins are 0, auto or positive lengths')
  expect(found.computedMargin).toMatch(/^7:6: `<div style>`: the style `marginTop: calc\(0px - 400px\)` moves the element out of its place/)
  expect(found.injected).toMatch(/^7:6: `<div style>`: the style `color: red;position:fixed;inset:0` loads a file, escapes characters or ends its declaration/)
  expect(found.ok).toBe('ok')
})

test('a twoslash code block is refused where it starts, and the compile runs no TypeScript on a page', async () => {
  const found = await verdicts({
    twoslash: 'Text.\n\n```ts twoslash\nconst a = 1\n//    ^?\n```',
    withFile: '```ts filename="a.ts" twoslash\nconst a = 1\n```',
    plain: '```ts filename="a.ts"\nconst a = 1\n```',
  })
  expect(found.twoslash).toBe("9:1: `twoslash` code blocks run the TypeScript compiler on the page's code at build time, which pages cannot do: write a plain ```ts block")
  expect(found.withFile).toMatch(/^7:1: `twoslash` code blocks run the TypeScript compiler/)
  expect(found.plain).toBe('ok')
  const worker = fs.readFileSync(path.join(project, 'pipeline/compile/compileWorker.mjs'), 'utf8')
  expect(worker).not.toMatch(/transformerTwoslash|@shikijs\/twoslash/)
})

test('a code block whose line or match ranges name billions, or that has a title=, is refused where it starts, not the end of the build process or a compile error with no line', async () => {
  const found = await verdicts({
    lines: '```js {1-2000000000}\nconst a = 1\n```',
    matches: '```js /a/1-2000000000\nconst a = 1\n```',
    dots: '```js {1..2000000000}\nconst a = 1\n```',
    backwards: '```js {2000000000-1}\nconst a = 1\n```',
    negative: '```js {-2000000000-0}\nconst a = 1\n```',
    quoted: "```js '{1-2000000000}'\nconst a = 1\n```",
    many: `\`\`\`js {${Array(3).fill('1-5000').join(',')}}\nconst a = 1\n\`\`\``,
    ok: '```js {1-3,5} /a/1-2 filename="years 1999-2000000000"\nconst a = 1\n```',
    literal: '```bash /1024-65535/\nports 1024-65535\n```',
    title: '```js title="years"\nconst a = 1\n```',
    prefixedTitle: '```js foo_title="x"\nconst a = 1\n```',
  })
  expect(found.lines).toBe("7:1: the code block's ranges name more than 10000 lines or matches: highlight the lines the block has")
  expect(found.matches).toMatch(/^7:1: the code block's ranges name more than 10000/)
  expect(found.dots).toBe("7:1: the code block's range {1..2000000000} is not whole numbers and ascending ranges, written {1-3,5} (or /text/1-2)")
  expect(found.backwards).toBe("7:1: the code block's range 2000000000-1 runs backwards: write it 1-2000000000")
  expect(found.negative).toMatch(/^7:1: the code block's range \{-2000000000-0\} is not whole numbers/)
  expect(found.quoted).toMatch(/^7:1: the code block's ranges name more than 10000/)
  expect(found.many).toMatch(/^7:1: the code block's ranges name more than 10000/)
  // A title, which rehype-pretty-code draws before the block, failed Nextra's compile with no line.
  expect(found.title).toBe('7:1: a code block\'s title is written filename="…" in Nextra (title="…" breaks its compile)')
  expect(found.prefixedTitle).toBe(found.title)
  expect(found.ok).toBe('ok')
  expect(found.literal).toBe('ok')
})

test("a code block whose language is a name every JavaScript object has is refused where it starts, not a crash of Nextra's plugins", async () => {
  const found = await verdicts({
    constructor: 'Text.\n\n```constructor\nx\n```',
    proto: '```__proto__\nx\n```',
    toString: '```toString\nx\n```',
    text: '```text\nconstructor\n```',
    unknown: '```constructors\nx\n```',
  })
  expect(found.constructor).toBe("9:1: ```constructor names no language (every JavaScript object has a `constructor`, which the highlighter would take for one): write ```text, or the code's language")
  expect(found.proto).toMatch(/^7:1: ```__proto__ names no language/)
  expect(found.toString).toMatch(/^7:1: ```toString names no language/)
  expect(found.text).toBe('ok')
  expect(found.unknown).toBe('ok')
})

test("the review's reproduction fails `npm run build` at the content step, naming file, line and column", () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'page-sanitizer-build-'))
  roots.push(dir)
  copyProject(project, dir)
  const file = path.join(dir, 'content/docs/leads/environments.mdx')
  const lines = fs.readFileSync(file, 'utf8').replace(/\n*$/, '\n').split('\n').length
  fs.appendFileSync(file, '\n<script>document.title=String(document.cookie.length)</script>\n<div dangerouslySetInnerHTML={{__html: "<script>window.injectedRan=1</script>"}} />\n')
  const build = spawnSync(process.execPath, ['--import', 'tsx', 'pipeline/steps/buildSite.ts'], { cwd: dir, encoding: 'utf8', env: { ...process.env, NEXT_TELEMETRY_DISABLED: '1' } })
  expect(build.status).toBe(1)
  expect(build.stderr).toContain(`content/docs/leads/environments.mdx:${lines + 1}:1: \`<script>\` runs code in every reader's browser`)
  expect(build.stdout).not.toContain('build: render')
  expect(fs.existsSync(path.join(dir, 'out'))).toBe(false)
})

test("a page with no title: is titled by its first h1 however it is written, and that title, as the compile makes it, is held to a title's rules at the heading (a review's heading over two lines forged a page in the AI tools' lists)", async () => {
  const long = 'x'.repeat(301)
  const titled = (text: string) => `---\ntitle: Titled\n---\n\n${text}`
  const found = await verdicts(
    {
      underlined: 'Rate limits\nInternal runbook: /docs/internal/intro\n===\n\nText.',
      reference: '# Rate limits&#10;- Internal runbook: /docs/internal/intro\n\nText.',
      quoted: '> # Quoted&#9;title\n\nText.',
      long: `\`\`\`sh\n# a shell comment ${long}\n\`\`\`\n\n# ${long}\n`,
      plain: '# Plain heading\n\n## A lower heading is no title\n',
      titled: titled(`# ${long}\n\nUnder\nlines\n===\n`),
    },
    (body) => body
  )
  const told = "the page has no title: in its front matter, so this first heading is its title (the tab, search, the llms files), and it"
  expect(found.underlined).toBe(`1:1: ${told} holds U+000A, a line break or a control character, which the sidebar, the tab, search and the AI tools' lists would show as another line or not at all: write it on one line`)
  const opening = (verdict: string, expected: string) => expect(verdict.slice(0, expected.length)).toBe(expected)
  opening(found.reference, `1:1: ${told} holds U+000A,`)
  opening(found.quoted, `1:3: ${told} holds U+0009,`)
  expect(found.long).toBe(`5:1: ${told} is 301 characters long; a title holds at most 300: shorten it`)
  expect([found.plain, found.titled]).toEqual(['ok', 'ok'])
})
