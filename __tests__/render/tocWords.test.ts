import type { TreeNode } from '../../lib/render/pageDocument'
import { tocWords } from '../../lib/render/tocWords'

const text = (value: string): TreeNode => ({ type: 'text', value })
const element = (tagName: string, children: TreeNode[] = [], properties: Record<string, string> = {}): TreeNode => ({ type: 'element', tagName, properties, children })

test("a heading's table of contents entry keeps its words and their styling, not its images, fields or links: a review's 3,000 px image filled the column and the phone menu, and a link sat inside the entry's own", () => {
  const heading = [
    element('img', [], { src: '/docs/leads/images/tall.svg', alt: 'Session expired notice' }),
    text(' Notes on '),
    element('code', [text('quote')]),
    text(' and '),
    element('em', [element('a', [text('sign in again')], { href: 'https://evil.example/login' })]),
    element('input'),
    element('Callout', [text('a component')]),
  ]
  expect(tocWords(heading)).toEqual([text(' Notes on '), element('code', [text('quote')]), text(' and '), element('em', [text('sign in again')])])
  // A plain heading is its text.
  expect(tocWords([text('Endpoints')])).toEqual([text('Endpoints')])
})
