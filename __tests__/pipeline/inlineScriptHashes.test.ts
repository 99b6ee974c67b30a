/** @jest-environment node */
import crypto from 'node:crypto'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { contentSecurityPolicy } from '../../edge/securityHeaders'
import { readScriptHashesFile } from '../../edge/scriptHashesFile'
import {
  assertPoliciesAllowPages,
  shippedPolicies,
  collectInlineScripts,
  pageScripts,
  scriptHash,
  writeInlineScriptHashes,
} from '../../pipeline/steps/inlineScriptHashes'
import { collector } from '../fixtures/fullCollection'
import { readOut, readOutRecord, setOutRecordAside } from '../../pipeline/steps/outRecord'
import { sitePaths } from '../../pipeline/steps/paths'

/** No page rendered from a writer's MDX: every page is the site's own, and all its scripts are hashed. */
const NO_DOCS: ReadonlySet<string> = new Set()

const sha256 = (text: string) => `sha256-${crypto.createHash('sha256').update(text, 'utf8').digest('base64')}`

/** The site's policy before hashes: inline scripts allowed wholesale. */
const OLD_POLICY = "default-src 'self'; script-src 'self' 'unsafe-inline' 'wasm-unsafe-eval'"

const PAGE = `<!DOCTYPE html><html><head><meta charset="utf-8"><title>a <script>x()</script> title</title>
<script src="/_next/static/chunks/main.js" defer=""></script>
<script>document.documentElement.setAttribute('dir','ltr')</script>
<!-- <script>commented()</script> -->
<script type="module">import('/x.js')</script>
<script TYPE="text/javascript">one()</script>
</head><body><textarea><script>typed()</script></textarea>
<pre><code>&lt;script&gt;shown()&lt;/script&gt;</code></pre>
<script id="__NEXT_DATA__" type="application/json">{"page":"/"}</script>
<svg><![CDATA[ <script>nope()</script> ]]></svg>
<script>try{if(a<b&&c>d)e()}catch(e){}</script  >
</body></html>`

/** out/'s pages as one build's steps read them (no record of out/ set aside: every page is read). */
const pagesOf = (outDir: string) => readOut(outDir).pages()

let tmp: string
beforeEach(() => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'inline-scripts-'))
})
afterEach(() => fs.rmSync(tmp, { recursive: true, force: true }))

function site(pages: Record<string, string>) {
  const paths = sitePaths(tmp)
  for (const [key, html] of Object.entries(pages)) {
    fs.mkdirSync(path.dirname(path.join(paths.out, key)), { recursive: true })
    fs.writeFileSync(path.join(paths.out, key), html)
  }
  fs.mkdirSync(paths.next, { recursive: true })
  return paths
}

test('a page\'s inline scripts are the ones the browser runs: not sources, data blocks, comments, CDATA or text', () => {
  expect(pageScripts(PAGE)).toEqual({
    inline: ["document.documentElement.setAttribute('dir','ltr')", "import('/x.js')", 'one()', 'try{if(a<b&&c>d)e()}catch(e){}'],
    disallowed: [],
  })
})

test('what no hash can allow is named: inline event handlers, javascript: URLs (however written), scripts from elsewhere', () => {
  const { disallowed } = pageScripts(
    `<body><button type="button" onclick="go()">Go</button><a href="java&#x73;cript:alert(1)">x</a><a href=" javascript:void(0)">y</a><a href="javascript&colon;alert(2)">z</a><a href='javascript&#58;alert(3)'>w</a>` +
      `<img src=x ONERROR=alert(1)><a href="/docs/javascript:ok">fine</a><script src="https://cdn.example.com/x.js"></script><script src="//cdn.example.com/y.js"></script>` +
      `<p>onclick="text, not an attribute"</p></body>`
  )
  expect(disallowed).toEqual([
    'an inline event handler <button onclick="go()">',
    'a javascript: URL <a href="java&#x73;cript:alert(1)">',
    'a javascript: URL <a href=" javascript:void(0)">',
    'a javascript: URL <a href="javascript&colon;alert(2)">',
    'a javascript: URL <a href="javascript&#58;alert(3)">',
    'an inline event handler <img onerror="alert(1)">',
    'a script from another site <script src="https://cdn.example.com/x.js">',
    'a script from another site <script src="//cdn.example.com/y.js">',
  ])
})

