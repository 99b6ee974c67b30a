/** @jest-environment node */
/**
 * The languages of a page's code blocks (pipeline/content/pageLinks.ts codeLanguagesIn), and the
 * site's most used ones (scripts/server/contentWatch.ts siteCodeLanguages), which `npm run dev`'s
 * compile worker loads before the first edit.
 */
import { codeLanguagesIn } from '../../pipeline/content/pageLinks'
import { siteCodeLanguages } from '../../scripts/server/contentWatch'

test("a page's code languages: each fence's first word, once each, in order; the fences of either kind", () => {
  const text = ['# Title', '', '```ts {1,3} title="a.ts"', 'const a = 1', '```', '', '~~~bash', 'ls', '~~~', '', '```ts', 'again', '```', '', '```', 'no language', '```', ''].join('\n')
  expect(codeLanguagesIn(text)).toEqual(['ts', 'bash'])
})

test('a fence inside a code block is its text, not a block of its own', () => {
  const text = ['~~~md', '```python', 'print(1)', '```', '~~~', '', '```sql', '```ts', '```', ''].join('\n')
  expect(codeLanguagesIn(text)).toEqual(['md', 'sql'])
})

test('an info string that is not a language name is not taken as one', () => {
  expect(codeLanguagesIn(['```<script>', 'x', '```', '```c++', 'y', '```', '```objective-c', '```', ''].join('\n'))).toEqual(['c++', 'objective-c'])
})

test("the site's code languages: by how many pages use each, then by name, at most 24; a page recorded without them (an older record) has none", () => {
  expect(siteCodeLanguages([{ codeLanguages: ['sql', 'ts'] }, { codeLanguages: ['ts'] }, { codeLanguages: ['bash', 'json'] }, { codeLanguages: [] }, {}])).toEqual(['ts', 'bash', 'json', 'sql'])
  const many = Array.from({ length: 30 }, (_, index) => ({ codeLanguages: [`lang${String(index).padStart(2, '0')}`] }))
  expect(siteCodeLanguages(many)).toHaveLength(24)
  expect(siteCodeLanguages([])).toEqual([])
})

test('a site with a page that cannot be read now gives none, rather than fail the dev server', () => {
  const unreadable = {
    get codeLanguages(): readonly string[] {
      throw new Error('content/docs/leads/intro.mdx changed while it was read')
    },
  }
  expect(siteCodeLanguages([{ codeLanguages: ['ts'] }, unreadable])).toEqual([])
})
