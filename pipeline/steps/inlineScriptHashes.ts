/**
 * The Content-Security-Policy allows no inline script but the ones the build's pages hold, by
 * their sha256 (edge/securityHeaders.ts). Two steps of the site build (pipeline/steps/buildSteps.ts):
 *
 *   scripts  after every step that writes into out/: hashes each inline script of every page of out/
 *            into .next/script-hashes.json, which the edge bundle bakes in (and copies beside
 *            itself for the CDK stack) and the local server reads. A page with an inline event
 *            handler (`onclick="…"`) or a `javascript:` URL fails the build: no hash can allow those.
 *            Only the site's own inline scripts are hashed: those of the pages the site's code
 *            renders alone (sign-in, the status pages: the theme's, Next's and _document's). A
 *            docs page, whose body is a writer's, holding any other inline script fails the build,
 *            naming the page: the content step refuses scripts in pages, and this proves none
 *            reached out/ by another way.
 *   csp      after the edge and mcp steps: checks every page's inline scripts against the
 *            policies that will ship, the header the built authorizer sends and the one the CDK
 *            stack makes from edge/dist/script-hashes.json; a script whose hash they lack fails
 *            the build, naming the page.
 *
 * Both take the pages as ./outRecord.ts read them: out/ listed once after its last writer
 * (./outFiles.ts), and each page read only when its stamp is not the one the build's record of
 * out/ holds with its scripts.
 */
import crypto from 'node:crypto'
import fs from 'node:fs'
import { createRequire } from 'node:module'
import path from 'node:path'
import vm from 'node:vm'
import type { CloudFrontRequestEvent, CloudFrontRequestResult } from '../../edge/cloudfrontTypes'
import { readScriptHashesFile, writeScriptHashesFile } from '../../edge/scriptHashesFile'
import { contentSecurityPolicy, directiveSources, SCRIPT_HASHES_FILE } from '../../edge/securityHeaders'
import type { SitePaths } from './paths'
import { NamedError } from '../content/contentError'

/** HTML's character references, decoded by the same module as the compile's page check decodes them. */
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { decodeCharacterReferences } = require('../compile/characterReferences.cjs') as { decodeCharacterReferences: (value: string) => string }

export class InlineScriptError extends NamedError {
  constructor(message: string) {
    super(`inline scripts: ${message}`)
  }
}

/** What one page holds that the Content-Security-Policy decides on. */
export interface PageScripts {
  /** The text of each inline script the browser would run, in page order. */
  inline: string[]
  /** What no hash can allow: inline event handlers, `javascript:` URLs, scripts from other sites. */
  disallowed: string[]
}

// HTML's JavaScript MIME types (a script with another type is a data block, like __NEXT_DATA__'s
// application/json, which the browser never runs and the policy does not govern). Import maps and
// speculation rules are governed like scripts.
const SCRIPT_TYPES = new Set([
  '', 'module', 'importmap', 'speculationrules',
  'application/ecmascript', 'application/javascript', 'application/x-ecmascript', 'application/x-javascript',
  'text/ecmascript', 'text/javascript', 'text/javascript1.0', 'text/javascript1.1', 'text/javascript1.2',
  'text/javascript1.3', 'text/javascript1.4', 'text/javascript1.5', 'text/jscript', 'text/livescript',
  'text/x-ecmascript', 'text/x-javascript',
])
// Elements whose content is text up to their end tag, never markup.
const RAW_TEXT = new Set(['script', 'style', 'textarea', 'title', 'xmp', 'iframe', 'noembed', 'noframes', 'noscript', 'plaintext'])
const URL_ATTRIBUTES = new Set(['href', 'src', 'action', 'formaction', 'xlink:href', 'data'])

/** The HTML parser turns CR LF and CR into LF before anything else; a hash is of what it hands on. */
const normaliseNewlines = (text: string) => text.replace(/\r\n?/g, '\n')

/** The policy's hash source for one inline script: `sha256-<base64>` of its text as UTF-8. */
export function scriptHash(source: string): string {
  return `sha256-${crypto.createHash('sha256').update(normaliseNewlines(source), 'utf8').digest('base64')}`
}

const SLASH = 0x2f
const GT = 0x3e
const EQUALS = 0x3d
const BANG = 0x21
const QUESTION = 0x3f
const OTHER_SPACE = /\s/

/** What JavaScript's `\s` matches, which the tokenizer takes for a space between attributes. */
function isSpace(code: number): boolean {
  return code === 0x20 || (code >= 0x09 && code <= 0x0d) || (code >= 0x80 && OTHER_SPACE.test(String.fromCharCode(code)))
}

