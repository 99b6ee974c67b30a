/**
 * @jest-environment node
 *
 * What the docs route says when the props index is not there: in `npm run dev` (a page opened
 * before the first content check ended, which no refresh reaches) and in a `next build` run alone.
 */
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'

const empty = fs.mkdtempSync(path.join(os.tmpdir(), 'docs-pages-'))
afterAll(() => fs.rmSync(empty, { recursive: true, force: true }))

/** The route's module as it loads in a project with no props yet, under `nodeEnv`. */
function routeIn(nodeEnv: string): typeof import('../../lib/render/docsPages') {
  const env = process.env.NODE_ENV
  jest.spyOn(process, 'cwd').mockReturnValue(empty)
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
