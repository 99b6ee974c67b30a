/** @jest-environment node */
/**
 * The languages of a page's code blocks (pipeline/content/pageLinks.ts codeLanguagesIn), and the
 * site's most used ones (scripts/server/contentWatch.ts siteCodeLanguages), which `npm run dev`'s
 * compile worker loads before the first edit, with some of the site's pages (samplePages, read by
 * pipeline/content/contentSource.ts recordedPageTexts).
 */
import fs from 'node:fs'
import path from 'node:path'
import { recordedPageTexts } from '../../pipeline/content/contentSource'
import { codeLanguagesIn } from '../../pipeline/content/pageLinks'
import { samplePages, siteCodeLanguages } from '../../scripts/server/contentWatch'
import { tempSite } from '../fixtures/tempSite'

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

test("the pages compiled ahead: for each of the most used languages, the first page with a block of it, at most 3; the site's first page when none has code", () => {
  const pages = {
    'content/docs/b.mdx': { codeLanguages: ['ts', 'sql'] },
    'content/docs/a.mdx': { codeLanguages: ['bash'] },
    'content/docs/c.mdx': { codeLanguages: ['ts'] },
    'content/docs/d.mdx': { codeLanguages: ['json'] },
    'content/docs/e.mdx': {},
    'content/docs/f.mdx': { codeLanguages: ['yaml'] },
  }
  // sql's one page is ts's already; yaml's would be a fourth.
  expect(samplePages(pages, ['ts', 'sql', 'bash', 'json', 'yaml'])).toEqual(['content/docs/b.mdx', 'content/docs/a.mdx', 'content/docs/d.mdx'])
  expect(samplePages(pages, ['rust'])).toEqual(['content/docs/a.mdx'])
  expect(samplePages({}, ['ts'])).toEqual([])
})

test("the pages read ahead are plain files under content/: a path out of it, a link, or a link on the way is left out, not followed", () => {
  const outside = tempSite('outside-', { 'secret.mdx': 'not the site’s' })
  const root = tempSite('samples-', { 'content/docs/a.mdx': '# A', 'content/docs/b.md': '# B', 'public/x.mdx': '# public', 'content/docs/notes.txt': 'not a page' })
  fs.symlinkSync(path.join(outside, 'secret.mdx'), path.join(root, 'content/docs/link.mdx'))
  fs.symlinkSync(outside, path.join(root, 'content/linked'))
  const asked = ['content/docs/a.mdx', 'content/docs/b.md', 'content/docs/link.mdx', 'content/linked/secret.mdx', 'content/../public/x.mdx', 'public/x.mdx', 'content/docs/notes.txt', 'content/docs/gone.mdx', '/etc/passwd']
  expect(recordedPageTexts(root, asked)).toEqual(['# A', '# B'])
})