test('a hash is the sha256 of the script as the browser sees it (line breaks as the parser leaves them)', () => {
  expect(scriptHash('one()')).toBe(sha256('one()'))
  expect(scriptHash('a()\r\nb()\rc()')).toBe(sha256('a()\nb()\nc()'))
})

test('the scripts step: the distinct hashes of every page, sorted, in .next/script-hashes.json', () => {
  const paths = site({ '/index.html': PAGE, '/docs/a.html': PAGE, '/docs/b.html': '<script>other()</script>', '/docs/a.md': '<script>not a page</script>' })
  const found = writeInlineScriptHashes(paths, NO_DOCS, pagesOf(paths.out))
  const expected = ["document.documentElement.setAttribute('dir','ltr')", "import('/x.js')", 'one()', 'try{if(a<b&&c>d)e()}catch(e){}', 'other()'].map(sha256).sort()
  expect(found).toEqual({ hashes: expected, pages: 3, scripts: 9 })
  expect(readScriptHashesFile(paths.scriptHashes)).toEqual(expected)
})

test("a docs page may hold only the site's own inline scripts (those of its own pages); any other fails the step, naming the page", () => {
  const SITE = '<html><head><script>document.documentElement.setAttribute(\'dir\',\'ltr\')</script></head><body><script>theme()</script></body></html>'
  const docsPages = new Set(['/docs/leads/intro.html', '/docs/leads/setup.html'])
  const injected = SITE.replace('</body>', '<script>document.title=String(document.cookie.length)</script></body>')
  const paths = site({ '/login.html': SITE, '/404.html': SITE, '/docs/leads/intro.html': SITE, '/docs/leads/setup.html': injected })
  expect(() => collectInlineScripts(pagesOf(paths.out), docsPages)).toThrow(
    `these docs pages hold inline scripts that are not the site's own (the theme's, Next's and _document's); a page's content cannot run code, so remove the script from the page's MDX:\n  /docs/leads/setup.html: "document.title=String(document.cookie.length)"`
  )
  fs.writeFileSync(path.join(paths.out, 'docs/leads/setup.html'), SITE)
  expect(collectInlineScripts(pagesOf(paths.out), docsPages)).toEqual({ hashes: ["document.documentElement.setAttribute('dir','ltr')", 'theme()'].map(sha256).sort(), pages: 4, scripts: 8 })
  // Without a page of the site's own there is nothing to tell the site's scripts by: refused, not guessed.
  fs.rmSync(paths.out, { recursive: true })
  const onlyDocs = site({ '/docs/leads/intro.html': SITE })
  expect(() => collectInlineScripts(pagesOf(onlyDocs.out), new Set(['/docs/leads/intro.html']))).toThrow(/holds no page of the site's own/)
})

test('the scripts step fails on an inline event handler, naming the page', () => {
  const paths = site({ '/index.html': PAGE, '/docs/leads/intro.html': '<div><button onclick="go()">Go</button></div>' })
  expect(() => collectInlineScripts(pagesOf(paths.out), NO_DOCS)).toThrow(/\/docs\/leads\/intro\.html: an inline event handler <button onclick="go\(\)">/)
})

test('the policy built from the hashes allows every page; one without a page\'s hash fails, naming the page', () => {
  const paths = site({ '/index.html': PAGE, '/docs/b.html': '<script>other()</script>' })
  const { hashes } = collectInlineScripts(pagesOf(paths.out), NO_DOCS)
  const policy = (scriptHashes: string[]) => ({ shippedBy: 'the test policy', policy: contentSecurityPolicy({ cognitoOrigin: 'https://cognito.test', scriptHashes }) })
  expect(assertPoliciesAllowPages(pagesOf(paths.out), [policy(hashes)])).toEqual({ pages: 2, policies: 1 })
  const withoutOther = hashes.filter((hash) => hash !== sha256('other()'))
  expect(() => assertPoliciesAllowPages(pagesOf(paths.out), [policy(withoutOther)])).toThrow(
    `/docs/b.html: the inline script "other()"… (${sha256('other()')}) is not allowed by the test policy`
  )
  // The old policy allowed inline scripts wholesale: refused, and every page is named for lacking its hashes.
  expect(() => assertPoliciesAllowPages(pagesOf(paths.out), [{ shippedBy: 'the old policy', policy: OLD_POLICY }])).toThrow(/the old policy allows 'unsafe-inline'[\s\S]*\/docs\/b\.html[\s\S]*\/index\.html/)
})

test('the csp step asks the built authorizer for its header and reads the script hashes the CDK stack reads', async () => {
  const paths = site({ '/index.html': PAGE })
  const { hashes } = writeInlineScriptHashes(paths, NO_DOCS, pagesOf(paths.out))
  const edgePolicy = (scriptHashes: string[]) => contentSecurityPolicy({ cognitoOrigin: 'https://cognito.test', scriptHashes })
  const bundle = (policy: string, cdkHashes: string[]) => {
    fs.mkdirSync(paths.edgeDist, { recursive: true })
    fs.writeFileSync(
      path.join(paths.edgeDist, 'index.js'),
      `exports.handler = async (event) => event.Records[0].cf.request.uri === '/' ? { status: '302', headers: { 'content-security-policy': [{ key: 'content-security-policy', value: ${JSON.stringify(policy)} }] } } : null\n`
    )
    fs.writeFileSync(path.join(paths.edgeDist, 'script-hashes.json'), JSON.stringify({ scriptHashes: cdkHashes }))
  }
  bundle(edgePolicy(hashes), hashes)
  await expect(shippedPolicies(paths).then((policies) => assertPoliciesAllowPages(pagesOf(paths.out), policies))).resolves.toEqual({ pages: 1, policies: 2 })
  bundle(edgePolicy(hashes.slice(1)), hashes)
  await expect(shippedPolicies(paths).then((policies) => assertPoliciesAllowPages(pagesOf(paths.out), policies))).rejects.toThrow(/\/index\.html: the inline script .* is not allowed by the authorizer \(edge\/dist\/index\.js\)/)
  bundle(edgePolicy(hashes), hashes.slice(1))
  await expect(shippedPolicies(paths).then((policies) => assertPoliciesAllowPages(pagesOf(paths.out), policies))).rejects.toThrow(/\/index\.html: the inline script .* is not allowed by the CDK response-headers policy \(edge\/dist\/script-hashes\.json\)/)
})

/** The test policy, allowing `hashes`. */
const testPolicy = (hashes: string[]) => [{ shippedBy: 'the test policy', policy: contentSecurityPolicy({ cognitoOrigin: 'https://cognito.test', scriptHashes: hashes }) }]

/**
 * What one build does from its scripts step to its end, as pipeline/steps/buildSite.ts does it:
 * the record of out/ set aside, out/ read once, the scripts step, the csp step against `policies`
 * (by default the policy of the hashes the scripts step found), the record written.
 */
function buildEnd(paths: ReturnType<typeof site>, policies?: (hashes: string[]) => ReturnType<typeof testPolicy>) {
  setOutRecordAside(paths.out)
  const out = readOut(paths.out)
  const { hashes } = writeInlineScriptHashes(paths, NO_DOCS, out.pages())
  assertPoliciesAllowPages(out.pages(), (policies ?? testPolicy)(hashes))
  return out.write('b1')
}

test('a page kept since the last build is not read again; one written since is, and its new script is hashed', () => {
  const paths = site({ '/index.html': PAGE, '/docs/b.html': '<html><body><script>other()</script></body></html>' })
  const page = path.join(paths.out, 'docs/b.html')
  const long = new Date(Date.now() - 3_600_000)
  fs.utimesSync(page, long, long)
  buildEnd(paths)
  // Unchanged since it was read (long after its write): taken from the record, not read.
  const reads = jest.spyOn(fs, 'readFileSync')
  try {
    expect(buildEnd(paths).hashed).toBe(1)
    expect(reads.mock.calls.map(([file]) => String(file)).filter((file) => file.startsWith(paths.out))).toEqual([path.join(paths.out, 'index.html')])
  } finally {
    reads.mockRestore()
  }
  // Written since (a new time): read again, and its new script is in the hashes.
  fs.writeFileSync(page, '<html><body><script>otheR()</script></body></html>')
  buildEnd(paths)
  expect(readScriptHashesFile(paths.scriptHashes)).toContain(sha256('otheR()'))
})

test("a page rewritten with the same size inside the clock's tick after it was read is read again by the next build, and its new script seen", () => {
  const docsPages = new Set(['/docs/b.html'])
  const SITE = '<html><body><script>theme()</script></body></html>'
  const paths = site({ '/index.html': SITE, '/docs/b.html': SITE })
  const page = path.join(paths.out, 'docs/b.html')
  // The build reads it just after it was written: within the racy window.
  const justNow = new Date(Date.now() - 500)
  fs.utimesSync(page, justNow, justNow)
  setOutRecordAside(paths.out)
  const first = readOut(paths.out)
  writeInlineScriptHashes(paths, docsPages, first.pages())
  first.write('b1')
  // A later step rewrites it with the same size, and (by a coarse clock) the same time: its stamp is the one read.
  const injected = SITE.replace('theme()', 'evil()!')
  expect(Buffer.byteLength(injected)).toBe(Buffer.byteLength(SITE))
  fs.writeFileSync(page, injected)
  fs.utimesSync(page, justNow, justNow)
  setOutRecordAside(paths.out)
  expect(() => writeInlineScriptHashes(paths, docsPages, readOut(paths.out).pages())).toThrow(/\/docs\/b\.html: "evil\(\)!"/)
})

test('one build lists out/ once, and reads each page at most once, for its scripts, csp and record steps', () => {
  const paths = site({ '/index.html': PAGE, '/docs/a.html': PAGE, '/docs/b.html': '<script>other()</script>', '/docs/a.md': '# A' })
  const walks = jest.spyOn(fs, 'readdirSync')
  const reads = jest.spyOn(fs, 'readFileSync')
  try {
    expect(buildEnd(paths)).toEqual({ files: 4, hashed: 4, buildId: 'b1' })
    expect(walks.mock.calls.filter(([folder]) => path.resolve(String(folder)) === paths.out)).toHaveLength(1)
    const outReads = reads.mock.calls.map(([file]) => path.relative(paths.out, String(file))).filter((file) => !file.startsWith('..'))
    expect(outReads.sort()).toEqual(['docs/a.html', 'docs/a.md', 'docs/b.html', 'index.html'])
  } finally {
    walks.mockRestore()
    reads.mockRestore()
  }
})

test("the pages' readings, kept until the record is written, hold their scripts' hashes and previews, not the pages' text", async () => {
  const gc = collector()
  // 40 pages of 2 MB, each with a long inline script and an inline event handler: what the steps keep of each is cut from its text.
  const pageBytes = 2 * 1024 * 1024
  const pages: Record<string, string> = {}
  for (let n = 0; n < 40; n++) {
    const script = `<script>window.page${n} = ${JSON.stringify('y'.repeat(200))}</script><button type="button" onclick="go(${n})">Go</button>`
    pages[`/docs/p${n}.html`] = `<html><body><p>${'x'.repeat(pageBytes - script.length - 40)}</p>${script}</body></html>`
  }
  const paths = site(pages)
  await gc()
  const before = process.memoryUsage().heapUsed
  const readings = pagesOf(paths.out)
  await gc()
  const held = process.memoryUsage().heapUsed - before
  expect(readings).toHaveLength(40)
  expect(readings[0].scripts.inline[0].preview).toMatch(/^window\.page\d+ = "y{60}/)
  expect(readings[0].scripts.disallowed).toEqual([expect.stringMatching(/^an inline event handler <button onclick="go\(\d+\)">$/)])
  // The pages' text is 80 MB; their readings, a few kilobytes.
  expect(held).toBeLessThan(8 * 1024 * 1024)
}, 60_000) // 80 MB of pages: seconds when the machine is busy with the other test files

test('the csp step fails, naming the page, when a page holds an inline script the policy that ships does not allow', () => {
  const paths = site({ '/index.html': PAGE, '/docs/b.html': '<html><body><script>other()</script></body></html>' })
  // The policy that ships was made from other hashes than the scripts step found (a stale authorizer).
  expect(() => buildEnd(paths, (hashes) => testPolicy(hashes.filter((hash) => hash !== sha256('other()'))))).toThrow(
    `/docs/b.html: the inline script "other()"… (${sha256('other()')}) is not allowed by the test policy`
  )
  // A build stopped at the csp step leaves no record of out/.
  expect(readOutRecord(paths.out)).toBeNull()
})
