/**
 * @jest-environment node
 *
 * What the docs route says when the props index is not there: in `npm run dev` (a page opened
 * before the first content check ended, which no refresh reaches) and in a `next build` run alone;
 * and what it does with a path that has no page.
 */
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { propsFileName } from '../../lib/render/propsFiles'

const empty = fs.mkdtempSync(path.join(os.tmpdir(), 'docs-pages-'))
afterAll(() => fs.rmSync(empty, { recursive: true, force: true }))

/** The route's module as it loads in the project at `root` (by default one with no props yet), under `nodeEnv`. */
function routeIn(nodeEnv: string, root = empty): typeof import('../../lib/render/docsPages') {
  const env = process.env.NODE_ENV
  jest.spyOn(process, 'cwd').mockReturnValue(root)
  try {
    Object.assign(process.env, { NODE_ENV: nodeEnv })
    let loaded: typeof import('../../lib/render/docsPages') | undefined
    jest.isolateModules(() => {
      loaded = require('../../lib/render/docsPages')
    })
    return loaded!
  } finally {
    Object.assign(process.env, { NODE_ENV: env })
    jest.restoreAllMocks()
  }
}

test('in npm run dev, a page asked for before the first content check ended says to reload once the check has ended', () => {
  const { docsPageProps, DocsPageError } = routeIn('development')
  expect(() => docsPageProps(['docs', 'leads', 'intro'])).toThrow(DocsPageError)
  expect(() => docsPageProps(['docs', 'leads', 'intro'])).toThrow(
    'docs route: .cache/props.json is missing: npm run dev writes it when its first content check ends (the terminal prints `content check: …`); reload this page then'
  )
})

test('in a build, next build run alone is told to run the build instead', () => {
  const { docsPaths } = routeIn('production')
  expect(() => docsPaths()).toThrow("docs route: .cache/props.json is missing: the build writes each page's props before `next build`; run `npm run build` or `npm run dev`, not `next build` alone")
})

describe('a path with no page', () => {
  const withIndex = fs.mkdtempSync(path.join(os.tmpdir(), 'docs-pages-index-'))
  beforeAll(() => {
    const json = JSON.stringify({ doc: { route: '/docs/leads/intro' } })
    fs.mkdirSync(path.join(withIndex, '.cache/props'), { recursive: true })
    fs.writeFileSync(path.join(withIndex, '.cache/props.json'), JSON.stringify({ '/docs/leads/intro': propsFileName(json) }))
    fs.writeFileSync(path.join(withIndex, '.cache/props', propsFileName(json)), json)
  })
  afterAll(() => fs.rmSync(withIndex, { recursive: true, force: true }))

  test("in npm run dev the route renders any path asked for, as Next keeps the first list of paths it got: a page added since renders, and a path with no page is Next's 404", () => {
    const route = routeIn('development', withIndex)
    expect(route.DOCS_FALLBACK).toBe('blocking')
    // None listed: Next's dev server would rewrite its manifest of them in place at each page added.
    expect(route.docsPaths()).toEqual([])
    expect(route.docsPageProps(['docs', 'leads', 'intro'])).toEqual({ doc: { route: '/docs/leads/intro' } })
    expect(route.docsPageProps(['docs', 'leads', 'nowhere'])).toBeNull()
  })

  test('in a build every page is listed and only those render: a path with no page is a bug, named', () => {
    const route = routeIn('production', withIndex)
    expect(route.DOCS_FALLBACK).toBe(false)
    expect(route.docsPaths()).toEqual([{ params: { slug: ['docs', 'leads', 'intro'] } }])
    expect(() => route.docsPageProps(['docs', 'leads', 'nowhere'])).toThrow('docs route: no page for /docs/leads/nowhere in .cache/props.json')
  })
})

test.each([
  ['cut short', (json: string) => json.slice(0, 12)],
  ['changed where it still reads as props', (json: string) => json.replace('Five', 'Nine')],
])("a page's props file %s (by hand, or by a disk) is refused, never rendered, and named with what to do", (_how, damage) => {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'docs-pages-damaged-'))
  try {
    const json = JSON.stringify({ doc: { route: '/docs/leads/intro', text: 'Five lead-source companies' } })
    const name = propsFileName(json)
    fs.mkdirSync(path.join(root, '.cache/props'), { recursive: true })
    fs.writeFileSync(path.join(root, '.cache/props.json'), JSON.stringify({ '/docs/leads/intro': name }))
    fs.writeFileSync(path.join(root, '.cache/props', name), damage(json))
    const route = routeIn('production', root)
    const message = (() => {
      try {
        route.docsPageProps(['docs', 'leads', 'intro'])
        return 'rendered'
      } catch (error) {
        return (error as Error).message
      }
    })()
    expect(message).toMatch(new RegExp(`^docs route: \\.cache/props/${name.replace('.', '\\.')}, the props of /docs/leads/intro, cannot be read \\(.*\\); remove it and build again$`))
    expect(message).toContain('(its bytes are not those the page step wrote under that name)')
  } finally {
    fs.rmSync(root, { recursive: true, force: true })
  }
})
