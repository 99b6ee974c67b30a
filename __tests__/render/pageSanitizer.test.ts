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
import { project } from './helpers/compileDocs'

jest.setTimeout(180_000)

const roots: string[] = []
afterAll(() => roots.forEach((root) => fs.rmSync(root, { recursive: true, force: true })))

/** Front matter on lines 1-3, a blank line, the heading on line 5, a blank line: the body starts on line 7. */
const page = (body: string) => `---\ntitle: T\n---\n\n# T\n\n${body}\n`

/** Compiles one page per case; for each case, the problem its page was refused with (or 'ok'). */
async function verdicts(cases: Record<string, string>): Promise<Record<string, string>> {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'page-sanitizer-'))
  roots.push(root)
  const names = Object.keys(cases)
  names.forEach((name, at) => {
    fs.mkdirSync(path.join(root, 'content'), { recursive: true })
    fs.writeFileSync(path.join(root, `content/p${at}.mdx`), page(cases[name]))
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

test('a component takes only its own props (the rest would reach an HTML element)', async () => {
  const found = await verdicts({ extra: '<Callout type="info" className="x">y</Callout>', ok: '<Callout type="warning" emoji="!">y</Callout>\n\n<Cards num={2}><Cards.Card title="A" href="/docs/leads/a" arrow /></Cards>' })
  expect(found.extra).toBe('7:22: `<Callout className>`: Callout takes `type`, `emoji`')
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
    expect([name, verdict]).toEqual([name, expect.stringMatching(/^\d+:\d+: `<[A-Za-z.]+>`: `(href|src|srcSet)=".*` (is a .+ URL: a page's links and images are site paths \(\/docs\/…\), https:\/\/, http:\/\/ or mailto: addresses|leaves the site without a scheme: write the full https:\/\/ address)$/)])
  }
  expect(found.markdownLink).toMatch(/^7:3: `<a>`: `href="javascript:alert\(1\)"` is a `javascript:` URL/)
  expect(found.numericReference).toMatch(/`javascript:` URL/)
  const good = await verdicts({
    links: '[a](/docs/leads/a) [b](./b) [c](#c) [d](?q=1) [e](https://example.com/x) [f](http://example.com) [g](mailto:docs@example.com) [h](../x/y)',
    tags: '<a href="https://example.com" target="_blank" rel="noreferrer">x</a> <img src="/docs/leads/images/a.png" alt="A" />',
    colonInPath: '<a href="/docs/leads/a:b">x</a>',
  })
  expect(good).toEqual({ links: 'ok', tags: 'ok', colonInPath: 'ok' })
})

test('inline styles hold values, never a file to load or escaped characters', async () => {
  const found = await verdicts({
    url: '<div style={{ background: "url(https://evil.example/x.png)" }}>x</div>',
    escaped: '<div style={{ background: "u\\\\72l(x)" }}>x</div>',
    ok: '<div style={{ color: "red", marginTop: 4, width: "calc(100% - 2px)" }}>x</div>',
  })
  expect(found.url).toMatch(/^7:6: `<div style>`: the style `background: url\(https:\/\/evil\.example\/x\.png\)` loads a file or escapes characters/)
  expect(found.escaped).toMatch(/^7:6: `<div style>`: the style `background: /)
  expect(found.ok).toBe('ok')
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
