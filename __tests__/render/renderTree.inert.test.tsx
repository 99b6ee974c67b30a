/**
 * @jest-environment node
 *
 * The renderer's own guard: a page document that holds what a page may not (a <script>, an event
 * handler, raw markup, an iframe or a form, a `javascript:` URL, an id of the site's, a style that
 * covers the window, a link that hands over the docs tab) is never handed to React, which would
 * write it into the page's HTML. The compile step refuses such a page first
 * (__tests__/render/pageSanitizer.test.ts); this covers a document it did not make, as an attacker
 * editing the compile cache or a props file would write it: every element drawn is checked, not
 * only those written as tags.
 */
import { execFileSync } from 'node:child_process'
import path from 'node:path'
import { createElement, type ComponentType, type ReactNode } from 'react'
import { renderToStaticMarkup } from 'react-dom/server'
import type { PageDocument, TreeElement, TreeNode } from '../../lib/render/pageDocument'
import CODE_IN_PAGES from '../../lib/render/codeInPages.json'
import { CodeInPageError, PageBody, UnknownComponentError } from '../../lib/render/renderTree'
import { nextraClient } from './helpers/nextraClient'

jest.mock('nextra/mdx', () => require('./helpers/nextraClient').nextraClient().mdx, { virtual: true })
jest.mock('nextra/icons', () => require('./helpers/nextraClient').nextraClient().icons, { virtual: true })
jest.mock('nextra/components', () => require('./helpers/nextraClient').nextraClient().components, { virtual: true })
jest.mock('nextra-theme-docs', () => require('./helpers/nextraClient').nextraClient().theme, { virtual: true })
jest.mock('next/router', () => require('../components/helpers/mockNextRouter'))

const doc = (element: Partial<TreeElement>): PageDocument => ({
  route: '/docs/leads/x',
  filePath: 'content/docs/leads/x.mdx',
  title: 'X',
  frontMatter: {},
  toc: [],
  tree: [{ type: 'element', tagName: 'p', properties: {}, children: [{ type: 'text', value: 'Hello' }], ...element }],
})

test('a plain document renders', () => {
  expect(renderToStaticMarkup(<PageBody tree={doc({ raw: true, tagName: 'div', properties: { className: 'x' } }).tree} />)).toContain('Hello')
})

test('what the compile makes renders: prefixed ids, listed styles, a link that opens a tab without its opener, a code block icon', () => {
  const icon: TreeElement = { type: 'element', tagName: 'svg', properties: { viewBox: '0 0 24 24' }, children: [{ type: 'element', tagName: 'path', properties: { d: 'M0 0h24v24H0z' }, children: [], raw: true }], raw: true }
  const tree: TreeNode[] = [
    { type: 'element', tagName: 'h2', properties: { id: 'user-content-intro' }, children: [{ type: 'text', value: 'Intro' }] },
    { type: 'element', tagName: 'div', raw: true, properties: { id: 'user-content-x', style: { color: 'red', marginTop: 4, padding: '1rem 2rem' } }, children: [{ type: 'text', value: 'Styled' }] },
    { type: 'element', tagName: 'span', properties: { style: { '--shiki-light': '#24292E', '--shiki-dark': '#E1E4E8' } }, children: [{ type: 'text', value: 'token' }] },
    { type: 'element', tagName: 'a', raw: true, properties: { href: 'https://example.com', target: '_blank', rel: 'noopener noreferrer' }, children: [{ type: 'text', value: 'out' }] },
    { type: 'element', tagName: 'a', properties: { href: '#user-content-fn-1', id: 'user-content-fnref-1', 'aria-describedby': 'user-content-footnote-label' }, children: [{ type: 'text', value: '1' }] },
    { type: 'element', tagName: 'FileTree.File', properties: { name: 'index.mdx' }, children: [] },
    { type: 'element', tagName: 'pre', properties: { 'data-language': 'js', 'data-filename': 'a.js' }, componentProps: { icon }, children: [{ type: 'element', tagName: 'code', properties: {}, children: [{ type: 'text', value: 'x' }] }] },
  ]
  // Inside the docs theme's components, as the route renders: its heading links to the prefixed id, its `pre` draws the icon.
  const { mdx, theme } = nextraClient()
  const MDXProvider = mdx.MDXProvider as ComponentType<{ components: object; children?: ReactNode }>
  const components = (theme.getComponents as (options: object) => object)({ isRawLayout: false })
  const html = renderToStaticMarkup(createElement(MDXProvider, { components }, <PageBody tree={tree} />))
  expect(html).toContain('id="user-content-intro"')
  expect(html).toContain('href="#user-content-intro"')
  expect(html).toContain('d="M0 0h24v24H0z"')
  expect(html).toContain('style="color:red;margin-top:4px;padding:1rem 2rem"')
  expect(html).toContain('rel="noopener noreferrer"')
})

