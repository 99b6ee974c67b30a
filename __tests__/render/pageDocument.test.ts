/**
 * @jest-environment node
 *
 * The content step compiles each page into a PageDocument: JSON data, and nothing a page written
 * as data cannot hold. What it refuses is named at its line and column, with the fix, as the build
 * shows it (file:line:column: message), and cached like the compiler's own errors.
 */
import { scanContent } from '../../pipeline/content/contentSource'
import { compilePages } from '../../pipeline/compile/compilePages'
import { tempSite } from '../fixtures/tempSite'
import { compileWithWorker, project, type WorkerMessage } from './helpers/compileDocs'

jest.setTimeout(120_000)

/** Front matter on lines 1-3, a blank line, the heading on line 5, a blank line: the body starts on line 7. */
const page = (body: string) => `---\ntitle: T\n---\n\n# T\n\n${body}\n`

async function problems(pages: Record<string, string>): Promise<string[]> {
  const root = tempSite('page-doc-', pages)
  const report = await compilePages(scanContent(root))
  const again = await compilePages(scanContent(root))
  // Refusals are the page's fault, the same every time: cached, and reported again from the cache.
  expect(again).toMatchObject({ compiled: 0 })
  expect(again.problems.map((problem) => problem.message)).toEqual(report.problems.map((problem) => problem.message))
  return report.problems.map((problem) => problem.message)
}

const ALLOWED = "a page imports only the site's components: { Callout, Cards, FileTree, Steps, Tabs } from 'nextra/components', { Bleed } from 'nextra-theme-docs', { SectionCards } from '<relative path>/components/SectionCards'"
const COMPONENTS = 'Bleed, Callout, Cards, Cards.Card, FileTree, FileTree.File, FileTree.Folder, SectionCards, Steps, Tabs, Tabs.Tab'
const VALUES = 'attribute values are text ("…"), numbers, true/false, null, or lists and objects of those, written out'

test('imports: only the fixed components, by name, from where they live', async () => {
  expect(
    await problems({
      'content/a.mdx': page("import { Callout, Tabs as T } from 'nextra/components'\nimport { SectionCards } from '../components/SectionCards'\n\n<T items={['a']}><T.Tab>x</T.Tab></T>"),
      'content/b.mdx': page("import Chart from './Chart'"),
      'content/c.mdx': page("import { Mermaid } from 'nextra/components'"),
      'content/d.mdx': page("import * as C from 'nextra/components'"),
      'content/e.mdx': page("import { Bleed } from 'nextra/components'"),
    })
  ).toEqual([
    `content/b.mdx:7:1: cannot import from './Chart': ${ALLOWED}`,
    `content/c.mdx:7:10: 'nextra/components' gives a page no component \`Mermaid\`: ${ALLOWED}`,
    `content/d.mdx:7:8: \`import C (as a namespace) from 'nextra/components'\` is not a named import: ${ALLOWED}`,
    `content/e.mdx:7:10: 'nextra/components' gives a page no component \`Bleed\`: ${ALLOWED}`,
  ])
})

test('exports are refused: front matter sets page data', async () => {
  expect(await problems({ 'content/a.mdx': page('Text.\n\nexport const meta = { x: 1 }') })).toEqual([
    'content/a.mdx:9:1: `export` is code, which pages cannot hold: set page data in the front matter (the `---` block at the top)',
  ])
})

test('expressions: comments pass, anything else is refused where it starts', async () => {
  expect(
    await problems({
      'content/a.mdx': page('{/* a comment */}\n\nText {/* inline */} here.'),
      'content/b.mdx': page('Costs are {1 + 1} pounds.'),
      'content/c.mdx': page('{new Date().getFullYear()}'),
    })
  ).toEqual([
    'content/b.mdx:7:11: `{…}` is an expression, which pages cannot compute: write its result as text, write a literal brace as \\{ or \\}, or make it a comment {/* … */}',
    'content/c.mdx:7:1: `{…}` is an expression, which pages cannot compute: write its result as text, write a literal brace as \\{ or \\}, or make it a comment {/* … */}',
  ])
})

test('attributes: text, bare booleans and JSON-like literals pass; names, functions, templates with ${} and spreads are refused', async () => {
  expect(
    await problems({
      'content/ok.mdx': page('<Callout type="info" emoji={"!"}>ok</Callout>\n\n<div tabIndex={-1} hidden={false} style={{ marginTop: 4, color: "red" }} title={`plain`} aria-hidden>ok</div>\n\n<Tabs items={[1, "two"]}><Tabs.Tab>t</Tabs.Tab></Tabs>\n\n<Callout type="info" emoji={null}>none</Callout>'),
      'content/name.mdx': page('<Callout type={kind}>x</Callout>'),
      'content/fn.mdx': page('<Callout\n  type="info"\n  onClick={() => alert(1)}>x</Callout>'),
      'content/tpl.mdx': page('<Callout title={`a ${b}`}>x</Callout>'),
      'content/spread.mdx': page('<Callout {...props}>x</Callout>'),
    })
  ).toEqual([
    `content/fn.mdx:9:12: \`<Callout onClick={…}>\` holds a function, which a page cannot compute: ${VALUES}`,
    `content/name.mdx:7:16: \`<Callout type={…}>\` holds the name \`kind\`, which a page cannot compute: ${VALUES}`,
    'content/spread.mdx:7:11: `<Callout {…}>`: a spread of attributes is code, which pages cannot hold; write each attribute as name="text", name={number}, name={true}, or a list or object of those',
    `content/tpl.mdx:7:17: \`<Callout title={…}>\` holds a template with \`\${…}\`, which a page cannot compute: ${VALUES}`,
  ])
})

test('element names: HTML tags pass, components must be in the fixed map', async () => {
  expect(
    await problems({
      'content/ok.mdx': page('<div role="note"><span>ok</span></div>\n\n<Tabs items={["t"]}>\n<Tabs.Tab>t</Tabs.Tab>\n</Tabs>\n\n<FileTree.Folder name="a" />'),
      'content/a.mdx': page('Text with <Chart data="x" /> inline.'),
      'content/b.mdx': page('<Tabs.Panel>x</Tabs.Panel>'),
    })
  ).toEqual([
    `content/a.mdx:7:11: \`<Chart>\` is not a component pages can use: use an HTML tag or one of ${COMPONENTS}`,
    `content/b.mdx:7:1: \`<Tabs.Panel>\` is not a component pages can use: use an HTML tag or one of ${COMPONENTS}`,
  ])
})

test('a PageDocument is JSON: it survives JSON unchanged and holds no code', async () => {
  const files = ['__tests__/render/fixtures/everything.mdx', 'content/docs/leads/intro.mdx']
  const compiled = await compileWithWorker(project, files)
  for (const file of files) {
    const message = compiled[file] as Extract<WorkerMessage, { ok: true }>
    expect(message.ok).toBe(true)
    const doc = message.output
    expect(JSON.parse(JSON.stringify(doc))).toStrictEqual(doc)
    const text = JSON.stringify(doc)
    for (const code of ['_jsx', '_components', 'useMDXComponents', 'MDXLayout', 'useTOC', 'function', 'import ']) expect(text).not.toContain(code)
    expect(Object.keys(doc).sort()).toEqual(['filePath', 'frontMatter', 'route', 'structurizedData', 'title', 'toc', 'tree'])
    expect(doc.filePath).toBe(file)
  }
})
