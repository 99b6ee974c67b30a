/**
 * A page's props carry its document packed (lib/render/packedDocument.ts). The equivalence test
 * (renderTree.equivalence.test.tsx) renders every page of the site through the packing; this one
 * checks what it keeps of each kind of node, what it saves, and what it refuses.
 */
import type { PageDocument } from '../../lib/render/pageDocument'
import { packDocument, PackedDocumentError, unpackDocument, type PackedDocument } from '../../lib/render/packedDocument'

const doc: PageDocument = {
  route: '/docs/leads/intro',
  filePath: 'content/docs/leads/intro.mdx',
  title: 'Intro',
  frontMatter: { title: 'Intro', tags: ['a'] },
  tree: [
    { type: 'element', tagName: 'h2', properties: { id: 'setup' }, children: [{ type: 'text', value: 'Setup' }] },
    { type: 'text', value: '\n' },
    { type: 'element', tagName: 'img', properties: { src: '/docs/leads/images/a.png', alt: 'A', width: 320 }, children: [], raw: true },
    {
      type: 'element',
      tagName: 'pre',
      properties: { 'data-language': 'ts', style: { color: 'red' } },
      componentProps: { icon: { type: 'element', tagName: 'svg', properties: { viewBox: '0 0 24 24' }, children: [{ type: 'element', tagName: 'path', properties: { d: 'M0 0' }, children: [] }] } },
      children: [
        { type: 'element', tagName: 'Tabs.Tab', properties: { title: 'One' }, children: [{ type: 'text', value: 'const a = 1' }] },
        ...['const', 'let', 'var'].map((word): PageDocument['tree'][number] => ({ type: 'element', tagName: 'span', properties: { style: { '--shiki-light': '#D73A49', '--shiki-dark': '#F97583' } }, children: [{ type: 'text', value: word }] })),
      ],
    },
  ],
  toc: [{ depth: 2, id: 'setup', value: [{ type: 'text', value: 'Setup' }] }],
  structurizedData: { 'setup#Setup': 'text only the search index needs' },
}

test('a document comes back from its props as it went in, less the search data', () => {
  const { structurizedData: _search, ...rendered } = doc
  expect(unpackDocument(JSON.parse(JSON.stringify(packDocument(doc))))).toEqual(rendered)
})

test('the props carry no node names and no search data, properties that repeat once, in fewer bytes', () => {
  const packed = JSON.stringify(packDocument(doc))
  for (const name of ['"type"', '"tagName"', '"children"', '"properties"', 'structurizedData', 'only the search index']) expect(packed).not.toContain(name)
  expect(packed.split('#D73A49').length - 1).toBe(1)
  expect(packed.length).toBeLessThan(JSON.stringify(doc).length * 0.6)
})

test.each<[string, unknown]>([
  ['a tree of the format before packing', [{ type: 'text', value: 'x' }]],
  ['an element without its children', [['p', {}]]],
  ['an element whose properties are not an object', [['p', 'x', []]]],
  ['an element naming shared properties the document does not have', [['p', 7, []]]],
])('props holding %s are refused by name', (_what, tree) => {
  const props = { ...packDocument(doc), tree } as PackedDocument
  expect(() => unpackDocument(props)).toThrow(PackedDocumentError)
  expect(() => unpackDocument(props)).toThrow(/is not a packed document node/)
})