/** Where the end tag of raw-text element `name` (lower case) starts, from `from`, in any case: `</name` and a space, "/" or ">"; or the end. */
function closingTag(html: string, name: string, from: number): number {
  for (let at = html.indexOf('</', from); at >= 0; at = html.indexOf('</', at + 2)) {
    const after = at + 2 + name.length
    if (after < html.length && html.slice(at + 2, after).toLowerCase() === name) {
      const code = html.charCodeAt(after)
      if (code === SLASH || code === GT || isSpace(code)) return at
    }
  }
  return html.length
}

const isAsciiLetter = (code: number) => (code >= 0x41 && code <= 0x5a) || (code >= 0x61 && code <= 0x7a)

/**
 * The inline scripts and the disallowed script of one page. A tokenizer for what the policy
 * governs, not a whole HTML parser: comments, CDATA and raw-text elements are skipped as the
 * browser skips them, so a `<script` inside a comment or a code sample's text is not taken for one.
 */
export function pageScripts(html: string): PageScripts {
  const inline: string[] = []
  const disallowed: string[] = []
  const length = html.length
  // Character codes, not one-character strings and patterns: this runs over every tag of every page.
  const endsName = (code: number) => code === SLASH || code === GT || isSpace(code)
  const skipSpaces = (from: number) => {
    while (from < length && isSpace(html.charCodeAt(from))) from++
    return from
  }
  let at = 0
  while (at < length) {
    const open = html.indexOf('<', at)
    if (open < 0) break
    if (html.startsWith('<!--', open)) {
      const end = html.indexOf('-->', open + 4)
      at = end < 0 ? length : end + 3
      continue
    }
    if (html.startsWith('<![CDATA[', open)) {
      const end = html.indexOf(']]>', open + 9)
      at = end < 0 ? length : end + 3
      continue
    }
    const first = html.charCodeAt(open + 1)
    if (!isAsciiLetter(first)) {
      // An end tag, a doctype or a stray "<".
      const end = first === SLASH || first === BANG || first === QUESTION ? html.indexOf('>', open) : open
      at = end < 0 ? length : end + 1
      continue
    }
    let cursor = open + 2
    while (cursor < length && !endsName(html.charCodeAt(cursor))) cursor++
    const name = html.slice(open + 1, cursor).toLowerCase()
    // The start tag's attributes.
    const attributes = new Map<string, string>()
    while (cursor < length && html.charCodeAt(cursor) !== GT) {
      const code = html.charCodeAt(cursor)
      if (code === SLASH || isSpace(code)) {
        cursor++
        continue
      }
      // A name, or a stray "=" and what follows it up to a space, "/", ">" or "=".
      const attributeStart = cursor
      if (code === EQUALS) cursor++
      while (cursor < length && !endsName(html.charCodeAt(cursor)) && html.charCodeAt(cursor) !== EQUALS) cursor++
      const attribute = html.slice(attributeStart, cursor)
      cursor = skipSpaces(cursor)
      let value = ''
      if (html.charCodeAt(cursor) === EQUALS) {
        cursor = skipSpaces(cursor + 1)
        const quote = html[cursor]
        if (quote === '"' || quote === "'") {
          const end = html.indexOf(quote, cursor + 1)
          value = html.slice(cursor + 1, end < 0 ? length : end)
          cursor = end < 0 ? length : end + 1
        } else {
          const valueStart = cursor
          while (cursor < length && html.charCodeAt(cursor) !== GT && !isSpace(html.charCodeAt(cursor))) cursor++
          value = html.slice(valueStart, cursor)
        }
      }
      const key = attribute.toLowerCase()
      if (!attributes.has(key)) attributes.set(key, value)
    }
    const tagEnd = cursor
    for (const [key, value] of attributes) {
      // An attribute's name holds no space, so no line break: /^on./ is "on" and a third character.
      if (key.length > 2 && key.startsWith('on')) disallowed.push(`an inline event handler <${name} ${key}="${value.slice(0, 60)}">`)
      // Without a colon, written or as a character reference, a value names no scheme.
      if (URL_ATTRIBUTES.has(key) && (value.includes(':') || value.includes('&')) && /^javascript:/i.test(decodeCharacterReferences(value).replace(/[\u0000-\u0020]/g, ''))) {
        disallowed.push(`a javascript: URL <${name} ${key}="${value.slice(0, 60)}">`)
      }
    }
    if (!RAW_TEXT.has(name)) {
      at = tagEnd + 1
      continue
    }
    const textEnd = closingTag(html, name, tagEnd + 1)
    if (name === 'script') {
      const type = (attributes.get('type') ?? '').trim().toLowerCase()
      const src = attributes.get('src')
      if (src !== undefined) {
        if (/^([a-z][a-z0-9+.-]*:|\/\/|\\\\)/i.test(src.trim())) disallowed.push(`a script from another site <script src="${src}">`)
      } else if (SCRIPT_TYPES.has(type)) {
        inline.push(html.slice(tagEnd + 1, textEnd))
      }
    }
    const after = textEnd < html.length ? html.indexOf('>', textEnd) : -1
    at = after < 0 ? html.length : after + 1
  }
  return { inline, disallowed }
}

