/**
 * @jest-environment node
 *
 * The renderer's own guard: a page document that holds code (a <script>, an event handler, raw
 * markup) is never handed to React, which would write it into the page's HTML. The compile step
 * refuses such a page first (__tests__/render/pageSanitizer.test.ts); this covers a document it
 * did not make, such as a props file written by hand or by an older build.
 */
import { renderToStaticMarkup } from 'react-dom/server'
import type { PageDocument, TreeElement } from '../../lib/render/pageDocument'
import { CodeInPageError, PageBody } from '../../lib/render/renderTree'

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
