/** @jest-environment node */
import crypto from 'node:crypto'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { contentSecurityPolicy } from '../../edge/securityHeaders'
import { readScriptHashesFile } from '../../edge/scriptHashesFile'
import {
  assertPoliciesAllowPages,
  assertShippedPolicyAllowsPages,
  collectInlineScripts,
  pageScripts,
  scriptHash,
  writeInlineScriptHashes,
} from '../../pipeline/steps/inlineScriptHashes'
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
    `<body><button type="button" onclick="go()">Go</button><a href="java&#x73;cript:alert(1)">x</a><a href=" javascript:void(0)">y</a>` +
      `<img src=x ONERROR=alert(1)><a href="/docs/javascript:ok">fine</a><script src="https://cdn.example.com/x.js"></script><script src="//cdn.example.com/y.js"></script>` +
      `<p>onclick="text, not an attribute"</p></body>`
  )
  expect(disallowed).toEqual([
    'an inline event handler <button onclick="go()">',
    'a javascript: URL <a href="java&#x73;cript:alert(1)">',
    'a javascript: URL <a href=" javascript:void(0)">',
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
  const found = writeInlineScriptHashes(paths, NO_DOCS)
  const expected = ["document.documentElement.setAttribute('dir','ltr')", "import('/x.js')", 'one()', 'try{if(a<b&&c>d)e()}catch(e){}', 'other()'].map(sha256).sort()
  expect(found).toEqual({ hashes: expected, pages: 3, scripts: 9 })
  expect(readScriptHashesFile(paths.scriptHashes)).toEqual(expected)
})

test("a docs page may hold only the site's own inline scripts (those of its own pages); any other fails the step, naming the page", () => {
  const SITE = '<html><head><script>document.documentElement.setAttribute(\'dir\',\'ltr\')</script></head><body><script>theme()</script></body></html>'
  const docsPages = new Set(['/docs/leads/intro.html', '/docs/leads/setup.html'])
  const injected = SITE.replace('</body>', '<script>document.title=String(document.cookie.length)</script></body>')
  const paths = site({ '/login.html': SITE, '/404.html': SITE, '/docs/leads/intro.html': SITE, '/docs/leads/setup.html': injected })
  expect(() => collectInlineScripts(paths.out, docsPages)).toThrow(
    `these docs pages hold inline scripts that are not the site's own (the theme's, Next's and _document's); a page's content cannot run code, so remove the script from the page's MDX:\n  /docs/leads/setup.html: "document.title=String(document.cookie.length)"`
  )
  fs.writeFileSync(path.join(paths.out, 'docs/leads/setup.html'), SITE)
  expect(collectInlineScripts(paths.out, docsPages)).toEqual({ hashes: ["document.documentElement.setAttribute('dir','ltr')", 'theme()'].map(sha256).sort(), pages: 4, scripts: 8 })
  // Without a page of the site's own there is nothing to tell the site's scripts by: refused, not guessed.
  fs.rmSync(paths.out, { recursive: true })
  const onlyDocs = site({ '/docs/leads/intro.html': SITE })
  expect(() => collectInlineScripts(onlyDocs.out, new Set(['/docs/leads/intro.html']))).toThrow(/holds no page of the site's own/)
})

test('the scripts step fails on an inline event handler, naming the page', () => {
  const paths = site({ '/index.html': PAGE, '/docs/leads/intro.html': '<div><button onclick="go()">Go</button></div>' })
  expect(() => collectInlineScripts(paths.out, NO_DOCS)).toThrow(/\/docs\/leads\/intro\.html: an inline event handler <button onclick="go\(\)">/)
})

test('the policy built from the hashes allows every page; one without a page\'s hash fails, naming the page', () => {
  const paths = site({ '/index.html': PAGE, '/docs/b.html': '<script>other()</script>' })
  const { hashes } = collectInlineScripts(paths.out, NO_DOCS)
  const policy = (scriptHashes: string[]) => ({ shippedBy: 'the test policy', policy: contentSecurityPolicy({ cognitoOrigin: 'https://cognito.test', scriptHashes }) })
  expect(assertPoliciesAllowPages(paths.out, [policy(hashes)])).toEqual({ pages: 2, policies: 1 })
  const withoutOther = hashes.filter((hash) => hash !== sha256('other()'))
  expect(() => assertPoliciesAllowPages(paths.out, [policy(withoutOther)])).toThrow(
    `/docs/b.html: the inline script "other()"… (${sha256('other()')}) is not allowed by the test policy`
  )
  // The old policy allowed inline scripts wholesale: refused, and every page is named for lacking its hashes.
  expect(() => assertPoliciesAllowPages(paths.out, [{ shippedBy: 'the old policy', policy: OLD_POLICY }])).toThrow(/the old policy allows 'unsafe-inline'[\s\S]*\/docs\/b\.html[\s\S]*\/index\.html/)
})

test('the csp step asks the built authorizer for its header and reads the script hashes the CDK stack reads', async () => {
  const paths = site({ '/index.html': PAGE })
  const { hashes } = writeInlineScriptHashes(paths, NO_DOCS)
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
  await expect(assertShippedPolicyAllowsPages(paths)).resolves.toEqual({ pages: 1, policies: 2 })
  bundle(edgePolicy(hashes.slice(1)), hashes)
  await expect(assertShippedPolicyAllowsPages(paths)).rejects.toThrow(/\/index\.html: the inline script .* is not allowed by the authorizer \(edge\/dist\/index\.js\)/)
  bundle(edgePolicy(hashes), hashes.slice(1))
  await expect(assertShippedPolicyAllowsPages(paths)).rejects.toThrow(/\/index\.html: the inline script .* is not allowed by the CDK response-headers policy \(edge\/dist\/script-hashes\.json\)/)
})

test('a page kept from the last build is not read again, but one written after the scripts step is, and fails the csp step', () => {
  const paths = site({ '/index.html': PAGE, '/docs/b.html': '<html><body><script>other()</script></body></html>' })
  const page = path.join(paths.out, 'docs/b.html')
  const mtime = new Date('2026-01-02T03:04:05.000Z')
  fs.utimesSync(page, mtime, mtime)
  const { hashes } = collectInlineScripts(paths.out, NO_DOCS)
  const policy = [{ shippedBy: 'the test policy', policy: contentSecurityPolicy({ cognitoOrigin: 'https://cognito.test', scriptHashes: hashes }) }]
  // Same size and time as when it was hashed: taken from the cache, not read (so a changed byte goes unseen).
  fs.writeFileSync(page, '<html><body><script>otheR()</script></body></html>')
  fs.utimesSync(page, mtime, mtime)
  expect(assertPoliciesAllowPages(paths.out, policy)).toEqual({ pages: 2, policies: 1 })
  // Written later (another time): read again, and refused.
  const later = new Date(mtime.getTime() + 5000)
  fs.utimesSync(page, later, later)
  expect(() => assertPoliciesAllowPages(paths.out, policy)).toThrow(`/docs/b.html: the inline script "otheR()"… (${sha256('otheR()')}) is not allowed by the test policy`)
})