/**
 * One page's scripts as the steps keep them: each inline script by its hash and the start of its
 * text (for a message), not its whole text. Every page holds the same few scripts of the theme and
 * Next, several kilobytes each, so keeping their text per page grew with the site (a 30,000-page
 * build ran out of memory in this step).
 */
export interface HashedScripts {
  inline: Array<{ hash: string; preview: string }>
  disallowed: string[]
}

/**
 * A copy of `text` that shares no memory with the page it was cut from. V8 keeps a substring as a
 * view of its whole string, so a preview kept per page kept every page of out/ in memory (2.9 GB of
 * heap at 30,000 pages).
 */
const detached = (text: string): string => JSON.parse(JSON.stringify(text)) as string

export function hashedScripts({ inline, disallowed }: PageScripts): HashedScripts {
  return { inline: inline.map((source) => ({ hash: scriptHash(source), preview: detached(source.trim().slice(0, 80)) })), disallowed: disallowed.map(detached) }
}

/** One page of out/ (its key, as `/path/page.html`) and its scripts, as ./outRecord.ts reads them once for the scripts and csp steps. */
export interface PageReading {
  page: string
  scripts: HashedScripts
}

export interface InlineScripts {
  /** The distinct hashes, sorted: what the policy lists. */
  hashes: string[]
  pages: number
  /** Inline scripts on all pages together. */
  scripts: number
}

/**
 * Hashes every page's inline scripts; fails, naming the pages, on what no hash can allow, and on
 * an inline script of a docs page that the site's own pages do not hold. `docsPages` are the
 * pages of out/ rendered from a writer's page (their keys, `/docs/leads/intro.html`); the others
 * are the site's own.
 */
export function collectInlineScripts(pages: readonly PageReading[], docsPages: ReadonlySet<string>): InlineScripts {
  if (pages.length === 0) throw new InlineScriptError('out/ holds no page; run `next build` first')
  const problems = pages.flatMap(({ page, scripts }) => scripts.disallowed.map((what) => `${page}: ${what}`))
  if (problems.length) {
    throw new InlineScriptError(
      `the Content-Security-Policy allows no inline event handler, javascript: URL or script from another site; ` +
        `move them into the site's JavaScript:\n  ${problems.join('\n  ')}`
    )
  }
  const sitePages = pages.filter(({ page }) => !docsPages.has(page))
  if (sitePages.length === 0) throw new InlineScriptError(`out/ holds no page of the site's own (sign-in, the status pages), whose inline scripts are the only ones allowed`)
  const siteOwn = new Set(sitePages.flatMap(({ scripts }) => scripts.inline.map(({ hash }) => hash)))
  const foreign = pages
    .filter(({ page }) => docsPages.has(page))
    .flatMap(({ page, scripts }) => scripts.inline.filter(({ hash }) => !siteOwn.has(hash)).map(({ preview }) => `${page}: ${JSON.stringify(preview)}`))
  if (foreign.length) {
    throw new InlineScriptError(
      `these docs pages hold inline scripts that are not the site's own (the theme's, Next's and _document's); a page's content cannot run code, ` +
        `so remove the script from the page's MDX:\n  ${foreign.join('\n  ')}`
    )
  }
  return {
    hashes: [...new Set(pages.flatMap(({ scripts }) => scripts.inline.map(({ hash }) => hash)))].sort(),
    pages: pages.length,
    scripts: pages.reduce((count, { scripts }) => count + scripts.inline.length, 0),
  }
}

/** The `scripts` step: the hashes of out/'s inline scripts, in .next/script-hashes.json for the edge build and the local server. */
export function writeInlineScriptHashes(paths: SitePaths, docsPages: ReadonlySet<string>, pages: readonly PageReading[]): InlineScripts {
  const found = collectInlineScripts(pages, docsPages)
  writeScriptHashesFile(paths.scriptHashes, found.hashes)
  return found
}

