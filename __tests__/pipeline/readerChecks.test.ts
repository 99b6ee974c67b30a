/**
 * @jest-environment node
 *
 * The content step refuses a page a reader cannot follow (pipeline/compile/readerChecks.mjs): an
 * image without alt text, and a heading that skips a level, each named as `file:line:column`.
 */
import fs from 'node:fs'
import path from 'node:path'
import { scanContent } from '../../pipeline/content/contentSource'
import { BadContentError, checkAndCompile } from '../../pipeline/steps/checkContent'
import { headingProblem } from '../../pipeline/compile/readerChecks.mjs'
import { tempSite } from '../fixtures/tempSite'

jest.setTimeout(120_000)

const project = path.resolve(__dirname, '../..')
// Line 6 is the page's h1; its body starts on line 8.
const page = (title: string, body: string) => `---\ntitle: ${title}\ndescription: D\n---\n\n# ${title}\n\n${body}\n`
const site = (pages: Record<string, string>) =>
  tempSite('reader-checks-', { 'next.config.ts': fs.readFileSync(path.join(project, 'next.config.ts')), 'pages/': '', 'content/docs/index.mdx': page('Docs', 'Start here.'), ...pages })

async function problems(root: string): Promise<string[]> {
  const thrown = await checkAndCompile(scanContent(root)).then(
    () => null,
    (error: unknown) => error
  )
  expect(thrown).toBeInstanceOf(BadContentError)
  return (thrown as BadContentError).message.split('\n').filter((line) => line.startsWith('content/'))
}

test('an image without alt text is refused where it is, in Markdown and as <img>; alt="" (decoration) passes', async () => {
  const root = site({
    'content/docs/leads/markdown.mdx': page('Markdown image', 'Before.\n\n![](/docs/a/flow.png)'),
    'content/docs/leads/jsx.mdx': page('JSX image', 'Before.\n\nText <img src="/docs/a/flow.png" /> after.'),
    'content/docs/leads/decoration.mdx': page('Decoration', '<img src="/docs/a/rule.png" alt="" />\n\n![A flow from lead to fee](/docs/a/flow.png)'),
  })
  const found = await problems(root)
  expect(found).toHaveLength(2)
  expect(found[0]).toMatch(/^content\/docs\/leads\/jsx\.mdx:10:6: `<img>` without an alt attribute/)
  expect(found[1]).toMatch(/^content\/docs\/leads\/markdown\.mdx:10:1: an image without alt text/)
})

test('an <img> whose alt is no text (bare, {false}, {null}) is refused: React writes no alt for it; alt={"…"} is text', async () => {
  const root = site({
    'content/docs/leads/bare.mdx': page('Bare', '<img src="/docs/a/flow.png" alt />'),
    'content/docs/leads/empty.mdx': page('Null alt', '<img src="/docs/a/flow.png" alt={null} />'),
    'content/docs/leads/false.mdx': page('False alt', '<img src="/docs/a/flow.png" alt={false} />'),
    'content/docs/leads/text.mdx': page('Text', '<img src="/docs/a/flow.png" alt={"A flow"} />\n\n<img src="/docs/a/rule.png" alt={``} />'),
  })
  const found = await problems(root)
  const withoutText = (name: string) => expect.stringMatching(new RegExp(`^content/docs/leads/${name}\\.mdx:8:1: \`<img alt>\` without text: write alt="…"`))
  // {null} is refused on any attribute, at the attribute (__tests__/render/pageSanitizer.test.ts).
  expect(found).toEqual([withoutText('bare'), 'content/docs/leads/empty.mdx:8:29: `<img alt={null}>` writes no attribute: leave it out', withoutText('false')])
})

test('a heading that skips a level is refused at that heading; a page may start at h2', async () => {
  const root = site({
    'content/docs/leads/skip.mdx': page('Skip', '## Setup\n\nText.\n\n#### Details'),
    'content/docs/leads/jsx.mdx': page('JSX', '<h3>Straight to h3</h3>'),
    'content/docs/leads/fine.mdx': '---\ntitle: Fine\ndescription: D\n---\n\n## Part\n\n### Sub\n\n## Next part\n',
  })
  const found = await problems(root)
  expect(found).toEqual([expect.stringMatching(/^content\/docs\/leads\/jsx\.mdx:8:1: an h3 follows an h1, skipping h2/), expect.stringMatching(/^content\/docs\/leads\/skip\.mdx:12:1: an h4 follows an h2, skipping h3/)])
})

test('heading levels: the first is h1 or h2, each next at most one deeper', () => {
  expect(headingProblem(1, null)).toBeNull()
  expect(headingProblem(2, null)).toBeNull()
  expect(headingProblem(3, null)).toMatch(/first heading is an h3/)
  expect(headingProblem(2, 4)).toBeNull()
  expect(headingProblem(5, 2)).toMatch(/skipping h3–h4/)
})
