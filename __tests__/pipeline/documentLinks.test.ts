/** @jest-environment node */
import { documentLinks } from '../../pipeline/compile/documentLinks'
import type { TreeNode } from '../../lib/render/pageDocument'

const source = (srcSet: string): TreeNode[] => [{ type: 'element', tagName: 'picture', properties: {}, children: [{ type: 'element', tagName: 'source', properties: { srcSet }, children: [] }] }]

test("a srcset's candidates are split where a browser splits them: on ASCII whitespace, never inside a URL that holds a no-break space", () => {
  // The browser fetches this as one URL, /docs/internal/…: the link check must see it whole.
  const joined = '/docs/leads/images/a.svg\u00a0/../../../internal/images/b.svg'
  expect(documentLinks(source(`${joined} 1x`), '')).toEqual([[1, joined]])
  expect(documentLinks(source(' /docs/leads/a.png 1x,\t/docs/leads/b.png\n2x'), '')).toEqual([
    [1, '/docs/leads/a.png'],
    [1, '/docs/leads/b.png'],
  ])
})