/** A document of one element, with a paragraph after it: none of it may reach the HTML. */
const tree = (element: TreeElement): TreeNode[] => [element, { type: 'element', tagName: 'p', properties: {}, children: [{ type: 'text', value: 'after' }] }]
const element = (tagName: string, properties: TreeElement['properties'], extra: Partial<TreeElement> = {}): TreeElement => ({ type: 'element', tagName, properties, children: [{ type: 'text', value: 'x' }], ...extra })

test.each<[string, TreeElement, RegExp]>([
  // The review's reproductions, as Markdown's elements (no `raw`), which the renderer drew unchecked.
  ['an iframe', element('iframe', { src: 'https://evil.example/' }), /a <iframe> \(it embeds another document\)/],
  ['a form posting to the sign-in', element('form', { action: '/oauth/authorize', method: 'post' }), /a <form> \(it sends what a reader types somewhere\)/],
  ['a meta refresh', element('meta', { httpEquiv: 'refresh', content: '0;url=https://evil.example/' }), /a <meta>/],
  ['a javascript: link', element('a', { href: 'javascript:alert(document.cookie)' }), /<a href="javascript:alert/],
  ['a javascript: link, spelt with a tab and spaces', element('a', { href: '  java\tscript:alert(1)' }, { raw: true }), /<a href=/],
  ['a data: image', element('img', { src: 'data:image/svg+xml,<svg onload=alert(1)>' }, { raw: true, children: [] }), /<img src="data:/],
  ['a vbscript: srcSet', element('source', { srcSet: '/a.png 1x, vbscript:x 2x' }, { raw: true, children: [] }), /<source srcSet=/],
  ['a tag outside the list', element('video', { src: '/docs/a.mp4' }, { raw: true }), /a <video>, which is not a tag pages can use/],
  ['a button', element('button', { formAction: '/oauth/authorize' }), /a <button>/],
  // An id or a name of the site's: Next reads the first element with id __NEXT_DATA__.
  ['the id __NEXT_DATA__', element('div', { id: '__NEXT_DATA__', hidden: true }, { raw: true }), /<div id="__NEXT_DATA__"> without the prefix user-content-/],
  ['the name __next', element('a', { name: '__next', href: '/docs' }, { raw: true }), /<a name="__next"> without the prefix/],
  ['an ARIA reference without the prefix', element('span', { 'aria-describedby': 'user-content-a nav' }, { raw: true }), /<span aria-describedby=/],
  // The docs tab handed to the page a link opens.
  ['rel="opener"', element('a', { href: 'https://evil.example/', target: '_blank', rel: 'opener' }, { raw: true }), /<a rel="opener">/],
  ['a target without noopener noreferrer', element('a', { href: 'https://evil.example/', target: '_blank', rel: 'noreferrer' }, { raw: true }), /<a target="_blank" without rel="noopener noreferrer">/],
  // A screen of the page's own over the site's.
  ['a fixed overlay', element('div', { style: { position: 'fixed', inset: 0, zIndex: 2147483647, backgroundColor: 'white' } }, { raw: true }), /<div style> with the style property position/],
  ['a z-index', element('div', { style: { zIndex: 99 } }, { raw: true }), /the style property zIndex/],
  ['a declaration smuggled in a value', element('div', { style: { color: 'red;position:fixed;inset:0' } }, { raw: true }), /the style color: red;position:fixed/],
  ['a negative margin', element('div', { style: { marginTop: '-100vh' } }, { raw: true }), /the style marginTop: -100vh/],
  ['a style as text', element('div', { style: 'position:fixed' }, { raw: true }), /a style that is not an object/],
  // A code block's icon is SVG shapes only.
  ['a script in an icon', element('pre', {}, { componentProps: { icon: element('svg', {}, { raw: true, children: [element('script', {}, { raw: true })] }) } }), /a <script>/],
  ['an icon that is not SVG', element('pre', {}, { componentProps: { icon: element('iframe', { src: 'https://evil.example/' }, { raw: true }) } }), /a <iframe>/],
])('%s stops the render, and nothing of the page reaches the HTML', (_, bad, named) => {
  let html = ''
  expect(() => {
    html = renderToStaticMarkup(<PageBody tree={tree(bad)} />)
  }).toThrow(CodeInPageError)
  expect(() => renderToStaticMarkup(<PageBody tree={tree(bad)} />)).toThrow(named)
  expect(html).toBe('')
})

test('a tag in capitals is the same tag when written raw, and a component the map does not have otherwise', () => {
  expect(() => renderToStaticMarkup(<PageBody tree={tree(element('IFRAME', { src: 'https://evil.example/' }, { raw: true }))} />)).toThrow(/a <IFRAME> \(it embeds another document\)/)
  expect(() => renderToStaticMarkup(<PageBody tree={tree(element('IFRAME', { src: '/docs/leads/x' }))} />)).toThrow(UnknownComponentError)
})

test("the renderer's tags are GitHub's list, the compile's sanitizer schema's (hast-util-sanitize's defaultSchema)", () => {
  const root = path.resolve(__dirname, '../..')
  const github = execFileSync(process.execPath, ['--input-type=module', '-e', "import { defaultSchema } from 'hast-util-sanitize'; process.stdout.write(JSON.stringify(defaultSchema.tagNames))"], { cwd: root, encoding: 'utf8' })
  expect(CODE_IN_PAGES.tags).toEqual(JSON.parse(github))
  // None of the refused tags is on the list; the icons' SVG is drawn only as an icon.
  expect(CODE_IN_PAGES.tags.filter((tag) => tag in CODE_IN_PAGES.refusedTags)).toEqual([])
})

test.each<[string, Partial<TreeElement>, RegExp]>([
  ['a <script> written as a tag', { raw: true, tagName: 'script' }, /a <script>/],
  ['an event handler', { properties: { onClick: 'go()' } }, /<p onClick>/],
  ['an event handler in capitals', { raw: true, tagName: 'img', properties: { ONERROR: 'go()' } }, /<img ONERROR>/],
  ['raw markup', { raw: true, tagName: 'div', properties: { dangerouslySetInnerHTML: { __html: '<script>x()</script>' } } }, /dangerouslySetInnerHTML/],
  ['an embedded document', { raw: true, tagName: 'iframe', properties: { srcDoc: '<script>x()</script>' } }, /a <iframe>/],
])('%s stops the render, and nothing of it reaches the HTML', (_, element, named) => {
  let html = ''
  expect(() => {
    html = renderToStaticMarkup(<PageBody tree={doc(element).tree} />)
  }).toThrow(CodeInPageError)
  expect(() => renderToStaticMarkup(<PageBody tree={doc(element).tree} />)).toThrow(named)
  expect(html).toBe('')
})
