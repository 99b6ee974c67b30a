/**
 * @jest-environment node
 *
 * A page rendered from its PageDocument (lib/render/renderTree.tsx) shows the reader exactly what
 * the page's compiled MDX module showed: same HTML, same table of contents. Both come from one
 * compile by the content step's worker (its PageDocument, and Nextra's JS module of that compile,
 * evaluated here as Next would run it), and both render inside the same MDX components provider
 * (the docs theme's components), with react-dom/server. The document goes the way the docs route
 * gets it: packed into the page's props, written as JSON, read and unpacked.
 */
import fs from 'node:fs'
import path from 'node:path'
import { createElement, type ComponentType, type ReactNode } from 'react'
import * as jsxRuntime from 'react/jsx-runtime'
import { renderToStaticMarkup } from 'react-dom/server'
import type { PageDocument } from '../../lib/render/pageDocument'
import { packDocument, unpackDocument } from '../../lib/render/packedDocument'
import { PageBody, tocOf, WRITER_COMPONENTS } from '../../lib/render/renderTree'
import { compileWithWorker, project, type WorkerMessage } from './helpers/compileDocs'
import { nextraClient } from './helpers/nextraClient'

jest.mock('nextra/mdx', () => require('./helpers/nextraClient').nextraClient().mdx, { virtual: true })
jest.mock('nextra/icons', () => require('./helpers/nextraClient').nextraClient().icons, { virtual: true })
jest.mock('nextra/components', () => require('./helpers/nextraClient').nextraClient().components, { virtual: true })
jest.mock('nextra-theme-docs', () => require('./helpers/nextraClient').nextraClient().theme, { virtual: true })
jest.mock('next/router', () => require('../components/helpers/mockNextRouter'))

jest.setTimeout(300_000)

const FIXTURE = '__tests__/render/fixtures/everything.mdx'

/** Every MDX page of the site (content/, and pages/'s own top-level pages), and the fixture. */
function sitePages(): string[] {
  const files: string[] = []
  for (const entry of fs.readdirSync(path.join(project, 'content'), { recursive: true, withFileTypes: true })) {
    if (entry.isFile() && /\.mdx?$/.test(entry.name)) files.push(path.relative(project, path.join(entry.parentPath, entry.name)).split(path.sep).join('/'))
  }
  for (const name of fs.readdirSync(path.join(project, 'pages'))) if (/\.mdx?$/.test(name)) files.push(`pages/${name}`)
  return [...files.sort(), FIXTURE]
}

/** What a compiled module imports, as Next's bundle would give it (the same modules PageBody uses). */
function requireForModule(file: string) {
  return (id: string) => {
    if (id === 'react/jsx-runtime') return jsxRuntime
    if (id === 'nextra/mdx') return nextraClient().mdx
    if (id === 'nextra/icons') return nextraClient().icons
    if (id === 'nextra/components') return nextraClient().components
    if (id === 'nextra-theme-docs') return nextraClient().theme
    if (id.startsWith('.')) {
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      return require(path.resolve(project, path.dirname(file), id))
    }
    throw new Error(`the compiled page imports ${id}`)
  }
}

interface CompiledModule {
  MDXLayout: ComponentType<Record<string, never>>
  useTOC: (props: object) => { depth: number; id: string; value: ReactNode }[]
}

/** Nextra's module, run as Next runs it: JSX and imports made CommonJS by esbuild (eval is fine in a test). */
function evaluate(file: string, code: string): CompiledModule {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { transformSync } = require('esbuild') as typeof import('esbuild')
  const cjs = transformSync(`${code}\nexport { MDXLayout }`, { loader: 'jsx', format: 'cjs', jsx: 'automatic' }).code
  const module = { exports: {} as CompiledModule }
  new Function('require', 'module', 'exports', cjs)(requireForModule(file), module, module.exports)
  return module.exports
}

function withTheme(children: ReactNode): string {
  const { mdx, theme } = nextraClient()
  const MDXProvider = mdx.MDXProvider as ComponentType<{ components: object; children?: ReactNode }>
  const components = (theme.getComponents as (options: object) => object)({ isRawLayout: false })
  return renderToStaticMarkup(createElement(MDXProvider, { components }, children))
}