export const describeInlineScripts = ({ hashes, pages, scripts }: InlineScripts) =>
  `${hashes.length} distinct inline scripts (${scripts} on ${pages} pages), allowed by hash in script-src`

/** A policy that will ship, and where it comes from. */
export interface ShippedPolicy {
  shippedBy: string
  policy: string
}

/**
 * Fails, naming the page and the script, if a page holds an inline script that one of the policies
 * does not allow by its hash, or if a policy allows any inline script ('unsafe-inline' with no hash).
 */
export function assertPoliciesAllowPages(pages: readonly PageReading[], policies: readonly ShippedPolicy[]): { pages: number; policies: number } {
  const problems: string[] = []
  for (const { shippedBy, policy } of policies) {
    const sources = new Set(directiveSources(policy, 'script-src'))
    if (sources.size === 0) problems.push(`${shippedBy} sends no script-src`)
    if (sources.has("'unsafe-inline'") || sources.has("'unsafe-eval'")) problems.push(`${shippedBy} allows ${sources.has("'unsafe-inline'") ? "'unsafe-inline'" : "'unsafe-eval'"} in script-src`)
    for (const { page, scripts } of pages) {
      for (const what of scripts.disallowed) problems.push(`${page}: ${what}`)
      for (const { hash, preview } of scripts.inline) {
        if (!sources.has(`'${hash}'`)) problems.push(`${page}: the inline script ${JSON.stringify(preview)}… (${hash}) is not allowed by ${shippedBy}`)
      }
    }
  }
  if (problems.length) {
    const shown = [...new Set(problems)]
    throw new InlineScriptError(
      `the Content-Security-Policy that ships would block scripts of these pages (was the authorizer bundled from other hashes?):\n  ` +
        `${shown.slice(0, 20).join('\n  ')}${shown.length > 20 ? `\n  … and ${shown.length - 20} more` : ''}`
    )
  }
  return { pages: pages.length, policies: policies.length }
}

/**
 * The policies that will ship with this build: the header the built authorizer (edge/dist/index.js)
 * sends, asked like CloudFront asks it, and the one the CDK stack's response-headers policy makes
 * from the edge bundle's script-hashes file (infra/lib/site-stack.ts). The local server reads
 * .next/script-hashes.json, which the bundle's copy was made from.
 */
export async function shippedPolicies(paths: SitePaths): Promise<ShippedPolicy[]> {
  const bundle = path.join(paths.edgeDist, 'index.js')
  // Evaluated afresh as Node loads a CommonJS file (a module cache may hold an earlier build's).
  const loaded = { exports: {} as { handler?: (event: CloudFrontRequestEvent) => Promise<CloudFrontRequestResult> } }
  // Its console.log (the access log's line for this request) is not the build's to print.
  const quiet = Object.assign(Object.create(console) as Console, { log: () => {} })
  const wrapper = vm.runInThisContext(`(function (exports, require, module, __filename, __dirname, console) {${fs.readFileSync(bundle, 'utf8')}\n})`, { filename: bundle })
  wrapper(loaded.exports, createRequire(bundle), loaded, bundle, path.dirname(bundle), quiet)
  const handler = loaded.exports.handler
  if (typeof handler !== 'function') throw new InlineScriptError(`${path.relative(paths.root, bundle)} exports no handler`)
  // A signed-out request for a page: the authorizer answers itself (a redirect to sign in), with its headers.
  const event = { Records: [{ cf: { request: { uri: '/', querystring: '', method: 'GET', clientIp: '127.0.0.1', headers: {} } } }] }
  const answer = (await handler(event as unknown as CloudFrontRequestEvent)) as { headers?: Record<string, Array<{ value: string }>> }
  const edgePolicy = answer.headers?.['content-security-policy']?.[0]?.value
  if (!edgePolicy) throw new InlineScriptError(`${path.relative(paths.root, bundle)} answered a signed-out request with no content-security-policy header`)
  const cdkHashes = readScriptHashesFile(path.join(paths.edgeDist, SCRIPT_HASHES_FILE))
  return [
    { shippedBy: `the authorizer (${path.relative(paths.root, bundle)})`, policy: edgePolicy },
    {
      shippedBy: `the CDK response-headers policy (${path.relative(paths.root, path.join(paths.edgeDist, SCRIPT_HASHES_FILE))})`,
      // Only script-src is compared; the Cognito origin is the stack's own.
      policy: contentSecurityPolicy({ cognitoOrigin: 'https://cognito-idp.invalid', scriptHashes: cdkHashes }),
    },
  ]
}