/** The document as the docs route renders it, after the page's props file (lib/render/packedDocument.ts). */
const throughProps = (doc: PageDocument) => unpackDocument(JSON.parse(JSON.stringify(packDocument(doc))))

type Toc = { depth: number; id: string; value: ReactNode }[]
const tocMarkup = (toc: Toc) => createElement('ol', null, ...toc.map((entry) => createElement('li', { 'data-depth': entry.depth, 'data-id': entry.id }, entry.value)))

let compiled: Record<string, WorkerMessage>
const files = sitePages()

beforeAll(async () => {
  compiled = await compileWithWorker(project, files)
})

test('the site has pages to compare, and every one compiles', () => {
  expect(files.length).toBeGreaterThan(50)
  const failures = files.filter((file) => !compiled[file]?.ok).map((file) => [file, compiled[file]])
  expect(failures).toEqual([])
})

describe.each(files)('%s', (file) => {
  const page = () => compiled[file] as Extract<WorkerMessage, { ok: true }>

  test('renders the same HTML from its document as from its compiled module', () => {
    const { output: doc, module } = page()
    const { MDXLayout } = evaluate(file, module)
    // The one difference: a code block's matched word is a span in the document, not the
    // highlighter's <mark>, which no tag of GitHub's list is (the theme styles it by its attribute).
    const before = withTheme(createElement(MDXLayout)).replace(/<mark( data-highlighted-chars[^>]*)>(.*?)<\/mark>/g, '<span$1>$2</span>')
    const after = withTheme(createElement(PageBody, { tree: throughProps(doc).tree }))
    expect(after).toBe(before)
    expect(after.length).toBeGreaterThan(0)
  })

  test('has the same table of contents: ids, depths and rendered values', () => {
    const { output: doc, module } = page()
    const { useTOC } = evaluate(file, module)
    function Before() {
      return tocMarkup(useTOC({}))
    }
    const before = withTheme(createElement(Before))
    const after = withTheme(tocMarkup(tocOf(throughProps(doc))))
    expect(after).toBe(before)
    expect(doc.toc.map(({ depth, id }) => ({ depth, id }))).toEqual(useTOCIds(useTOC))
  })
})

/** useTOC's ids and depths (it calls the MDX hook only for its values' components). */
function useTOCIds(useTOC: CompiledModule['useTOC']) {
  let ids: { depth: number; id: string }[] = []
  function Read() {
    ids = useTOC({}).map(({ depth, id }) => ({ depth, id }))
    return null
  }
  withTheme(createElement(Read))
  return ids
}

test('the fixture page holds every writer component, a custom heading id, and Nextra’s code-block meta', () => {
  const { output: doc } = compiled[FIXTURE] as Extract<WorkerMessage, { ok: true }>
  const names = new Set<string>()
  const walk = (nodes: PageDocument['tree']) => nodes.forEach((node) => node.type === 'element' && (names.add(node.tagName), walk(node.children)))
  walk(doc.tree)
  for (const name of WRITER_COMPONENTS.filter((name) => name !== 'SectionCards')) expect(names).toContain(name)
  // The writer's `[#custom-id]`, with the clobber prefix every id of a page has; the heading's anchor links to it.
  expect(doc.toc.map((entry) => entry.id)).toContain('user-content-custom-id')
  const html = withTheme(createElement(PageBody, { tree: throughProps(doc).tree }))
  expect(html).toContain('id="user-content-custom-id"')
  expect(html).toContain('href="#user-content-custom-id"')
  expect(html).toContain('<span class="_truncate">quote.js</span>')
  expect(html).toContain('data-highlighted-line')
  expect(html).toContain('<img src="/docs/leads/images/raw.png" alt="Written as JSX" width="320"/>')
  expect(doc.frontMatter).toMatchObject({ title: 'Everything a page can hold', tags: ['one', 'two'] })
  expect(doc.title).toBe('Everything a page can hold')
})

test('the compile step and the renderer know the same components', () => {
  const worker = fs.readFileSync(path.join(project, 'pipeline/compile/toPageDocument.mjs'), 'utf8')
  const list = (name: string) => JSON.parse(worker.match(new RegExp(`export const ${name} = (\\[[^\\]]*\\])`))![1].replace(/'/g, '"').replace(/,\s*\]/, ']'))
  expect([...list('WRITER_COMPONENTS')].sort()).toEqual([...WRITER_COMPONENTS])
})
